import type { INodeProperties } from 'n8n-workflow';
import { unwrap } from '../../shared/output';

const resource = 'customField';

export const customFieldOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: [
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many custom fields',
			description: 'List the account’s subscriber custom fields',
			// The one list whose payload sits in `data` (spec: Custom fields list).
			routing: { request: { url: '/whatsapp/subscriber/custom-fields/list' }, output: { postReceive: [unwrap('data')] } },
		},
	],
	default: 'getMany',
};

export const customFieldDescription: INodeProperties[] = [customFieldOperations];
