import { unwrap } from '../../running/outputItems';
import type { OperationDescription } from '../resource';

export const getUsageLogOperation: OperationDescription = {
	kind: 'read',
	toolDescription: "Get this month's usage and limits of the account.",
	option: {
		name: 'Get Usage Log',
		value: 'getUsageLog',
		action: 'Get the usage log',
		description: "Get this month's module usage and limits of the account that owns the API token",
		routing: {
			request: { url: '/user/usage/log' },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [],
};
