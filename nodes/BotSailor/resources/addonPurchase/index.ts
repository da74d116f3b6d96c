import { resource } from '../resource';
import { create } from './create';
import { deleteOperation } from './delete';
import { getAiTokens } from './getAiTokens';
import { getMany } from './getMany';
import { update } from './update';
import { updateAiTokens } from './updateAiTokens';

export const addonPurchaseDescription = resource(
	'addonPurchase',
	[create, deleteOperation, getAiTokens, getMany, update, updateAiTokens],
	{
		default: 'getMany',
	},
);
