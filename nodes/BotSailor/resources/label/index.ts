import type { INodeProperties } from 'n8n-workflow';
import { inputs } from '../../shared/inputs';
import { unwrap } from '../../shared/output';
import { showFor, whatsAppNumber } from '../common';
import { labelForm } from './earlierForm';

const resource = 'label';

export const labelOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a label',
			routing: {
				request: { url: '/label/create' },
				send: { preSend: [labelForm({ label_name: inputs.required.describe('Name') })] },
				output: { postReceive: [unwrap('confirmation')] },
			},
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many labels',
			routing: {
				request: { url: '/label/list' },
				send: { preSend: [labelForm({})] },
				output: { postReceive: [unwrap('message')] },
			},
		},
	],
	default: 'getMany',
};

export const labelDescription: INodeProperties[] = [
	labelOperations,
	{
		// Sent only on deployments with the earlier API form, where labels belong to a number.
		...whatsAppNumber(resource, ['create', 'getMany']),
		required: false,
		routing: undefined,
		description:
			'Only used when the credential’s API Form is Earlier (labels belonged to a number then); current deployments ignore it',
	},
	{
		displayName: 'Name',
		name: 'labelName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. VIP',
		displayOptions: showFor(resource, ['create']),
		routing: { send: { type: 'body', property: 'label_name' } },
	},
];
