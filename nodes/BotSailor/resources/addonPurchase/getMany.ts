import { validateBody, z } from '../../../shared/parameters/inputs';
import { unwrap } from '../../running/outputItems';
import { decodeJsonOption, returnAllAndLimit } from '../common';
import type { OperationDescription } from '../resource';
import { userLocator } from '../shared/userGroupLocators';
import { buyer } from './fields';

export const addonPurchaseGetManyOperation: OperationDescription = {
	kind: 'read',
	list: { maxPageSize: 100 },
	toolDescription: 'List the addons assigned to platform users.',
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many addon purchases',
		description: 'List the addons assigned to users',
		routing: {
			request: { url: '/user/addon/assign/list' },
			send: { preSend: [validateBody(() => z.object({ user_id: buyer }))] },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [
		...returnAllAndLimit(),
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				userLocator({
					name: 'user',
					property: 'user_id',
					description: 'Only the purchases of this user',
				}),
			],
		},
		decodeJsonOption(),
	],
};
