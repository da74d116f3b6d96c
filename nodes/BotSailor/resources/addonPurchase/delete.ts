import { validateBody, z } from '../../../shared/parameters/inputs';
import { confirmed } from '../common';
import type { OperationDescription } from '../resource';
import { purchase, purchaseId } from './fields';

export const addonPurchaseDeleteOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Remove an assigned addon from a platform user.',
	option: {
		name: 'Delete',
		value: 'delete',
		action: 'Delete an addon purchase',
		description:
			'Remove an addon from a user (AI-token addons cannot be removed; use Update AI Tokens)',
		routing: confirmed(
			'/addon/purchase/delete',
			validateBody(() => z.object({ id: purchaseId })),
		),
	},
	fields: [purchase()],
};
