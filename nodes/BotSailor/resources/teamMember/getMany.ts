import { unwrap } from '../../running/outputItems';
import type { OperationDescription } from '../resource';

export const teamMemberGetManyOperation: OperationDescription = {
	kind: 'read',
	toolDescription: 'List the team members (human agents) of the account, with their IDs.',
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many team members',
		description: 'List the team members (agents) of the account',
		routing: {
			request: { url: '/user/team-member/list' },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [],
};
