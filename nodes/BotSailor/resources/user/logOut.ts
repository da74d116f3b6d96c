import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { confirmed } from '../common';
import type { OperationDescription } from '../resource';
import { userLocator } from '../shared/userGroupLocators';

export const logOutOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Sign a platform user out.',
	option: {
		name: 'Log Out',
		value: 'logOut',
		action: 'Log out a user',
		description: 'Sign a user out of the platform',
		routing: confirmed(
			'/user/logout',
			validateBody(() => z.object({ user_id: inputs.integer.describe('User') })),
		),
	},
	fields: [
		userLocator({
			name: 'user',
			property: 'user_id',
			required: true,
			description: 'The user to sign out of every session',
		}),
	],
};
