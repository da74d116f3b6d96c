import { numberList } from '../shared/numberList';

export const postBackGetManyOperation = numberList({
	toolDescription: 'List the post-backs (bot reply buttons and their replies) of the number.',
	action: 'Get many post backs',
	description: 'Get the post-backs (bot reply buttons and their replies) of a WhatsApp number',
	routing: {
		request: { url: '/whatsapp/get/post-back-list' },
	},
	decodeJson: true,
});
