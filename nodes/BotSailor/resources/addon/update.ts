import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { confirmed, updateFields } from '../common';
import type { OperationDescription } from '../resource';
import { addonLocator } from '../shared/userGroupLocators';
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

/** Update's body: the shared fields, all but the variation arrays optional. */
function updateBody() {
	const shared = sharedBody();
	return z.object({
		...shared,
		id: inputs.integer.describe('Addon'),
		addon_description: shared.addon_description.optional(),
		price: shared.price.optional(),
		validity: shared.validity.optional(),
		validity_type: shared.validity_type.optional(),
		addon_type: shared.addon_type.optional(),
		extend_value: shared.extend_value.optional(),
	});
}

export const addonUpdateOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Change an addon.',
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
