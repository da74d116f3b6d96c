import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator, subscriberWrite } from '../shared/subscriber';

export const resetInputFlowOperation: OperationDescription = {
	kind: 'write',
	toolDescription:
		'Reset the input flow (questions the bot is waiting to have answered) of a subscriber.',
	option: {
		name: 'Reset Input Flow',
		value: 'resetInputFlow',
		action: 'Reset the input flow of a subscriber',
		routing: subscriberWrite('/whatsapp/subscriber/reset/user-input-flow'),
	},
	fields: [whatsAppNumber(), subscriberLocator()],
};
