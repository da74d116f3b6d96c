import type { INodeProperties } from 'n8n-workflow';
import { inputs, validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';
import { paginate } from '../../shared/pagination';
import { userFields } from './fields';
import { currentFormOnly, requireFields, userRef } from './schemas';

const resource = 'user';

const optionalText = z.string().trim().optional();

export const userOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a user',
			description: 'Create a platform user (client account) with a package; outputs the new user ID',
			routing: {
				request: { url: '/user/create' },
				send: {
					preSend: [
						validateBody(
							z.object({
								name: inputs.required.describe('Name'),
								email: inputs.email.describe('Email'),
								mobile: optionalText.describe('Mobile'),
								password: inputs.required.describe('Password'),
								package_id: inputs.integer.describe('Package'),
								expired_date: inputs.date.describe('Expiry Date'),
							}),
						),
					],
				},
				output: { postReceive: [unwrap('confirmation')] },
			},
		},
		{
			name: 'Create With Login Link',
			value: 'createWithLoginLink',
			action: 'Create a user with a login link',
			description: 'Create a new user and get a one-time login link; fails when the email already has a user',
			routing: {
				request: { url: '/user/get/direct-login-url/only-new-users' },
				send: {
					preSend: [
						validateBody(
							z.object({
								email: inputs.email.describe('Email'),
								package_id: inputs.integer.describe('Package'),
								expired_date: inputs.date.describe('Expiry Date'),
							}),
						),
					],
				},
				output: { postReceive: [unwrap('message')] },
			},
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a user',
			description: 'Get one user by ID or email, with package, limits and WhatsApp numbers',
			routing: {
				request: { url: '/user/list' },
				send: { preSend: [validateBody(z.object({ id: userRef.describe('User') }))] },
				output: { postReceive: [unwrap('message')] },
			},
		},
		{
			name: 'Get Login Link',
			value: 'getLoginLink',
			action: 'Get a login link for a user',
			description: 'Get a one-time login link for a user by email, optionally creating the user',
			routing: {
				request: { url: '/user/get/direct-login-url' },
				send: {
					preSend: [
						requireFields({ package_id: 'Package', expired_date: 'Expiry Date' }, (body) => body.create_on_fail === '1'),
						validateBody(
							z.object({
								email: inputs.email.describe('Email'),
								name: optionalText.describe('Name'),
								mobile: optionalText.describe('Mobile'),
								package_id: inputs.integer.optional().describe('Package'),
								expired_date: inputs.date.optional().describe('Expiry Date'),
								status: inputs.flag.optional().describe('Status'),
								create_on_fail: inputs.flag.describe('Create User If Missing'),
							}),
						),
					],
				},
				output: { postReceive: [unwrap('message')] },
			},
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many users',
			description: 'List the platform users you manage',
			routing: {
				request: { url: '/user/list' },
				send: { preSend: [validateBody(z.object({}))] },
				operations: { pagination: paginate(1000, { unpaginatedInEarlierForm: true }) },
				output: { postReceive: [unwrap('message')] },
			},
		},
		{
			name: 'Get Me',
			value: 'getMe',
			action: 'Get my account',
			description: 'Get the account that owns the API token, with its WhatsApp numbers and limits',
			routing: {
				request: { url: '/user/myInfo' },
				output: { postReceive: [unwrap('message')] },
			},
		},
		{
			name: 'Get Usage Log',
			value: 'getUsageLog',
			action: 'Get the usage log',
			description: "Get this month's module usage and limits of the account that owns the API token",
			routing: {
				request: { url: '/user/usage/log' },
				output: { postReceive: [unwrap('message')] },
			},
		},
		{
			name: 'Log Out',
			value: 'logOut',
			action: 'Log out a user',
			description: 'Sign a user out of the platform',
			routing: {
				request: { url: '/user/logout' },
				send: { preSend: [validateBody(z.object({ user_id: inputs.integer.describe('User') }))] },
				output: { postReceive: [unwrap('confirmation')] },
			},
		},
		{
			name: 'Update',
			value: 'update',
			action: 'Update a user',
			description: 'Change a user: details, package, expiry, status, or reset usage',
			routing: {
				request: { url: '/user/update' },
				send: {
					preSend: [
						currentFormOnly('reset_ai_token_usage', 'Reset AI Token Usage'),
						validateBody(
							z.object({
								id: userRef.describe('User'),
								name: optionalText.describe('Name'),
								email: inputs.email.optional().describe('Email'),
								mobile: optionalText.describe('Mobile'),
								password: optionalText.describe('Password'),
								package_id: inputs.integer.optional().describe('Package'),
								expired_date: inputs.date.optional().describe('Expiry Date'),
								status: inputs.flag.optional().describe('Status'),
								reset_monthly_usage: inputs.flag.optional().describe('Reset Monthly Usage'),
								reset_ai_token_usage: inputs.flag.optional().describe('Reset AI Token Usage'),
							}),
						),
					],
				},
				output: { postReceive: [unwrap('confirmation')] },
			},
		},
	],
	default: 'getMe',
};

export const userDescription: INodeProperties[] = [userOperations, ...userFields];
