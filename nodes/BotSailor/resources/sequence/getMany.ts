import { numberList } from '../shared/numberList';

export const getMany = numberList({
	action: 'Get many sequences',
	description: 'List the sequence campaigns of a WhatsApp number',
	routing: {
		request: { url: '/whatsapp/subscriber/sequence/list' },
	},
});
