import type { INodeProperties } from 'n8n-workflow';
import { showFor } from '../common';
import { inputs, validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';

const resource = 'account';
const show = showFor(resource, ['connect']);

export const accountOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: [
		{
			name: 'Connect',
			value: 'connect',
			action: 'Connect a business account',
			description: 'Connect a WhatsApp business account to a user',
			routing: {
				request: { url: '/whatsapp/account/connect' },
				send: {
					preSend: [
						validateBody(
							z.object({
								user_id: inputs.integer.describe('User ID'),
								whatsapp_business_account_id: inputs.required.describe('WhatsApp Business Account ID'),
								access_token: inputs.required.describe('Access Token'),
							}),
						),
					],
				},
				output: { postReceive: [unwrap('confirmation')] },
			},
		},
	],
	default: 'connect',
};

export const accountDescription: INodeProperties[] = [
	accountOperations,
	{
		displayName: 'User ID',
		name: 'userId',
		type: 'number',
		default: 0,
		required: true,
		description: 'The platform user who will own the account',
		displayOptions: show,
		routing: { send: { type: 'body', property: 'user_id' } },
	},
	{
		displayName: 'WhatsApp Business Account ID',
		name: 'whatsappBusinessAccountId',
		type: 'string',
		default: '',
		required: true,
		displayOptions: show,
		routing: { send: { type: 'body', property: 'whatsapp_business_account_id' } },
	},
	{
		displayName: 'Access Token',
		name: 'accessToken',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		description: 'The business account access token from Meta',
		displayOptions: show,
		routing: { send: { type: 'body', property: 'access_token' } },
	},
];
