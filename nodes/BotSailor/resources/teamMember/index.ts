import type { INodeProperties } from 'n8n-workflow';
import { unwrap } from '../../shared/output';

const resource = 'teamMember';

export const teamMemberDescription: INodeProperties[] = [
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
				action: 'Get many team members',
				description: 'List the team members (agents) of the account',
				routing: {
					request: { url: '/user/team-member/list' },
					output: { postReceive: [unwrap('message')] },
				},
			},
		],
		default: 'getMany',
	},
];
