import type { INodeProperties } from 'n8n-workflow';
import { showFor } from '../common';

export const phoneNumberField = (operations: string[]): INodeProperties => ({
	displayName: 'Phone Number',
	name: 'phoneNumber',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. +44 7700 900123',
	description: 'The subscriber\'s number with country code; spaces, +, dashes and brackets are removed before sending',
	displayOptions: showFor('message', operations),
	routing: { send: { type: 'body', property: 'phone_number' } },
});

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
