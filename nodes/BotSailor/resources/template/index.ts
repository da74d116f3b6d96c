import { resource } from '../resource';
import { templateCreateOperation } from './create';
import { templateGetManyOperation } from './getMany';
import { templateGetStatusOperation } from './getStatus';
import { sendBroadcastOperation } from './sendBroadcast';

export const templateDescription = resource(
	'template',
	[
		templateCreateOperation,
		templateGetManyOperation,
		templateGetStatusOperation,
		sendBroadcastOperation,
	],
	{ default: 'getMany' },
);
