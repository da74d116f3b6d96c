import type { INodeProperties } from 'n8n-workflow';
import { activeStatus, dateField, returnAllAndLimit, showFor } from '../common';
import { packageLocator, userLocator } from './locators';

/** The fields of the User operations (the operations themselves are in index.ts). */

const resource = 'user';

const text = (displayName: string, name: string, property: string, extra: Partial<INodeProperties> = {}): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	routing: { send: { type: 'body', property } },
	...extra,
});

export const userFields: INodeProperties[] = [
	userLocator({ name: 'user', property: 'id', required: true, displayOptions: showFor(resource, ['get', 'update']) }),
	userLocator({
		name: 'user',
		property: 'user_id',
		required: true,
		displayOptions: showFor(resource, ['logOut']),
		description: 'The user to sign out of every session',
	}),

	...returnAllAndLimit(resource, ['getMany']),

	// Create
	text('Name', 'name', 'name', { required: true, displayOptions: showFor(resource, ['create']) }),
	text('Email', 'email', 'email', {
		required: true,
		placeholder: 'name@email.com',
		displayOptions: showFor(resource, ['create', 'getLoginLink', 'createWithLoginLink']),
	}),
	text('Password', 'password', 'password', {
		required: true,
		typeOptions: { password: true },
		displayOptions: showFor(resource, ['create']),
	}),
	packageLocator({ name: 'package', property: 'package_id', required: true, displayOptions: showFor(resource, ['create', 'createWithLoginLink']) }),
	dateField('Expiry Date', 'expiredDate', 'expired_date', {
		required: true,
		description: 'When the account expires',
		displayOptions: showFor(resource, ['create', 'createWithLoginLink']),
	}),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor(resource, ['create']),
		options: [text('Mobile', 'mobile', 'mobile', { placeholder: 'e.g. 15550102000' })],
	},

	// Get Login Link
	{
		displayName: 'Create User If Missing',
		name: 'createOnFail',
		type: 'boolean',
		default: false,
		description: 'Whether to create the user from the fields below when no user has this email (otherwise the platform answers "User not found")',
		displayOptions: showFor(resource, ['getLoginLink']),
		routing: { send: { type: 'body', property: 'create_on_fail', value: '={{ $value ? "1" : "0" }}' } },
	},
	packageLocator({
		name: 'package',
		property: 'package_id',
		required: true,
		displayOptions: { show: { resource: [resource], operation: ['getLoginLink'], createOnFail: [true] } },
		description: 'The package of the user when it has to be created',
	}),
	dateField('Expiry Date', 'expiredDate', 'expired_date', {
		required: true,
		description: 'When the account expires, when it has to be created',
		displayOptions: { show: { resource: [resource], operation: ['getLoginLink'], createOnFail: [true] } },
	}),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor(resource, ['getLoginLink']),
		options: [text('Mobile', 'mobile', 'mobile'), text('Name', 'name', 'name'), activeStatus],
	},

	// Update
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor(resource, ['update']),
		options: [
			text('Email', 'email', 'email', { placeholder: 'name@email.com' }),
			dateField('Expiry Date', 'expiredDate', 'expired_date', { description: 'When the account expires' }),
			text('Mobile', 'mobile', 'mobile'),
			text('Name', 'name', 'name'),
			packageLocator({ name: 'package', property: 'package_id' }),
			text('Password', 'password', 'password', { typeOptions: { password: true } }),
			{
				displayName: 'Reset AI Token Usage',
				name: 'resetAiTokenUsage',
				type: 'boolean',
				default: true,
				description: "Whether to reset the user's AI token usage log (current API form only)",
				routing: { send: { type: 'body', property: 'reset_ai_token_usage', value: '={{ $value ? "1" : "0" }}' } },
			},
			{
				displayName: 'Reset Monthly Usage',
				name: 'resetMonthlyUsage',
				type: 'boolean',
				default: true,
				description: "Whether to reset this month's usage log of the user",
				routing: { send: { type: 'body', property: 'reset_monthly_usage', value: '={{ $value ? "1" : "0" }}' } },
			},
			activeStatus,
		],
	},
];
