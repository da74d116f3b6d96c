import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { confirmed } from '../common';
import type { OperationDescription } from '../resource';
import { moduleLocator } from '../shared/userGroupLocators';
import { accessTypeForEarlierForm } from '../shared/userGroupSchemas';
import {
	accessTypeOptions,
	addonName,
	settings,
	sharedBody,
	variationFields,
	visible,
} from './fields';
import { variationArrays } from './variations';

export const addonCreateOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Create an addon.',
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create an addon',
		description: 'Create an addon that extends a module limit, with optional variations',
		routing: confirmed(
			'/user/addon/create',
			variationArrays,
			accessTypeForEarlierForm('accessType', true),
			validateBody(() =>
				z.object({ ...sharedBody(), module_id: inputs.integer.describe('Module') }),
			),
		),
	},
	fields: [
		addonName,
		moduleLocator({ name: 'module', property: 'module_id', required: true }),
		...settings(true),
		{
			displayName: 'Access Type (Earlier API Form)',
			name: 'accessType',
			type: 'options',
			options: accessTypeOptions,
			default: 'extend',
			description: 'Only sent when the credential uses the earlier API form, where it is required',
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [visible],
		},
		...variationFields,
	],
};
