import { validateBody, z } from '../../../shared/inputs';
import { unwrap } from '../../shared/output';
import { paginate } from '../../shared/pagination';
import { decodeJsonOption, returnAllAndLimit } from '../common';
import type { OperationDescription } from '../resource';

export const getMany: OperationDescription = {
	kind: 'read',
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many transactions',
		description: 'List the payments for packages and addons',
		routing: {
			request: { url: '/user/transaction/list' },
			send: { preSend: [validateBody(() => z.object({}))] },
			operations: { pagination: paginate(100) },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [...returnAllAndLimit(), decodeJsonOption()],
};
