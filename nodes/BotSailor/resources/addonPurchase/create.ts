import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { activeStatus, confirmed, dateField } from '../common';
import type { OperationDescription } from '../resource';
import { addonLocator, userLocator } from '../shared/userGroupLocators';
import { addonRef } from '../shared/userGroupSchemas';

export const addonPurchaseCreateOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Assign an addon to a platform user.',
	option: {
		name: 'Create',
		value: 'create',
		action: 'Assign an addon to a user',
		description: 'Assign an addon, or one of its variations, to a user',
		routing: confirmed(
			'/user/addon/assign',
			validateBody(() =>
				z.object({
					user_id: inputs.integer.describe('User'),
					addon_id: addonRef.describe('Addon'),
					expired_date: inputs.date.describe('Expiry Date'),
					status: inputs.flag.optional().describe('Status'),
				}),
			),
		),
	},
	fields: [
		userLocator({
			name: 'user',
			property: 'user_id',
			required: true,
			description: 'The user who gets the addon',
		}),
		addonLocator({ name: 'addon', property: 'addon_id', required: true, withVariations: true }),
		dateField('Expiry Date', 'expiredDate', 'expired_date', {
			required: true,
			description: 'When the addon expires',
		}),
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [activeStatus],
		},
	],
};
