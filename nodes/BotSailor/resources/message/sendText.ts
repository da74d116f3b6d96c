import type { INodeProperties } from 'n8n-workflow';
import { showFor } from '../common';

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
		routing: { send: { type: 'body', property: 'message' } },
	},
];
