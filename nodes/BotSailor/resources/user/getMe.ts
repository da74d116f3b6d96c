import { unwrap } from '../../shared/output';
import type { OperationDescription } from '../resource';

export const getMe: OperationDescription = {
	kind: 'read',
	option: {
		name: 'Get Me',
		value: 'getMe',
		action: 'Get my account',
		description: 'Get the account that owns the API token, with its WhatsApp numbers and limits',
		routing: {
			request: { url: '/user/myInfo' },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [],
};
