import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator, subscriberWrite } from '../shared/subscriber';

export const resetInputFlow: OperationDescription = {
	kind: 'write',
	option: {
		name: 'Reset Input Flow',
		value: 'resetInputFlow',
		action: 'Reset the input flow of a subscriber',
		routing: subscriberWrite('/whatsapp/subscriber/reset/user-input-flow'),
	},
	fields: [whatsAppNumber(), subscriberLocator()],
};
