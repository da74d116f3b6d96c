import type { INodeProperties } from 'n8n-workflow';
import { inputs } from '../../../shared/parameters/inputs';
import { addonPurchaseLocator, userLocator } from '../shared/userGroupLocators';

/** What several Addon Purchase operations share: the purchase they act on, and its optional owner. */

/** The purchase an operation acts on, sent as `id`. */
export const purchase = () =>
	addonPurchaseLocator({ name: 'addonPurchase', property: 'id', required: true });

export const purchaseId = inputs.integer.describe('Addon Purchase');
export const buyer = inputs.integer.optional().describe('User');

/** The AI token operations' Additional Fields: act only when the purchase belongs to a user. */
export function buyerCheck(): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			userLocator({
				name: 'user',
				property: 'user_id',
				description: 'Only act when the purchase belongs to this user (by ID)',
			}),
		],
	};
}
