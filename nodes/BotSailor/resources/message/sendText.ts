import type { INodeProperties } from 'n8n-workflow';
import { showFor } from '../common';
import { checkFields, inputs, z } from '../../shared/inputs';
import type { SendDefinition } from '../../shared/sendDefinition';

export const sendTextFields: INodeProperties[] = [
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		description: 'The text to send',
		displayOptions: showFor('message', ['sendText']),
	},
];

const schema = z.object({
	phone_number_id: inputs.required.describe('WhatsApp Number'),
	phone_number: inputs.phoneNumber.describe('Subscriber'),
	message: inputs.required.describe('Message'),
});

/** Message → Send Text: free text, inside the 24-hour session window. */
export const sendText: SendDefinition = {
	resource: 'message',
	operation: 'sendText',
	url: '/whatsapp/send',
	async build(item) {
		return checkFields(item, schema, {
			phone_number_id: item.param('phoneNumberId', undefined, { extractValue: true }),
			phone_number: item.param('phoneNumber', undefined, { extractValue: true }),
			message: item.param('message'),
		});
	},
};
