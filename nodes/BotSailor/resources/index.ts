import type { ResourceDescription } from './resource';
import { accountDescription } from './account';
import { addonDescription } from './addon';
import { addonPurchaseDescription } from './addonPurchase';
import { aiDescription } from './ai';
import { botFlowDescription } from './botFlow';
import { catalogDescription } from './catalog';
import { catalogOrderDescription } from './catalogOrder';
import { crmDealDescription } from './crmDeal';
import { customFieldDescription } from './customField';
import { labelDescription } from './label';
import { mediaDescription } from './media';
import { messageDescription } from './message';
import { moduleDescription } from './module';
import { noteDescription } from './note';
import { packageDescription } from './package';
import { postBackDescription } from './postBack';
import { sequenceDescription } from './sequence';
import { subscriberDescription } from './subscriber';
import { teamMemberDescription } from './teamMember';
import { templateDescription } from './template';
import { transactionDescription } from './transaction';
import { userDescription } from './user';

/** Every resource of the node, in the order their fields are listed (BotSailor.node.ts). */
export const RESOURCES: readonly ResourceDescription[] = [
	userDescription,
	accountDescription,
	messageDescription,
	mediaDescription,
	templateDescription,
	postBackDescription,
	botFlowDescription,
	aiDescription,
	addonDescription,
	addonPurchaseDescription,
	moduleDescription,
	packageDescription,
	teamMemberDescription,
	transactionDescription,
	catalogDescription,
	catalogOrderDescription,
	crmDealDescription,
	customFieldDescription,
	labelDescription,
	noteDescription,
	sequenceDescription,
	subscriberDescription,
];
