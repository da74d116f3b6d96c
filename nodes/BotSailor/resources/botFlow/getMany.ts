import { numberList } from '../shared/numberList';

export const getMany = numberList({
	action: 'Get many bot flows',
	description: 'Get the bot flows of a WhatsApp number',
	routing: {
		request: { url: '/whatsapp/get/bot-flow-list' },
	},
});
