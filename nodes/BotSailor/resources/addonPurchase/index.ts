import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { inputs, validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';
import { paginate } from '../../shared/pagination';
import { addonRef, dateOrUnlimited } from '../user/schemas';
import { expiryChoice } from './expiry';
import { addonPurchaseFields } from './fields';

const resource = 'addonPurchase';

/** A read of the token wallet: the API's text says "updated", which a read did not do. */
const walletOnly = ({ used, available, credit_limit }: IDataObject): IDataObject => ({ used, available, credit_limit });

const purchaseId = inputs.integer.describe('Addon Purchase');
const buyer = inputs.integer.optional().describe('User');

export const addonPurchaseDescription: INodeProperties[] = [
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
				action: 'Assign an addon to a user',
				description: 'Assign an addon, or one of its variations, to a user',
				routing: {
					request: { url: '/user/addon/assign' },
					send: {
						preSend: [
							validateBody(
								z.object({
									user_id: inputs.integer.describe('User'),
									addon_id: addonRef.describe('Addon'),
									expired_date: inputs.date.describe('Expiry Date'),
									status: inputs.flag.optional().describe('Status'),
								}),
							),
						],
					},
					output: { postReceive: [unwrap('confirmation')] },
				},
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete an addon purchase',
				description: 'Remove an addon from a user (AI-token addons cannot be removed; use Update AI Tokens)',
				routing: {
					request: { url: '/addon/purchase/delete' },
					send: { preSend: [validateBody(z.object({ id: purchaseId }))] },
					output: { postReceive: [unwrap('confirmation')] },
				},
			},
			{
				name: 'Get AI Tokens',
				value: 'getAiTokens',
				action: 'Get the AI tokens of an addon purchase',
				description: 'Read the used, available and total AI tokens of an assigned addon',
				routing: {
					request: { url: '/user/addon/assign/credits' },
					send: { preSend: [validateBody(z.object({ id: purchaseId, user_id: buyer }))] },
					output: { postReceive: [unwrap('confirmation', walletOnly)] },
				},
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many addon purchases',
				description: 'List the addons assigned to users',
				routing: {
					request: { url: '/user/addon/assign/list' },
					send: { preSend: [validateBody(z.object({ user_id: buyer }))] },
					operations: { pagination: paginate(100) },
					output: { postReceive: [unwrap('message')] },
				},
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update an addon purchase',
				description: "Change an assigned addon's expiry, status or variation",
				routing: {
					request: { url: '/user/addon/assign/update' },
					send: {
						preSend: [
							expiryChoice,
							validateBody(
								z.object({
									id: purchaseId,
									addon_id: addonRef.optional().describe('Addon'),
									expired_date: dateOrUnlimited.optional().describe('Expiry Date'),
									status: inputs.flag.optional().describe('Status'),
								}),
								{ keepEmpty: ['expired_date'] },
							),
						],
					},
					output: { postReceive: [unwrap('confirmation')] },
				},
			},
			{
				name: 'Update AI Tokens',
				value: 'updateAiTokens',
				action: 'Update the AI tokens of an addon purchase',
				description: 'Set the used and available AI tokens of an assigned addon',
				routing: {
					request: { url: '/user/addon/assign/credits' },
					send: {
						preSend: [
							validateBody(
								z.object({
									id: purchaseId,
									used: inputs.integer.describe('Used Tokens'),
									available: inputs.integer.describe('Available Tokens'),
									user_id: buyer,
								}),
							),
						],
					},
					output: { postReceive: [unwrap('confirmation')] },
				},
			},
		],
		default: 'getMany',
	},
	...addonPurchaseFields,
];
