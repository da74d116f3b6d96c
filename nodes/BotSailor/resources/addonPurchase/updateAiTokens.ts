import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { confirmed } from '../common';
import type { OperationDescription } from '../resource';
import { buyer, buyerCheck, purchase, purchaseId } from './fields';

export const updateAiTokensOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Set the AI tokens of an assigned addon.',
	option: {
		name: 'Update AI Tokens',
		value: 'updateAiTokens',
		action: 'Update the AI tokens of an addon purchase',
		description: 'Set the used and available AI tokens of an assigned addon',
		routing: confirmed(
			'/user/addon/assign/credits',
			validateBody(() =>
				z.object({
					id: purchaseId,
					used: inputs.integer.describe('Used Tokens'),
					available: inputs.integer.describe('Available Tokens'),
					user_id: buyer,
				}),
			),
		),
	},
	fields: [
		purchase(),
		{
			displayName: 'Used Tokens',
			name: 'used',
			type: 'number',
			default: 0,
			required: true,
			typeOptions: { minValue: 0 },
			description: 'Lifetime used tokens',
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
			routing: { send: { type: 'body', property: 'available' } },
		},
		buyerCheck(),
	],
};
