import type { IDataObject } from 'n8n-workflow';
import { validateBody, z } from '../../../shared/parameters/inputs';
import { unwrap } from '../../running/outputItems';
import type { OperationDescription } from '../resource';
import { buyer, buyerCheck, purchase, purchaseId } from './fields';

/** A read of the token wallet: the API's text says "updated", which a read did not do. */
const walletOnly = ({ used, available, credit_limit }: IDataObject): IDataObject => ({
	used,
	available,
	credit_limit,
});

export const getAiTokensOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Read the AI tokens of an assigned addon.',
	option: {
		name: 'Get AI Tokens',
		value: 'getAiTokens',
		action: 'Get the AI tokens of an addon purchase',
		description: 'Read the used, available and total AI tokens of an assigned addon',
		routing: {
			request: { url: '/user/addon/assign/credits' },
			send: { preSend: [validateBody(() => z.object({ id: purchaseId, user_id: buyer }))] },
			output: { postReceive: [unwrap('confirmation', walletOnly)] },
		},
	},
	fields: [purchase(), buyerCheck()],
};
