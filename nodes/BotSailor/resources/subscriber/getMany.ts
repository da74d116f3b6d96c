import { inputs, subscriberKeys, validateBody, z } from '../../../shared/parameters/inputs';
import type { OperationDescription } from '../resource';
import { returnAllAndLimit, whatsAppNumber } from '../common';

export const subscriberGetManyOperation: OperationDescription = {
	kind: 'read',
	list: { maxPageSize: 100, unpaginatedInEarlierForm: true },
	toolDescription:
		'List the WhatsApp subscribers (contacts), most recent activity first. Use a small limit.',
	returnsCustomerText: true,
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many subscribers',
		routing: {
			request: { url: '/whatsapp/subscriber/list' },
			send: {
				preSend: [
					validateBody(() =>
						z.object({
							phone_number_id: subscriberKeys.phone_number_id,
							orderBy: inputs.flag.describe('Order By').optional(),
						}),
					),
				],
			},
		},
	},
	fields: [
		whatsAppNumber(),
		...returnAllAndLimit(),
		{
			displayName: 'Order By',
			name: 'orderBy',
			type: 'options',
			default: '0',
			description: 'Ignored by deployments on the earlier API form',
			options: [
				{ name: 'Default Order', value: '0' },
				{ name: 'Most Recent Message First', value: '1' },
			],
			routing: { send: { type: 'body', property: 'orderBy' } },
		},
	],
};
