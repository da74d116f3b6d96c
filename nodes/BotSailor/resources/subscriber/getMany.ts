import { inputs, subscriberKeys, validateBody, z } from '../../../shared/inputs';
import { paginate } from '../../shared/pagination';
import type { OperationDescription } from '../resource';
import { returnAllAndLimit, whatsAppNumber } from '../common';

export const getMany: OperationDescription = {
	kind: 'read',
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
			operations: { pagination: paginate(100, { unpaginatedInEarlierForm: true }) },
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
