import type { INodeProperties } from 'n8n-workflow';
import { activeStatus, dateField, decodeJsonOption, returnAllAndLimit, showFor } from '../common';
import { addonLocator, addonPurchaseLocator, userLocator } from '../user/locators';

/** The fields of the Addon Purchase operations. */

const resource = 'addonPurchase';


export const addonPurchaseFields: INodeProperties[] = [
	// Create (assign)
	userLocator({ name: 'user', property: 'user_id', required: true, displayOptions: showFor(resource, ['create']), description: 'The user who gets the addon' }),
	addonLocator({ name: 'addon', property: 'addon_id', required: true, withVariations: true, displayOptions: showFor(resource, ['create']) }),
	dateField('Expiry Date', 'expiredDate', 'expired_date', { required: true, description: 'When the addon expires', displayOptions: showFor(resource, ['create']) }),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor(resource, ['create']),
		options: [activeStatus],
	},

	// The purchase an operation acts on
	addonPurchaseLocator({
		name: 'addonPurchase',
		property: 'id',
		required: true,
		displayOptions: showFor(resource, ['update', 'getAiTokens', 'updateAiTokens', 'delete']),
	}),

	// Update
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
		displayOptions: showFor(resource, ['update']),
	},
	dateField('Expiry Date', 'expiredDate', 'expired_date', {
		required: true,
		description: 'When the addon expires',
		displayOptions: { show: { resource: [resource], operation: ['update'], expiry: ['date'] } },
	}),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor(resource, ['update']),
		options: [
			addonLocator({
				name: 'addon',
				property: 'addon_id',
				withVariations: true,
				description: 'Switch the purchase to this addon or variation (ID written <addon ID>-<variation index>, the first variation is 0)',
			}),
			activeStatus,
		],
	},

	// AI tokens
	{
		displayName: 'Used Tokens',
		name: 'used',
		type: 'number',
		default: 0,
		required: true,
		typeOptions: { minValue: 0 },
		description: 'Lifetime used tokens',
		displayOptions: showFor(resource, ['updateAiTokens']),
		routing: { send: { type: 'body', property: 'used' } },
	},
	{
		displayName: 'Available Tokens',
		name: 'available',
		type: 'number',
		default: 0,
		required: true,
		typeOptions: { minValue: 0 },
		description: 'Remaining tokens; the total becomes used + available',
		displayOptions: showFor(resource, ['updateAiTokens']),
		routing: { send: { type: 'body', property: 'available' } },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor(resource, ['getAiTokens', 'updateAiTokens']),
		options: [
			userLocator({
				name: 'user',
				property: 'user_id',
				description: 'Only act when the purchase belongs to this user (by ID)',
			}),
		],
	},

	// Get Many
	...returnAllAndLimit(resource, ['getMany']),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: showFor(resource, ['getMany']),
		options: [userLocator({ name: 'user', property: 'user_id', description: 'Only the purchases of this user' })],
	},
	decodeJsonOption(resource, ['getMany']),
];
