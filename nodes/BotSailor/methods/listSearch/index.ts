import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { botSailorRequest } from '../../shared/request';
import { matching } from './matching';
import { messagingSearch } from './messaging';
import { subscriberSearch } from './subscribers';
import { userGroupSearch } from './userGroups';

async function searchWhatsAppNumbers(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const envelope = await botSailorRequest.call(this, '/user/myInfo');
	const me = (envelope.message ?? {}) as IDataObject;
	const bots = (Array.isArray(me.whatsapp_bots_details) ? me.whatsapp_bots_details : []) as IDataObject[];
	return matching(
		bots.map((bot) => ({
			name: `${bot.display_phone_number} (${bot.whatsapp_business_name})`,
			value: String(bot.phone_number_id),
		})),
		filter,
	);
}

export const listSearch = {
	...messagingSearch,
	...subscriberSearch,
	...userGroupSearch,
	searchWhatsAppNumbers,
};
