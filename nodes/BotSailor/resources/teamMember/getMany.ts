import { unwrap } from '../../shared/output';
import type { OperationDescription } from '../resource';

export const getMany: OperationDescription = {
	kind: 'read',
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
