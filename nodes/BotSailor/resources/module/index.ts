import type { INodeProperties } from 'n8n-workflow';
import { unwrap } from '../../shared/output';

const resource = 'module';

export const moduleDescription: INodeProperties[] = [
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
				action: 'Get many modules',
				description: 'List the platform modules (features that packages and addons limit)',
				routing: {
					request: { url: '/user/module/list' },
					output: { postReceive: [unwrap('message')] },
				},
			},
		],
		default: 'getMany',
	},
];
