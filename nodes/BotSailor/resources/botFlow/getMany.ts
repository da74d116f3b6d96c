import { numberList } from '../shared/numberList';

export const botFlowGetManyOperation = numberList({
	toolDescription: 'List the bot flows (automated conversations) of the WhatsApp number.',
	action: 'Get many bot flows',
	description: 'Get the bot flows of a WhatsApp number',
	routing: {
		request: { url: '/whatsapp/get/bot-flow-list' },
	},
});
