import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';
import { locatorValue } from '../../../shared/parameters/locatorValue';
import { payloadRecords } from '../../../shared/http/envelope';
import { botSailorRequest } from '../../../shared/http/transport';
import { catalogs, teamMembers } from '../loadOptions/lists';
import { matching } from '../../../shared/parameters/matching';
import { withNextPage } from '../../resources/resource';

const searchable = (options: INodePropertyOptions[]) =>
	options.map(({ name, value }) => ({ name, value: String(value) }));

/** Pages of 100 subscribers one search step reads at most while nothing matches (1,000 subscribers). */
export const SUBSCRIBER_SEARCH_PAGES = 10;
const PAGE_SIZE = 100;

/** A filter that is a phone number (digits with +, spaces, dashes, dots or brackets) is compared by its digits. */
function subscriberMatcher(filter: string): (entry: { name: string; value: string }) => boolean {
	const needle = filter.trim().toLowerCase();
	const digits = needle.replace(/\D/g, '');
	if (digits.length >= 3 && /^[\d\s+\-().]+$/.test(needle))
		return (entry) => entry.value.replace(/\D/g, '').includes(digits);
	return (entry) => `${entry.name} ${entry.value}`.toLowerCase().includes(needle);
}

/**
 * The chosen number's subscribers, most recent conversation first. Without a filter, one API page (100) per scroll
 * step. The list endpoint has no search, so with a filter (a name, or a phone number in any notation, e.g.
 * +1 555 010 0001) one step reads page after page until a page has matches, the list ends, or it has read
 * SUBSCRIBER_SEARCH_PAGES pages; then, with nothing found, its last entry says how far it searched, and scrolling
 * searches on from there.
 */
async function searchSubscribers(
	this: ILoadOptionsFunctions,
	filter?: string,
	pageToken?: string,
): Promise<INodeListSearchResult> {
	const phoneNumberId = locatorValue(this, 'phoneNumberId');
	if (!phoneNumberId) return { results: [] };
	const first = Number(pageToken ?? 1) || 1;
	const matches = filter?.trim() ? subscriberMatcher(filter) : () => true;
	const results: INodeListSearchItems[] = [];
	let page = first;
	for (let read = 1; ; read++) {
		const envelope = await botSailorRequest.call(this, '/whatsapp/subscriber/list', {
			phone_number_id: phoneNumberId,
			limit: PAGE_SIZE,
			offset: page,
			orderBy: 1,
		});
		const records = payloadRecords(envelope);
		results.push(
			...records
				.map((subscriber) => ({
					name: `${[subscriber.first_name, subscriber.last_name].filter(Boolean).join(' ') || 'Unnamed'} (+${subscriber.chat_id})`,
					value: String(subscriber.chat_id),
				}))
				.filter(matches),
		);
		const next = Number(envelope.nextOffset);
		const more = Number.isInteger(next) && next > page && records.length > 0;
		if (!more) return { results };
		page = next;
		if (results.length > 0 || !filter?.trim()) return withNextPage({ results }, String(page));
		if (read >= SUBSCRIBER_SEARCH_PAGES) {
			const searched = (page - 1) * PAGE_SIZE;
			results.push({
				name: `No match in the ${searched.toLocaleString('en-US')} most recent subscribers: scroll to search further, or pick By ID`,
				value: '',
				description: `The search stops every ${SUBSCRIBER_SEARCH_PAGES * PAGE_SIZE} subscribers (the platform has no search) and goes on from here when you scroll`,
			});
			return withNextPage({ results }, String(page));
		}
	}
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
