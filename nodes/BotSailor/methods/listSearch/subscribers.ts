import type {
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';
import { locatorValue } from '../../../shared/parameters';
import { payloadRecords } from '../../../shared/envelope';
import { botSailorRequest } from '../../../shared/transport';
import { catalogs, teamMembers } from '../loadOptions/lists';
import { matching } from '../../../shared/matching';

const searchable = (options: INodePropertyOptions[]) =>
	options.map(({ name, value }) => ({ name, value: String(value) }));

/**
 * The chosen number's subscribers, most recent conversation first, one API page (100) per
 * scroll step; the list endpoint has no search, so the filter applies to each page.
 */
async function searchSubscribers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const phoneNumberId = locatorValue(this, 'phoneNumberId');
	if (!phoneNumberId) return { results: [] };
	const page = Number(paginationToken ?? 1) || 1;
	const envelope = await botSailorRequest.call(this, '/whatsapp/subscriber/list', {
		phone_number_id: phoneNumberId,
		limit: 100,
		offset: page,
		orderBy: 1,
	});
	const { results } = matching(
		payloadRecords(envelope).map((subscriber) => ({
			name: `${[subscriber.first_name, subscriber.last_name].filter(Boolean).join(' ') || 'Unnamed'} (+${subscriber.chat_id})`,
			value: String(subscriber.chat_id),
		})),
		filter,
	);
	const next = Number(envelope.nextOffset);
	return {
		results,
		paginationToken: Number.isInteger(next) && next > page ? String(next) : undefined,
	};
}

async function searchTeamMembers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return matching(searchable(await teamMembers.call(this)), filter);
}

async function searchCatalogs(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return matching(searchable(await catalogs.call(this)), filter);
}

export const subscriberSearch = { searchSubscribers, searchTeamMembers, searchCatalogs };
