import { subscriberKeys, validateBody, z } from '../../../shared/inputs';
import { unwrap } from '../../shared/output';
import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator } from '../shared/subscriber';

export const get: OperationDescription = {
	kind: 'read',
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get a subscriber',
		routing: {
			request: { url: '/whatsapp/subscriber/get' },
			send: { preSend: [validateBody(() => z.object(subscriberKeys))] },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [whatsAppNumber(), subscriberLocator()],
};
