import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { unwrap } from '../../running/outputItems';
import type { OperationDescription } from '../resource';
import { email, packageAndExpiry } from './fields';

export const createWithLoginLinkOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Create a platform user and get a one-time login link.',
	option: {
		name: 'Create With Login Link',
		value: 'createWithLoginLink',
		action: 'Create a user with a login link',
		description:
			'Create a new user and get a one-time login link; fails when the email already has a user',
		routing: {
			request: { url: '/user/get/direct-login-url/only-new-users' },
			send: {
				preSend: [
					validateBody(() =>
						z.object({
							email: inputs.email.describe('Email'),
							package_id: inputs.integer.describe('Package'),
							expired_date: inputs.date.describe('Expiry Date'),
						}),
					),
				],
			},
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [email(), ...packageAndExpiry('When the account expires')],
};
