import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator, subscriberWrite } from '../shared/subscriber';

export const subscriberDeleteOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Delete a WhatsApp subscriber (contact) and their data. Cannot be undone.',
	option: {
		name: 'Delete',
		value: 'delete',
		action: 'Delete a subscriber',
		routing: subscriberWrite('/whatsapp/subscriber/delete'),
	},
	fields: [whatsAppNumber(), subscriberLocator()],
};
