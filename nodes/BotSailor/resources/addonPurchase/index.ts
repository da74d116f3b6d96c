import { resource } from '../resource';
import { addonPurchaseCreateOperation } from './create';
import { addonPurchaseDeleteOperation } from './delete';
import { getAiTokensOperation } from './getAiTokens';
import { addonPurchaseGetManyOperation } from './getMany';
import { addonPurchaseUpdateOperation } from './update';
import { updateAiTokensOperation } from './updateAiTokens';

export const addonPurchaseDescription = resource(
	'addonPurchase',
	[
		addonPurchaseCreateOperation,
		addonPurchaseDeleteOperation,
		getAiTokensOperation,
		addonPurchaseGetManyOperation,
		addonPurchaseUpdateOperation,
		updateAiTokensOperation,
	],
	{
		default: 'getMany',
	},
);
