import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { confirmed } from '../common';
import type { OperationDescription } from '../resource';

export const connectOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Connect a WhatsApp business account to a platform user.',
	option: {
		name: 'Connect',
		value: 'connect',
		action: 'Connect a business account',
		description: 'Connect a WhatsApp business account to a user',
		routing: confirmed(
			'/whatsapp/account/connect',
			validateBody(() =>
				z.object({
					user_id: inputs.integer.describe('User ID'),
					whatsapp_business_account_id: inputs.required.describe('WhatsApp Business Account ID'),
					access_token: inputs.required.describe('Access Token'),
				}),
			),
		),
	},
	fields: [
		{
			displayName: 'User ID',
			name: 'userId',
			type: 'number',
			default: 0,
			required: true,
			description: 'The platform user who will own the account',
			routing: { send: { type: 'body', property: 'user_id' } },
		},
		{
			displayName: 'WhatsApp Business Account ID',
			name: 'whatsappBusinessAccountId',
			type: 'string',
			default: '',
			required: true,
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
			routing: { send: { type: 'body', property: 'access_token' } },
		},
	],
};
