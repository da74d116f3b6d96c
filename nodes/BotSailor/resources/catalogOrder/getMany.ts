import type { DeclarativeRestApiSettings, INodeExecutionData } from 'n8n-workflow';
import { validateBody, z } from '../../../shared/parameters/inputs';
import { unwrap } from '../../running/outputItems';
import { operationRequest } from '../../running/operationRequest';
import { decodeJsonOption, returnAllAndLimit } from '../common';
import { requestedLimit, type OperationContext, type OperationDescription } from '../resource';

/** The order list is one unpaginated response: Limit keeps its first records. */
async function firstRecords(
	this: OperationContext,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const limit = requestedLimit(this); // checked first, so a bad Limit sends nothing
	const items = await operationRequest.call(this, requestData);
	return limit === undefined ? items : items.slice(0, limit);
}

export const catalogOrderGetManyOperation: OperationDescription = {
	kind: 'read',
	execute: firstRecords,
	toolDescription: 'List the orders placed from the WhatsApp catalogs.',
	returnsCustomerText: true,
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many catalog orders',
		routing: {
			request: { url: '/whatsapp/catalog/order/list' },
			send: {
				preSend: [
					validateBody(() =>
						z.object({ whatsapp_catalog_id: z.string().describe('Catalog').optional() }),
					),
				],
			},
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [
		...returnAllAndLimit(),
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
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
		decodeJsonOption(),
	],
};
