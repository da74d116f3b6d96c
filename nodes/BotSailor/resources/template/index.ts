import { resource } from '../resource';
import { create } from './create';
import { getMany } from './getMany';
import { getStatus } from './getStatus';
import { sendBroadcastOperation } from './sendBroadcast';

export const templateDescription = resource(
	'template',
	[create, getMany, getStatus, sendBroadcastOperation],
	{ default: 'getMany' },
);
