import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { activeStatus, confirmed, dateField, updateFields } from '../common';
import type { OperationDescription } from '../resource';
import { addonLocator } from '../shared/userGroupLocators';
import { addonRef, dateOrUnlimited } from '../shared/userGroupSchemas';
import { expiryChoice } from './expiry';
import { purchase, purchaseId } from './fields';

export const addonPurchaseUpdateOperation: OperationDescription = {
	kind: 'write',
	toolDescription: "Change an assigned addon's expiry, status or variation.",
	option: {
		name: 'Update',
		value: 'update',
		action: 'Update an addon purchase',
		description: "Change an assigned addon's expiry, status or variation",
		routing: confirmed(
			'/user/addon/assign/update',
			expiryChoice,
			validateBody(
				() =>
					z.object({
						id: purchaseId,
						addon_id: addonRef.optional().describe('Addon'),
						expired_date: dateOrUnlimited.optional().describe('Expiry Date'),
						status: inputs.flag.optional().describe('Status'),
					}),
				{ keepEmpty: ['expired_date'] },
			),
		),
	},
	fields: [
		purchase(),
		{
			displayName: 'Expiry',
			name: 'expiry',
			type: 'options',
			options: [
				{ name: "Don't Change", value: 'keep' },
				{ name: 'Set a Date', value: 'date' },
				{ name: 'Unlimited', value: 'unlimited', description: 'The addon never expires' },
			],
			default: 'keep',
		},
		dateField('Expiry Date', 'expiredDate', 'expired_date', {
			required: true,
			description: 'When the addon expires',
			displayOptions: { show: { expiry: ['date'] } },
		}),
		updateFields([
			addonLocator({
				name: 'addon',
				property: 'addon_id',
				withVariations: true,
				description:
					'Switch the purchase to this addon or variation (ID written <addon ID>-<variation index>, the first variation is 0)',
			}),
			activeStatus,
		]),
	],
};
