import type { INodeProperties } from 'n8n-workflow';
import { inputs, validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';
import { accessTypeForEarlierForm } from '../user/schemas';
import { addonFields } from './fields';
import { VALIDITY_TYPES, variationArrays } from './variations';

const resource = 'addon';

/** The fields create and update share; on update all but the variation arrays are optional. */
const shared = {
	addon_name: inputs.required.describe('Name'),
	addon_description: inputs.required.describe('Description'),
	price: inputs.number.describe('Price'),
	validity: inputs.integer.describe('Validity'),
	validity_type: inputs.oneOf(VALIDITY_TYPES).describe('Validity Type'),
	addon_type: inputs.oneOf(['recurring', 'one-time']).describe('Addon Type'),
	access_type: inputs.oneOf(['extend', 'allow']).optional().describe('Access Type (Earlier API Form)'),
	extend_value: inputs.integer.describe('Extend Value'),
	visible: inputs.flag.optional().describe('Visible'),
	variation_name: inputs.json.optional().describe('Variations'),
	variation_validity: inputs.json.optional().describe('Variations'),
	variation_validity_type: inputs.json.optional().describe('Variations'),
	variation_extend_value: inputs.json.describe('Variations'),
	variation_price: inputs.json.describe('Variations'),
};

const createSchema = z.object({ ...shared, module_id: inputs.integer.describe('Module') });
const updateSchema = z.object({
	...shared,
	id: inputs.integer.describe('Addon'),
	addon_description: shared.addon_description.optional(),
	price: shared.price.optional(),
	validity: shared.validity.optional(),
	validity_type: shared.validity_type.optional(),
	addon_type: shared.addon_type.optional(),
	extend_value: shared.extend_value.optional(),
});

export const addonDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create an addon',
				description: 'Create an addon that extends a module limit, with optional variations',
				routing: {
					request: { url: '/user/addon/create' },
					send: { preSend: [variationArrays, accessTypeForEarlierForm('accessType', true), validateBody(createSchema)] },
					output: { postReceive: [unwrap('confirmation')] },
				},
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many addons',
				description: 'List the addons with their prices, variations and discounts',
				routing: {
					request: { url: '/user/addon/list' },
					output: { postReceive: [unwrap('message')] },
				},
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update an addon',
				description: 'Change an addon; its variations are replaced by the ones given',
				routing: {
					request: { url: '/user/addon/update' },
					send: {
						preSend: [variationArrays, accessTypeForEarlierForm('updateFields.accessType', false), validateBody(updateSchema)],
					},
					output: { postReceive: [unwrap('confirmation')] },
				},
			},
		],
		default: 'getMany',
	},
	...addonFields,
];
