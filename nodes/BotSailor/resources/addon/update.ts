import { inputs, validateBody, z } from '../../../shared/inputs';
import { confirmed, updateFields } from '../common';
import type { OperationDescription } from '../resource';
import { addonLocator } from '../user/locators';
import { accessTypeForEarlierForm } from '../user/schemas';
import {
	accessTypeOptions,
	addonName,
	settings,
	sharedBody,
	variationFields,
	visible,
} from './fields';
import { variationArrays } from './variations';

const updateBody = z.object({
	...sharedBody,
	id: inputs.integer.describe('Addon'),
	addon_description: sharedBody.addon_description.optional(),
	price: sharedBody.price.optional(),
	validity: sharedBody.validity.optional(),
	validity_type: sharedBody.validity_type.optional(),
	addon_type: sharedBody.addon_type.optional(),
	extend_value: sharedBody.extend_value.optional(),
});

export const update: OperationDescription = {
	option: {
		name: 'Update',
		value: 'update',
		action: 'Update an addon',
		description: 'Change an addon; its variations are replaced by the ones given',
		routing: confirmed(
			'/user/addon/update',
			variationArrays,
			accessTypeForEarlierForm('updateFields.accessType', false),
			validateBody(updateBody),
		),
	},
	fields: [
		addonLocator({ name: 'addon', property: 'id', required: true }),
		addonName,
		updateFields([
			{
				displayName: 'Access Type (Earlier API Form)',
				name: 'accessType',
				type: 'options',
				options: accessTypeOptions,
				default: 'extend',
				description: 'Only sent when the credential uses the earlier API form',
			},
			...settings(false),
			visible,
		]),
		...variationFields,
	],
};
