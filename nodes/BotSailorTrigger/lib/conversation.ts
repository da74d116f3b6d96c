import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import type { Page } from '../../shared/envelope';
import { CONVERSATION_PAGE_SIZE, nextPage, newestFirst, servedConversationPage } from './api';
import { conversationPageOrder, listOrderError } from './listOrder';
import { findLastPage, onceEach } from './pages';

/**
 * A conversation read from its newest messages backwards, whatever order the platform pages it in.
 *
 * The spec does not say which page holds the newest messages. Page 1 tells: when the conversation
 * has more than one page, page 1 is full and its times show the order. Newest first (the common
 * case): page 1, then 2, 3… Oldest first: the last page (found in about 2·log2(pages) reads, or in
 * one read from the page number remembered from the last poll), then the pages before it. Pages in
 * no time order cannot be followed: the read fails with what was expected and found. A conversation
 * on one page (and the earlier API form, which answers it whole) needs no order.
 */
export interface ConversationRead {
	/** The newest page, its messages newest first. */
	latest: IDataObject[];
	/** The page number of `latest` when the platform pages oldest first and there are several pages: where to start next time. */
	lastPage?: number;
	/** The next page back in time, newest first; undefined when there is none. */
	older(): Promise<IDataObject[] | undefined>;
}

const sorted = (records: IDataObject[]) => [...records].sort(newestFirst);
const hasNext = (page: Page, number: number) =>
	nextPage(page, number, CONVERSATION_PAGE_SIZE) !== undefined;

function newestFirstRead(fetch: (number: number) => Promise<Page>, first: Page): ConversationRead {
	let number = 1;
	let current = first;
	return {
		latest: sorted(first.records),
		async older() {
			const next = nextPage(current, number, CONVERSATION_PAGE_SIZE);
			if (next === undefined) return undefined;
			number = next;
			current = await fetch(number);
			return current.records.length ? sorted(current.records) : undefined;
		},
	};
}

function oldestFirstRead(
	fetch: (number: number) => Promise<Page>,
	last: { number: number; page: Page },
): ConversationRead {
	let number = last.number;
	return {
		latest: sorted(last.page.records),
		lastPage: last.number > 1 ? last.number : undefined,
		async older() {
			if (number <= 1) return undefined;
			number--;
			return sorted((await fetch(number)).records);
		},
	};
}

/** Reads the conversation of `chatId`; `lastPageHint` is a `lastPage` returned by an earlier read. */
export async function readConversation(
	context: IPollFunctions,
	phoneNumberId: string,
	chatId: string,
	lastPageHint?: number,
): Promise<ConversationRead> {
	const { fetch } = onceEach(
		async (number) => await servedConversationPage(context, phoneNumberId, chatId, number),
	);

	// Oldest first, as seen last time: start at the page that was last, unless it shows another order now.
	if (lastPageHint !== undefined && lastPageHint > 1) {
		const page = await fetch(lastPageHint);
		let order = conversationPageOrder(page.records);
		// One message on the page says nothing: the full page before it tells.
		if (page.records.length > 0 && order === 'undetermined')
			order = conversationPageOrder((await fetch(lastPageHint - 1)).records);
		if (page.records.length > 0 && order === 'oldestFirst') {
			return oldestFirstRead(
				fetch,
				await findLastPage(fetch, CONVERSATION_PAGE_SIZE, lastPageHint),
			);
		}
	}

	const first = await fetch(1);
	if (!hasNext(first, 1)) return newestFirstRead(fetch, first);
	const order = conversationPageOrder(first.records);
	if (order === 'unordered')
		throw listOrderError(context, 'conversation', { page: 1, records: first.records, chatId });
	if (order === 'oldestFirst')
		return oldestFirstRead(fetch, await findLastPage(fetch, CONVERSATION_PAGE_SIZE, 1));
	return newestFirstRead(fetch, first);
}
