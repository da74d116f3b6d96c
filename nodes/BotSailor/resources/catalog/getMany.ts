import { unwrap } from '../../running/outputItems';
import { decodeJsonOption } from '../common';
import type { OperationDescription } from '../resource';

export const catalogGetManyOperation: OperationDescription = {
	kind: 'read',
	toolDescription: 'List the product catalogs connected to the account.',
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many catalogs',
		routing: {
			request: { url: '/whatsapp/catalog/list' },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [decodeJsonOption()],
};
