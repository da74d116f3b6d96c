import type { INodeProperties } from 'n8n-workflow';
import { decodeJsonOption, returnAllAndLimit, showFor, recipient, whatsAppNumber } from '../common';
import { inputs, validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';
import { paginate } from '../../shared/pagination';
import { sendRouting } from '../../shared/sendDefinition';
import { downloadMediaFields, downloadMediaRouting } from './downloadMedia';
import { sendButtons, sendButtonsFields } from './sendButtons';
import { sendMedia, sendMediaFields } from './sendMedia';
import { sendTemplate, sendTemplateFields } from './sendTemplate';
import { sendText, sendTextFields } from './sendText';

const resource = 'message';
const NUMBER = inputs.required.describe('WhatsApp Number');
const PHONE = inputs.phoneNumber.describe('Subscriber');

export const messageOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: [
		{
			name: 'Download Media',
			value: 'downloadMedia',
			action: 'Download the media of a message',
			description: 'Download the image, video, audio, voice note, document or sticker of a message, as binary data',
			routing: downloadMediaRouting,
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many messages',
			description: 'Get the conversation with a subscriber, newest first',
			routing: {
				request: { url: '/whatsapp/get/conversation' },
				send: { preSend: [validateBody(z.object({ phone_number_id: NUMBER, phone_number: PHONE }))] },
				operations: { pagination: paginate(50, { unpaginatedInEarlierForm: true }) },
				output: { postReceive: [unwrap('message')] },
			},
		},
		{
			name: 'Get Status',
			value: 'getStatus',
			action: 'Get a message status',
			description: 'Get the delivery status of a sent message',
			routing: {
				request: { url: '/whatsapp/get/message-status' },
				send: { preSend: [validateBody(z.object({ wa_message_id: inputs.required.describe('Message ID') }))] },
				output: { postReceive: [unwrap('message')] },
			},
		},
		{
			name: 'Send Buttons',
			value: 'sendButtons',
			action: 'Send a message with reply buttons',
			description: 'Send a session message with one to three reply buttons',
			routing: sendRouting(sendButtons),
		},
		{
			name: 'Send Media',
			value: 'sendMedia',
			action: 'Send a media message',
			description: 'Send an image, video, audio or document from a URL, a media ID or a binary file',
			routing: sendRouting(sendMedia),
		},
		{
			name: 'Send Template',
			value: 'sendTemplate',
			action: 'Send a template message',
			description: 'Send an approved message template; works outside the 24-hour session window',
			routing: sendRouting(sendTemplate),
		},
		{
			name: 'Send Text',
			value: 'sendText',
			action: 'Send a text message',
			description:
				'Send free text. It only reaches a subscriber inside the 24-hour session window after their last message; otherwise use Send Template.',
			routing: sendRouting(sendText),
		},
	],
	default: 'sendText',
};

const SENDS = ['sendText', 'sendTemplate', 'sendButtons', 'sendMedia'];

export const messageDescription: INodeProperties[] = [
	messageOperations,
	whatsAppNumber(resource, [...SENDS, 'getMany']),
	recipient(resource, [...SENDS, 'getMany']),
	...sendTextFields,
	...sendTemplateFields,
	...sendButtonsFields,
	...sendMediaFields,
	...downloadMediaFields,
	{
		displayName: 'Message ID',
		name: 'waMessageId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. wamid.HBgLMTU1NTAxMDAwMDAVAgARGBI',
		description: 'The wa_message_id returned by a send',
		displayOptions: showFor(resource, ['getStatus']),
		routing: { send: { type: 'body', property: 'wa_message_id' } },
	},
	...returnAllAndLimit(resource, ['getMany']),
	decodeJsonOption(resource, ['getMany']),
];
