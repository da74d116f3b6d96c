import { validateBody, z } from '../../../shared/parameters/inputs';
import { unwrap } from '../../running/outputItems';
import { decodeJsonOption, returnAllAndLimit } from '../common';
import type { OperationDescription } from '../resource';

export const transactionGetManyOperation: OperationDescription = {
	kind: 'read',
	list: { maxPageSize: 100 },
	toolDescription: 'List the payments for packages and addons.',
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many transactions',
		description: 'List the payments for packages and addons',
		routing: {
			request: { url: '/user/transaction/list' },
			send: { preSend: [validateBody(() => z.object({}))] },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [...returnAllAndLimit(), decodeJsonOption()],
};
