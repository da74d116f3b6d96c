import type { INodeProperties } from 'n8n-workflow';
import { validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';
import { paginate } from '../../shared/pagination';
import { decodeJsonOption, returnAllAndLimit } from '../common';

const resource = 'transaction';

export const transactionDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many transactions',
				description: 'List the payments for packages and addons',
				routing: {
					request: { url: '/user/transaction/list' },
					send: { preSend: [validateBody(z.object({}))] },
					operations: { pagination: paginate(100) },
					output: { postReceive: [unwrap('message')] },
				},
			},
		],
		default: 'getMany',
	},
	...returnAllAndLimit(resource, ['getMany']),
	decodeJsonOption(resource, ['getMany']),
];
