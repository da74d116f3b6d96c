import { numberList } from '../shared/numberList';

export const sequenceGetManyOperation = numberList({
	toolDescription: 'List the sequence campaigns of the WhatsApp number.',
	action: 'Get many sequences',
	description: 'List the sequence campaigns of a WhatsApp number',
	routing: {
		request: { url: '/whatsapp/subscriber/sequence/list' },
	},
});
