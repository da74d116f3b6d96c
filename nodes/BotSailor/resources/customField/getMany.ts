import { unwrap } from '../../running/outputItems';
import type { OperationDescription } from '../resource';

export const customFieldGetManyOperation: OperationDescription = {
	kind: 'read',
	toolDescription: 'List the custom fields subscribers can have, with their IDs.',
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many custom fields',
		description: 'List the account’s subscriber custom fields',
		// The one list whose payload sits in `data` (spec: Custom fields list).
		routing: {
			request: { url: '/whatsapp/subscriber/custom-fields/list' },
			output: { postReceive: [unwrap('data')] },
		},
	},
	fields: [],
};
