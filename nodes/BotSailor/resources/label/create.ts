import { inputs } from '../../../shared/parameters/inputs';
import { confirmed } from '../common';
import type { OperationDescription } from '../resource';
import { earlierFormNumber, labelForm } from './earlierForm';

export const labelCreateOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Create a label (tag) for subscribers.',
	earlierUrl: '/whatsapp/label/create',
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create a label',
		routing: confirmed(
			'/label/create',
			labelForm({ label_name: inputs.required.describe('Name') }),
		),
	},
	fields: [
		earlierFormNumber(),
		{
			displayName: 'Name',
			name: 'labelName',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. VIP',
			routing: { send: { type: 'body', property: 'label_name' } },
		},
	],
};
