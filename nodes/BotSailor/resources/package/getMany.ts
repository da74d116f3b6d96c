import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { unwrap } from '../../running/outputItems';
import { decodeJsonOption } from '../common';
import type { OperationDescription } from '../resource';

export const packageGetManyOperation: OperationDescription = {
	kind: 'read',
	toolDescription: 'List the subscription packages.',
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many packages',
		description: 'List the subscription packages and team roles',
		routing: {
			request: { url: '/user/package/list' },
			send: {
				preSend: [
					validateBody(() =>
						z.object({
							package_type: inputs
								.oneOf(['subscription', 'team'])
								.optional()
								.describe('Package Type'),
						}),
					),
				],
			},
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [
		{
			displayName: 'Package Type',
			name: 'packageType',
			type: 'options',
			options: [
				{ name: 'All', value: '', description: 'Packages and team roles' },
				{ name: 'Subscription', value: 'subscription', description: 'Packages users subscribe to' },
				{ name: 'Team Role', value: 'team', description: 'Roles of team members' },
			],
			default: '',
			routing: { send: { type: 'body', property: 'package_type' } },
		},
		decodeJsonOption(),
	],
};
