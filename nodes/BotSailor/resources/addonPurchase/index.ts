import { resource } from '../resource';
import { createOperation } from './create';
import { deleteOperation } from './delete';
import { getAiTokensOperation } from './getAiTokens';
import { getManyOperation } from './getMany';
import { updateOperation } from './update';
import { updateAiTokensOperation } from './updateAiTokens';

export const addonPurchaseDescription = resource(
	'addonPurchase',
	[
		createOperation,
		deleteOperation,
		getAiTokensOperation,
		getManyOperation,
		updateOperation,
		updateAiTokensOperation,
	],
	{
		default: 'getMany',
	},
);
