import type { INodeProperties } from 'n8n-workflow';
import { unwrap } from '../../shared/output';

const resource = 'user';

export const userOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: [
		{
			name: 'Get Me',
			value: 'getMe',
			action: 'Get my account',
			description: 'Get the account that owns the API token, with its WhatsApp numbers and limits',
			routing: {
				request: { url: '/user/myInfo' },
				output: { postReceive: [unwrap('message')] },
			},
		},
	],
	default: 'getMe',
};

export const userDescription: INodeProperties[] = [userOperations];
