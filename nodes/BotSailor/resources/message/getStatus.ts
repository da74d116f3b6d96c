import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { unwrap } from '../../running/outputItems';
import type { OperationDescription } from '../resource';

export const messageGetStatusOperation: OperationDescription = {
	kind: 'read',
	toolDescription:
		'Get the delivery status (sent, delivered, read, failed) of a message sent earlier, by its WhatsApp message ID (wamid…).',
	option: {
		name: 'Get Status',
		value: 'getStatus',
		action: 'Get a message status',
		description: 'Get the delivery status of a sent message',
		routing: {
			request: { url: '/whatsapp/get/message-status' },
			send: {
				preSend: [
					validateBody(() => z.object({ wa_message_id: inputs.required.describe('Message ID') })),
				],
			},
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [
		{
			displayName: 'Message ID',
			name: 'waMessageId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. wamid.HBgLMTU1NTAxMDAwMDAVAgARGBI',
			description: 'The wa_message_id returned by a send',
			routing: { send: { type: 'body', property: 'wa_message_id' } },
		},
	],
};
