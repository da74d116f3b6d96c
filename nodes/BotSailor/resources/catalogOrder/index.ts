import type { DeclarativeRestApiSettings, IExecutePaginationFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { inputs, validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';
import { requestedLimit } from '../../shared/pagination';
import { sendOnce } from '../../shared/sendOnce';
import { decodeJsonOption, returnAllAndLimit, showFor } from '../common';

const resource = 'catalogOrder';
const STATUSES = ['Approved', 'Completed', 'Shipped', 'Delivered', 'Refunded'] as const;

/** The order list is one unpaginated response: Limit keeps its first records. */
async function firstRecords(this: IExecutePaginationFunctions, requestData: DeclarativeRestApiSettings.ResultOptions): Promise<INodeExecutionData[]> {
	const limit = requestedLimit(this); // checked first, so a bad Limit sends nothing
	const items = await sendOnce.call(this, requestData);
	return limit === undefined ? items : items.slice(0, limit);
}

export const catalogOrderOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: [
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many catalog orders',
			routing: {
				request: { url: '/whatsapp/catalog/order/list' },
				send: { preSend: [validateBody(z.object({ whatsapp_catalog_id: z.string().describe('Catalog').optional() }))] },
				output: { postReceive: [unwrap('message')] },
				operations: { pagination: firstRecords },
			},
		},
		{
			name: 'Update Status',
			value: 'updateStatus',
			action: 'Update the status of a catalog order',
			routing: {
				request: { url: '/whatsapp/catalog/order/status-change' },
				send: {
					preSend: [
						validateBody(
							z.object({
								order_unique_id: inputs.required.describe('Order ID'),
								cart_status: inputs.oneOf(STATUSES).describe('Status'),
							}),
						),
					],
				},
				output: { postReceive: [unwrap('confirmation')] },
			},
		},
	],
	default: 'getMany',
};

export const catalogOrderDescription: INodeProperties[] = [
	catalogOrderOperations,
	...returnAllAndLimit(resource, ['getMany']),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: showFor(resource, ['getMany']),
		options: [
			{
				displayName: 'Catalog Name or ID',
				name: 'catalogId',
				type: 'options',
				default: '',
				description:
					'Only orders of this catalog. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				typeOptions: { loadOptionsMethod: 'getCatalogs' },
				routing: { send: { type: 'body', property: 'whatsapp_catalog_id' } },
			},
		],
	},
	{
		displayName: 'Order ID',
		name: 'orderId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. ORD-1000',
		description: 'The order_unique_id of the order',
		displayOptions: showFor(resource, ['updateStatus']),
		routing: { send: { type: 'body', property: 'order_unique_id' } },
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		default: 'Approved',
		required: true,
		displayOptions: showFor(resource, ['updateStatus']),
		options: STATUSES.map((status) => ({ name: status, value: status })),
		routing: { send: { type: 'body', property: 'cart_status' } },
	},
	decodeJsonOption(resource, ['getMany']),
];
