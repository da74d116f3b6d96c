import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { confirmed } from '../common';
import type { OperationDescription } from '../resource';

export const syncOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Sync the products of a catalog from Meta.',
	option: {
		name: 'Sync',
		value: 'sync',
		action: 'Sync the products of a catalog',
		routing: confirmed(
			'/whatsapp/catalog/sync',
			validateBody(() => z.object({ whatsapp_catalog_id: inputs.required.describe('Catalog') })),
		),
	},
	fields: [
		{
			displayName: 'Catalog',
			name: 'catalog',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			required: true,
			description: 'The catalog whose products to sync from Meta',
			modes: [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					typeOptions: { searchListMethod: 'searchCatalogs', searchable: true },
				},
				{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 7788990011' },
			],
			routing: { send: { type: 'body', property: 'whatsapp_catalog_id' } },
		},
	],
};
