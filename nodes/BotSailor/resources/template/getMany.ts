import { numberList } from '../shared/numberList';

export const getMany = numberList({
	action: 'Get many templates',
	description: 'Get the message templates of a WhatsApp number',
	routing: {
		request: { url: '/whatsapp/template/list' },
	},
	decodeJson: true,
});
