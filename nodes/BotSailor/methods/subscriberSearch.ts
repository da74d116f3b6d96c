import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { payloadRecords } from '../shared/envelope';
import { botSailorRequest } from '../shared/request';
import { catalogs, chosenNumber, teamMembers } from './lists';

const byText = (filter?: string) => {
	const needle = (filter ?? '').trim().toLowerCase();
	return (text: string) => !needle || text.toLowerCase().includes(needle);
};

/**
 * The chosen number's subscribers, most recent conversation first, one API page (100) per
 * scroll step; the list endpoint has no search, so the filter applies to each page.
 */
async function searchSubscribers(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const phoneNumberId = chosenNumber(this);
	if (!phoneNumberId) return { results: [] };
	const page = Number(paginationToken ?? 1) || 1;
	const envelope = await botSailorRequest.call(this, '/whatsapp/subscriber/list', { phone_number_id: phoneNumberId, limit: 100, offset: page, orderBy: 1 });
	const keep = byText(filter);
	const results = payloadRecords(envelope)
		.map((subscriber) => ({
			name: `${[subscriber.first_name, subscriber.last_name].filter(Boolean).join(' ') || 'Unnamed'} (+${subscriber.chat_id})`,
			value: String(subscriber.chat_id),
		}))
		.filter((entry) => keep(`${entry.name} ${entry.value}`));
	const next = Number(envelope.nextOffset);
	return { results, paginationToken: Number.isInteger(next) && next > page ? String(next) : undefined };
}

async function searchTeamMembers(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const keep = byText(filter);
	return { results: (await teamMembers(this)).filter((entry) => keep(`${entry.name} ${entry.value}`)).map(({ name, value }) => ({ name, value: String(value) })) };
}

async function searchCatalogs(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const keep = byText(filter);
	return { results: (await catalogs(this)).filter((entry) => keep(`${entry.name} ${entry.value}`)).map(({ name, value }) => ({ name, value: String(value) })) };
}

export const subscriberSearch = { searchSubscribers, searchTeamMembers, searchCatalogs };
