import { subscriberKeys, validateBody, z } from '../../../shared/parameters/inputs';
import { unwrap } from '../../running/outputItems';
import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator } from '../shared/subscriber';

export const subscriberGetOperation: OperationDescription = {
	kind: 'read',
	toolDescription:
		'Look up one WhatsApp subscriber (contact) by phone number: name, labels, custom fields, last interaction. Use it to check who someone is before writing to them; fails with "Subscriber not found." for an unknown number.',
	returnsCustomerText: true,
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
