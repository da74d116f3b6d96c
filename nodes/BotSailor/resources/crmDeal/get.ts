import { subscriberKeys, validateBody, z } from '../../../shared/parameters/inputs';
import { unwrap } from '../../running/outputItems';
import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator } from '../shared/subscriber';

export const crmDealGetOperation: OperationDescription = {
	kind: 'read',
	toolDescription:
		'Get the CRM deal of a WhatsApp subscriber (stage, value); has_deal is false when they have none.',
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get the CRM deal of a subscriber',
		description: 'Get the deal overview; has_deal is false when the subscriber has none yet',
		routing: {
			request: { url: '/whatsapp/subscriber/crm/get' },
			send: { preSend: [validateBody(() => z.object(subscriberKeys))] },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [whatsAppNumber(), subscriberLocator()],
};
