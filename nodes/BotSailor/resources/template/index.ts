import { resource } from '../resource';
import { createOperation } from './create';
import { getManyOperation } from './getMany';
import { getStatusOperation } from './getStatus';
import { sendBroadcastOperation } from './sendBroadcast';

export const templateDescription = resource(
	'template',
	[createOperation, getManyOperation, getStatusOperation, sendBroadcastOperation],
	{ default: 'getMany' },
);
