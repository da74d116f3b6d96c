import { unwrap } from '../../running/outputItems';
import type { OperationDescription } from '../resource';

export const getMeOperation: OperationDescription = {
	kind: 'read',
	toolDescription:
		'Get the BotSailor account that owns the API token, with its WhatsApp numbers (phone_number_id) and limits.',
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
