import { validateBody, z } from '../../../shared/inputs';
import { unwrap } from '../../shared/output';
import { paginate } from '../../shared/pagination';
import { returnAllAndLimit } from '../common';
import type { OperationDescription } from '../resource';

export const getMany: OperationDescription = {
	kind: 'read',
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many users',
		description: 'List the platform users you manage',
		routing: {
			request: { url: '/user/list' },
			send: { preSend: [validateBody(() => z.object({}))] },
			operations: { pagination: paginate(1000, { unpaginatedInEarlierForm: true }) },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: returnAllAndLimit(),
};
