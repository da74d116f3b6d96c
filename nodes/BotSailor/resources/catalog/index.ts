import type { INodeProperties } from 'n8n-workflow';
import { inputs, validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';
import { decodeJsonOption, showFor } from '../common';

const resource = 'catalog';

export const catalogOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: [
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many catalogs',
			routing: { request: { url: '/whatsapp/catalog/list' }, output: { postReceive: [unwrap('message')] } },
		},
		{
			name: 'Sync',
			value: 'sync',
			action: 'Sync the products of a catalog',
			routing: {
				request: { url: '/whatsapp/catalog/sync' },
				send: { preSend: [validateBody(z.object({ whatsapp_catalog_id: inputs.required.describe('Catalog') }))] },
				output: { postReceive: [unwrap('confirmation')] },
			},
		},
	],
	default: 'getMany',
};

export const catalogDescription: INodeProperties[] = [
	catalogOperations,
	{
		displayName: 'Catalog',
		name: 'catalog',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The catalog whose products to sync from Meta',
		displayOptions: showFor(resource, ['sync']),
		modes: [
			{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod: 'searchCatalogs', searchable: true } },
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 7788990011' },
		],
		routing: { send: { type: 'body', property: 'whatsapp_catalog_id' } },
	},
	decodeJsonOption(resource, ['getMany']),
];
