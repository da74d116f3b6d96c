import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { confirmed } from '../common';
import type { OperationDescription } from '../resource';

const STATUSES = ['Approved', 'Completed', 'Shipped', 'Delivered', 'Refunded'] as const;

export const updateStatusOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Change the status of a catalog order.',
	option: {
		name: 'Update Status',
		value: 'updateStatus',
		action: 'Update the status of a catalog order',
		routing: confirmed(
			'/whatsapp/catalog/order/status-change',
			validateBody(() =>
				z.object({
					order_unique_id: inputs.required.describe('Order ID'),
					cart_status: inputs.oneOf(STATUSES).describe('Status'),
				}),
			),
		),
	},
	fields: [
		{
			displayName: 'Order ID',
			name: 'orderId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. ORD-1000',
			description: 'The order_unique_id of the order',
			routing: { send: { type: 'body', property: 'order_unique_id' } },
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: 'Approved',
			required: true,
			options: STATUSES.map((status) => ({ name: status, value: status })),
			routing: { send: { type: 'body', property: 'cart_status' } },
		},
	],
};
