import { unwrap } from '../../running/outputItems';
import { decodeJsonOption } from '../common';
import type { OperationDescription } from '../resource';

export const addonGetManyOperation: OperationDescription = {
	kind: 'read',
	toolDescription: 'List the addons with their prices.',
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many addons',
		description: 'List the addons with their prices, variations and discounts',
		routing: {
			request: { url: '/user/addon/list' },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [decodeJsonOption()],
};
