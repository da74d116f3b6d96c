import { unwrap } from '../../running/outputItems';
import type { OperationDescription } from '../resource';
import { earlierFormNumber, labelForm } from './earlierForm';

export const labelGetManyOperation: OperationDescription = {
	kind: 'read',
	toolDescription: 'List the labels (tags) of the WhatsApp number, with their IDs.',
	earlierUrl: '/whatsapp/label/list',
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many labels',
		routing: {
			request: { url: '/label/list' },
			send: { preSend: [labelForm({})] },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [earlierFormNumber()],
};
