import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { unwrap } from '../../running/outputItems';
import { activeStatus } from '../common';
import type { OperationDescription } from '../resource';
import { email, packageAndExpiry, userText } from './fields';
import { requireFields } from '../shared/userGroupSchemas';

const optionalText = z.string().trim().optional();

export const getLoginLinkOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Get a one-time login link for a platform user.',
	option: {
		name: 'Get Login Link',
		value: 'getLoginLink',
		action: 'Get a login link for a user',
		description: 'Get a one-time login link for a user by email, optionally creating the user',
		routing: {
			request: { url: '/user/get/direct-login-url' },
			send: {
				preSend: [
					requireFields(
						{ package_id: 'Package', expired_date: 'Expiry Date' },
						(body) => body.create_on_fail === '1',
					),
					validateBody(() =>
						z.object({
							email: inputs.email.describe('Email'),
							name: optionalText.describe('Name'),
							mobile: optionalText.describe('Mobile'),
							package_id: inputs.integer.optional().describe('Package'),
							expired_date: inputs.date.optional().describe('Expiry Date'),
							status: inputs.flag.optional().describe('Status'),
							create_on_fail: inputs.flag.describe('Create User If Missing'),
						}),
					),
				],
			},
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [
		email(),
		{
			displayName: 'Create User If Missing',
			name: 'createOnFail',
			type: 'boolean',
			default: false,
			description:
				'Whether to create the user from the fields below when no user has this email (otherwise the platform answers "User not found")',
			routing: {
				send: { type: 'body', property: 'create_on_fail', value: '={{ $value ? "1" : "0" }}' },
			},
		},
		...packageAndExpiry('When the account expires, when it has to be created', {
			packageDescription: 'The package of the user when it has to be created',
			displayOptions: { show: { createOnFail: [true] } },
		}),
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				userText('Mobile', 'mobile', 'mobile'),
				userText('Name', 'name', 'name'),
				activeStatus,
			],
		},
	],
};
