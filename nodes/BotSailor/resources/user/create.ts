import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { confirmed } from '../common';
import type { OperationDescription } from '../resource';
import { email, packageAndExpiry, userText } from './fields';

export const userCreateOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Create a platform user (reseller client account) with a package.',
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create a user',
		description: 'Create a platform user (client account) with a package; outputs the new user ID',
		routing: confirmed(
			'/user/create',
			validateBody(() =>
				z.object({
					name: inputs.required.describe('Name'),
					email: inputs.email.describe('Email'),
					mobile: z.string().trim().optional().describe('Mobile'),
					password: inputs.required.describe('Password'),
					package_id: inputs.integer.describe('Package'),
					expired_date: inputs.date.describe('Expiry Date'),
				}),
			),
		),
	},
	fields: [
		userText('Name', 'name', 'name', { required: true }),
		email(),
		userText('Password', 'password', 'password', {
			required: true,
			typeOptions: { password: true },
		}),
		...packageAndExpiry('When the account expires'),
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [userText('Mobile', 'mobile', 'mobile', { placeholder: 'e.g. 15550102000' })],
		},
	],
};
