import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { activeStatus, confirmed, dateField, updateFields } from '../common';
import type { OperationDescription } from '../resource';
import { userText } from './fields';
import { packageLocator, userLocator } from '../shared/userGroupLocators';
import { currentFormOnly, userRef } from '../shared/userGroupSchemas';

const optionalText = z.string().trim().optional();

export const userUpdateOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Change a platform user: details, package, expiry or status.',
	option: {
		name: 'Update',
		value: 'update',
		action: 'Update a user',
		description: 'Change a user: details, package, expiry, status, or reset usage',
		routing: confirmed(
			'/user/update',
			currentFormOnly('reset_ai_token_usage', 'Reset AI Token Usage'),
			validateBody(() =>
				z.object({
					id: userRef.describe('User'),
					name: optionalText.describe('Name'),
					email: inputs.email.optional().describe('Email'),
					mobile: optionalText.describe('Mobile'),
					password: optionalText.describe('Password'),
					package_id: inputs.integer.optional().describe('Package'),
					expired_date: inputs.date.optional().describe('Expiry Date'),
					status: inputs.flag.optional().describe('Status'),
					reset_monthly_usage: inputs.flag.optional().describe('Reset Monthly Usage'),
					reset_ai_token_usage: inputs.flag.optional().describe('Reset AI Token Usage'),
				}),
			),
		),
	},
	fields: [
		userLocator({ name: 'user', property: 'id', required: true }),
		updateFields([
			userText('Email', 'email', 'email', { placeholder: 'name@email.com' }),
			dateField('Expiry Date', 'expiredDate', 'expired_date', {
				description: 'When the account expires',
			}),
			userText('Mobile', 'mobile', 'mobile'),
			userText('Name', 'name', 'name'),
			packageLocator({ name: 'package', property: 'package_id' }),
			userText('Password', 'password', 'password', { typeOptions: { password: true } }),
			{
				displayName: 'Reset AI Token Usage',
				name: 'resetAiTokenUsage',
				type: 'boolean',
				default: true,
				description: "Whether to reset the user's AI token usage log (current API form only)",
				routing: {
					send: {
						type: 'body',
						property: 'reset_ai_token_usage',
						value: '={{ $value ? "1" : "0" }}',
					},
				},
			},
			{
				displayName: 'Reset Monthly Usage',
				name: 'resetMonthlyUsage',
				type: 'boolean',
				default: true,
				description: "Whether to reset this month's usage log of the user",
				routing: {
					send: {
						type: 'body',
						property: 'reset_monthly_usage',
						value: '={{ $value ? "1" : "0" }}',
					},
				},
			},
			activeStatus,
		]),
	],
};
