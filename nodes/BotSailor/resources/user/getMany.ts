import { validateBody, z } from '../../../shared/parameters/inputs';
import { unwrap } from '../../running/outputItems';
import { returnAllAndLimit } from '../common';
import type { OperationDescription } from '../resource';

export const userGetManyOperation: OperationDescription = {
	kind: 'read',
	list: { maxPageSize: 1000, unpaginatedInEarlierForm: true },
	toolDescription: 'List the platform users (reseller clients).',
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many users',
		description: 'List the platform users you manage',
		routing: {
			request: { url: '/user/list' },
			send: { preSend: [validateBody(() => z.object({}))] },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: returnAllAndLimit(),
};
