import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';
import { botSailorRequest } from '../shared/request';
import { messagingSearch } from './messagingSearch';
import { subscriberSearch } from './subscriberSearch';
import { userGroupSearch } from './userGroupSearch';

/** Keeps the entries whose name or value contains the filter, case-insensitively. */
export function matching(results: INodeListSearchItems[], filter?: string): INodeListSearchResult {
	const needle = (filter ?? '').trim().toLowerCase();
	const kept = needle
		? results.filter((entry) => `${entry.name} ${entry.value}`.toLowerCase().includes(needle))
		: results;
	return { results: kept };
}

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
