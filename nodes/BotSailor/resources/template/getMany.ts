import { numberList } from '../shared/numberList';

export const templateGetManyOperation = numberList({
	toolDescription:
		'List the message templates of the WhatsApp number, with their names, languages, status and variables. Use it to find the template to send.',
	action: 'Get many templates',
	description: 'Get the message templates of a WhatsApp number',
	routing: {
		request: { url: '/whatsapp/template/list' },
	},
	decodeJson: true,
});
