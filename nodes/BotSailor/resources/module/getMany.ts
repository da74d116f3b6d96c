import { unwrap } from '../../running/outputItems';
import type { OperationDescription } from '../resource';

export const moduleGetManyOperation: OperationDescription = {
	kind: 'read',
	toolDescription: 'List the platform modules (features that packages limit).',
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many modules',
		description: 'List the platform modules (features that packages and addons limit)',
		routing: {
			request: { url: '/user/module/list' },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [],
};
