import { NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';
import { listRecords, type Page } from '../http/envelope';
import { decodeJsonFields } from '../parameters/jsonStrings';
import { conversationPageOrder, listOrderError, type PageOrder } from '../http/listOrder';
import { isServedOrder } from '../http/listText';
import { isSystemRow, rowFields } from './messageItem';
import { findLastPage, nextPage, onceEach } from '../http/lastPage';

/**
 * The one reader of a conversation (`whatsapp/get/conversation`), for every node that reads one: the
 * polling trigger, Message → Get Many and Download Media, the Webhook Trigger's Fetch Full Message.
 *
 *   const source = { node, chatId, earlierForm, fetch: (page) => envelope };
 *   for await (const row of conversationRows(source)) …        // newest first, page by page
 *   await findInConversation(source, (row) => …, { maxPages })  // stops at the first match
 *   await readConversation(source, { limit })                   // the newest `limit` rows
 *   await walkBack(source, (row) => …, { maxPages })           // { newer, at, older }: messages back to a row
 *   await openConversation(source, lastPageHint)               // { latest, lastPage, older() }
 *
 * Whatever the deployment sends, rows come newest first:
 * - pages in either order (SPEC-GAP: the spec does not say which page holds the newest messages). When
 *   the conversation has more than one page, page 1's times tell the order (or, when page 1 shows none,
 *   the times of page 2 against page 1's). Newest first: page 1, 2, 3… Oldest first: the last page (found
 *   in about 2·log2(pages) reads, or in one from a page number remembered from an earlier read), then
 *   the pages before it. Pages in no time order cannot be followed: the read fails saying so.
 * - `message` as an array, or as JSON text of an array, of an object keyed "0","1",… or keyed by row id
 *   (listText.ts; the last is no order, so each page's rows are sorted by time, then id);
 * - the earlier API form (`fetch(undefined)`): the whole conversation in one answer.
 * Rows are the platform's records; `conversationRow` adds the flat fields (text, message_type, sender).
 */

export const CONVERSATION_PAGE_SIZE = 50;

/**
 * A subscriber's conversation as a reader's source, for every reader: `request(body)` sends one request of
 * `whatsapp/get/conversation` with these form fields, the subscriber's keys (phone_number_id, phone_number) and,
 * for a page, limit and offset (none on the earlier form, which answers the whole conversation at once).
 */
export function conversationSource(
	node: INode,
	keys: IDataObject,
	earlierForm: boolean,
	request: (body: IDataObject) => Promise<IDataObject>,
): ConversationSource {
	return {
		node,
		chatId: String(keys.phone_number ?? ''),
		earlierForm,
		fetch: async (page) =>
			await request(
				page === undefined ? keys : { ...keys, limit: CONVERSATION_PAGE_SIZE, offset: page },
			),
	};
}

/** What a reader needs: who reads (for errors), whose conversation, and one request of a page. */
export interface ConversationSource {
	node: INode;
	chatId: string;
	/** The earlier API form: no paging parameters, the whole conversation in one answer. */
	earlierForm: boolean;
	/** The envelope of one request (limit 50 and `page` as offset; undefined on the earlier form). */
	fetch(page: number | undefined): Promise<IDataObject>;
}

/** A conversation read from its newest messages backwards. */
export interface ConversationRead {
	/** The newest page, its messages newest first. */
	latest: IDataObject[];
	/** The page number of `latest` when the platform pages oldest first and there are several pages: where to start next time. */
	lastPage?: number;
	/** The next page back in time, newest first; undefined when there is none. */
	older(): Promise<IDataObject[] | undefined>;
}

/** Timestamps are `YYYY-MM-DD HH:MM:SS`, so text order is time order; ids break ties. */
export function compareMessages(a: IDataObject, b: IDataObject): number {
	return (
		String(a.conversation_time ?? '').localeCompare(String(b.conversation_time ?? '')) ||
		Number(a.id) - Number(b.id)
	);
}

export function newestFirst(a: IDataObject, b: IDataObject): number {
	return compareMessages(b, a);
}

/** A page as served, and whether its rows came in the platform's order (see listText.ts). */
interface ServedPage extends Page {
	ordered: boolean;
}

const sorted = (records: IDataObject[]) => [...records].sort(newestFirst);

/** The records of one answer; an answer with no list fails the read (a trigger's poll moves no cursor). */
function servedPage(node: INode, envelope: IDataObject): ServedPage {
	const records = listRecords(envelope);
	if (!records)
		throw new NodeOperationError(node, 'The platform answered a list request without a list', {
			description: 'Nothing was read from the conversation; the next attempt reads it again.',
		});
	return { records, nextOffset: envelope.nextOffset, ordered: isServedOrder(envelope.message) };
}

/** The order of two neighbouring pages by their times: `later` is page number `earlier + 1`. */
function orderBetween(earlier: IDataObject[], later: IDataObject[]): PageOrder {
	if (!earlier.length || !later.length) return 'undetermined';
	const first = sorted(earlier);
	const second = sorted(later);
	if (compareMessages(second[0], first[first.length - 1]) <= 0) return 'newestFirst';
	if (compareMessages(second[second.length - 1], first[0]) >= 0) return 'oldestFirst';
	return 'unordered';
}

/** The order pages `number` and `number + 1` show: the first page's own order when it was served in order, else the two compared. */
async function orderAt(
	fetch: (number: number) => Promise<ServedPage>,
	number: number,
): Promise<PageOrder> {
	const page = await fetch(number);
	if (page.ordered) {
		const own = conversationPageOrder(page.records);
		if (own !== 'undetermined') return own;
	}
	return orderBetween(page.records, (await fetch(number + 1)).records);
}

function newestFirstRead(
	fetch: (number: number) => Promise<ServedPage>,
	first: ServedPage,
): ConversationRead {
	let number = 1;
	let current: Page = first;
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
	fetch: (number: number) => Promise<ServedPage>,
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

/** Opens a conversation at its newest page; `lastPageHint` is a `lastPage` of an earlier read. */
export async function openConversation(
	source: ConversationSource,
	lastPageHint?: number,
): Promise<ConversationRead> {
	if (source.earlierForm) {
		const whole = servedPage(source.node, await source.fetch(undefined));
		return { latest: sorted(whole.records), older: async () => undefined };
	}
	const { fetch } = onceEach(async (number) => servedPage(source.node, await source.fetch(number)));
	const served = fetch as (number: number) => Promise<ServedPage>;
	const unordered = (page: number, records: IDataObject[]) =>
		listOrderError({ getNode: () => source.node }, 'conversation', {
			page,
			records,
			chatId: source.chatId,
		});

	// Oldest first, as seen last time: start at the page that was last, unless it shows another order now.
	if (lastPageHint !== undefined && lastPageHint > 1) {
		const page = await served(lastPageHint);
		if (page.records.length > 0) {
			let order = page.ordered ? conversationPageOrder(page.records) : 'undetermined';
			// One message on the page (or rows keyed by id) says nothing: the page before it tells.
			if (order === 'undetermined') {
				const before = await served(lastPageHint - 1);
				order = before.ordered ? conversationPageOrder(before.records) : 'undetermined';
				if (order === 'undetermined') order = orderBetween(before.records, page.records);
			}
			if (order === 'oldestFirst')
				return oldestFirstRead(
					served,
					await findLastPage(served, CONVERSATION_PAGE_SIZE, lastPageHint),
				);
		}
	}

	const first = await served(1);
	if (nextPage(first, 1, CONVERSATION_PAGE_SIZE) === undefined)
		return newestFirstRead(served, first);
	const order = await orderAt(served, 1);
	if (order === 'unordered') throw unordered(1, first.records);
	if (order === 'oldestFirst')
		return oldestFirstRead(served, await findLastPage(served, CONVERSATION_PAGE_SIZE, 1));
	return newestFirstRead(served, first);
}

export interface RowsOptions {
	/** Stop after this many pages (each of 50 rows). */
	maxPages?: number;
	lastPageHint?: number;
}

/** Every page, newest first, each page's rows newest first: the caller stops early by leaving the loop. */
async function* conversationPages(
	source: ConversationSource,
	{ maxPages = Infinity, lastPageHint }: RowsOptions = {},
): AsyncGenerator<IDataObject[]> {
	const read = await openConversation(source, lastPageHint);
	let page: IDataObject[] | undefined = read.latest;
	for (let pages = 1; page; pages++) {
		yield page;
		if (pages >= maxPages) return;
		page = await read.older();
	}
}

/** Every row, newest first, page by page: the caller stops early by leaving the loop (no further page is read). */
export async function* conversationRows(
	source: ConversationSource,
	options: RowsOptions = {},
): AsyncGenerator<IDataObject> {
	for await (const page of conversationPages(source, options)) yield* page;
}

/** The newest row that matches, reading no further page than needed; undefined when none in `maxPages`. */
export async function findInConversation(
	source: ConversationSource,
	matches: (row: IDataObject) => boolean,
	options: RowsOptions = {},
): Promise<IDataObject | undefined> {
	for await (const row of conversationRows(source, options)) if (matches(row)) return row;
	return undefined;
}

/** A walk from the newest message back to the first one a test matches (walkBack). */
export interface WalkBack {
	/** The messages newer than `at`, newest first; panel events (sender `system`) are left out. */
	newer: IDataObject[];
	/** The newest message the test matched; undefined when none was read (or `maxNewer` was reached first). */
	at?: IDataObject;
	/** The messages older than `at`, newest first: read on as far as the caller goes (no page before it needs one). */
	older: AsyncIterable<IDataObject>;
	/**
	 * The messages of the page that holds `at` (`at` among them), as sorted: a row whose time is no evidence sorts by
	 * that time, so only a row of this page can be newer than `at` while sorted after it.
	 */
	atPage: IDataObject[];
}

/**
 * The one walk back through a conversation's messages (panel events left out) to the newest that `stopAt` matches:
 * Message → Get Unanswered walks to the first message sent to the customer, the reply guards to the message a send
 * answers. No page is read beyond the one holding `at`, unless the caller reads `older`.
 */
export async function walkBack(
	source: ConversationSource,
	stopAt: (row: IDataObject) => boolean,
	{ maxPages, maxNewer = Infinity }: { maxPages?: number; maxNewer?: number } = {},
): Promise<WalkBack> {
	let atPage: IDataObject[] = [];
	async function* messages(): AsyncGenerator<IDataObject> {
		for await (const page of conversationPages(source, { maxPages })) {
			const rows = page.filter((row) => !isSystemRow(row));
			if (!at) atPage = rows;
			yield* rows;
		}
	}
	const iterator = messages();
	const newer: IDataObject[] = [];
	let at: IDataObject | undefined;
	while (newer.length < maxNewer) {
		const next = await iterator.next();
		if (next.done) break;
		if (stopAt(next.value)) {
			at = next.value;
			break;
		}
		newer.push(next.value);
	}
	return { newer, at, older: { [Symbol.asyncIterator]: () => iterator }, atPage: at ? atPage : [] };
}

/** The newest `limit` rows (all without one), newest first. */
export async function readConversation(
	source: ConversationSource,
	{ limit = Infinity }: { limit?: number } = {},
): Promise<IDataObject[]> {
	const rows: IDataObject[] = [];
	if (limit <= 0) return rows;
	for await (const row of conversationRows(source)) {
		rows.push(row);
		if (rows.length >= limit) break;
	}
	return rows;
}

/**
 * A row as Message → Get Many outputs it: the flat fields first (text, message_type, caption, sender:
 * see messageItem.ts), then the record, its JSON-text fields decoded when `decode`.
 */
export function conversationRow(row: IDataObject, decode = true): IDataObject {
	const { sender, ...flat } = rowFields(row);
	return { ...flat, ...(decode ? decodeJsonFields(row) : row), ...flat, sender };
}

/** Whether a row is `wa_message_id` or record `id` `messageId`. */
export function isMessage(messageId: string): (row: IDataObject) => boolean {
	return (row) =>
		String(row.wa_message_id ?? '') === messageId || String(row.id ?? '') === messageId;
}
