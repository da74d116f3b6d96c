import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { compareMessages, nextPage, subscriberPage, SUBSCRIBER_PAGE_SIZE } from './api';
import { readSubscriberConversation } from './conversationReads';
import { isWithoutPhone, warnWithoutPhone } from '../../shared/conversation/customer';

/**
 * Finds the conversation messages written since the last poll without reading every subscriber.
 *
 * The subscriber list with `orderBy=1` is sorted by latest message, newest first, but its items
 * carry no time. So the walk reads the list page by page and, for each subscriber, the newest page
 * of their conversation (page 1, or the last page where the platform pages oldest first: see
 * polling/conversationReads.ts), and stops at the first subscriber with nothing new:
 * everyone below them has older activity. An idle poll costs 2 requests (list + one
 * conversation); a poll where k subscribers wrote costs k + 2, plus one request per subscriber
 * that was active in the previous poll (re-checked once, see `recent`).
 *
 * Cursor: messages older than `since` are old; among newer ones, `seen` holds those already
 * handled. `since` lags one poll behind `newest`, and subscribers active in the previous poll are
 * re-checked, so a message written while a poll was running (on a subscriber the poll had passed)
 * is still caught by the next poll instead of being jumped over.
 */
export interface ActivityCursor {
	since: string;
	newest: string;
	/** Handled message keys → their conversation_time; only entries at or after `since`. */
	seen: Record<string, string>;
	/** Chat ids that had new messages in the previous poll. */
	recent: string[];
	/** Highest subscriber_id met: a subscriber without messages above it is new, below it marks the end. */
	maxSubscriberId: number;
	/**
	 * Only on platforms that page conversations oldest first (polling/conversationReads.ts): chat id → the page
	 * that was last, where the next read starts. Absent otherwise (and in states stored before it existed).
	 */
	lastPages?: Record<string, number>;
}

/** Whether a stored value has the cursor's shape (for migrations of states that embed one). */
export function isActivityCursor(value: unknown): value is ActivityCursor {
	if (!value || typeof value !== 'object') return false;
	const cursor = value as Record<string, unknown>;
	return (
		typeof cursor.since === 'string' &&
		typeof cursor.newest === 'string' &&
		!!cursor.seen &&
		typeof cursor.seen === 'object' &&
		Array.isArray(cursor.recent) &&
		typeof cursor.maxSubscriberId === 'number'
	);
}

/** Bounds that keep the cursor small whatever the traffic. */
export const MAX_SEEN = 500;
export const MAX_RECENT = 100;

export interface SubscriberActivity {
	subscriber: IDataObject;
	/** Messages not handled before, any sender, oldest first. */
	fresh: IDataObject[];
	/** The newest page of the conversation as read (newest first), reused by status tracking. */
	latest: IDataObject[];
	/** Where the conversation's newest page was, when the platform pages oldest first. */
	lastPage?: number;
}

export function messageKey(message: IDataObject): string {
	return String(message.id ?? message.wa_message_id ?? '');
}

function timeOf(message: IDataObject): string {
	return String(message.conversation_time ?? '');
}

function isFresh(cursor: ActivityCursor, message: IDataObject): boolean {
	return timeOf(message) >= cursor.since && !(messageKey(message) in cursor.seen);
}

/** The new messages of one subscriber: conversation pages, newest first, while everything on a page is new. */
async function freshMessagesOf(
	context: IPollFunctions,
	phoneNumberId: string,
	chatId: string,
	cursor: ActivityCursor,
): Promise<{ fresh: IDataObject[]; latest: IDataObject[]; lastPage?: number }> {
	const conversation = await readSubscriberConversation(
		context,
		phoneNumberId,
		chatId,
		cursor.lastPages?.[chatId],
	);
	let current: IDataObject[] | undefined = conversation.latest;
	const fresh = current.filter((message) => isFresh(cursor, message));
	// All of a page new: older pages may hold more new messages.
	while (current.length > 0 && current.every((message) => isFresh(cursor, message))) {
		current = await conversation.older();
		if (!current) break;
		fresh.push(...current.filter((message) => isFresh(cursor, message)));
	}
	return {
		fresh: fresh.sort(compareMessages),
		latest: conversation.latest,
		lastPage: conversation.lastPage,
	};
}

/**
 * A subscriber listed with Meta's ids and no phone number (2026): the platform's API reads a conversation by phone
 * number only, so there is nothing to read (a read with an empty number would fail the whole poll). Said once in
 * the log; the Webhook Trigger starts runs for their messages. SPEC-GAP: the platform's rows for such a customer.
 */
function unreadable(context: IPollFunctions, subscriber: IDataObject): boolean {
	if (!isWithoutPhone(subscriber)) return false;
	warnWithoutPhone(
		'BotSailor Trigger',
		subscriber,
		"The platform's API reads conversations by phone number only, so this trigger cannot read their messages; the BotSailor Webhook Trigger starts a run for each of them, with user_id, username and parent_user_id",
		context.logger,
	);
	return true;
}

/** The walk described above; returns the activity found and the cursor to store after a successful poll. */
export async function walkActivity(
	context: IPollFunctions,
	phoneNumberId: string,
	cursor: ActivityCursor,
): Promise<{ found: SubscriberActivity[]; cursor: ActivityCursor }> {
	const found: SubscriberActivity[] = [];
	const recent = new Set(cursor.recent);
	let maxSubscriberId = cursor.maxSubscriberId;
	let page = 1;
	walk: for (;;) {
		const list = await subscriberPage(context, phoneNumberId, page, 1);
		for (const subscriber of list.records) {
			const chatId = String(subscriber.chat_id ?? '');
			const subscriberId = Number(subscriber.subscriber_id) || 0;
			if (unreadable(context, subscriber)) {
				// Not a sign that everyone below is older: the walk goes on past them.
				maxSubscriberId = Math.max(maxSubscriberId, subscriberId);
				continue;
			}
			const { fresh, latest, lastPage } = await freshMessagesOf(
				context,
				phoneNumberId,
				chatId,
				cursor,
			);
			found.push({ subscriber, fresh, latest, lastPage });
			const knownSubscriber = latest.length > 0 || subscriberId <= cursor.maxSubscriberId;
			maxSubscriberId = Math.max(maxSubscriberId, subscriberId);
			if (fresh.length === 0 && knownSubscriber && !recent.has(chatId)) break walk;
		}
		const next = nextPage(list, page, SUBSCRIBER_PAGE_SIZE);
		if (next === undefined) break;
		page = next;
	}
	return { found, cursor: advance(cursor, found, maxSubscriberId) };
}

/** The cursor after a poll: `since` moves to the previous `newest`, `seen` keeps what is at or after it (bounded). */
function advance(
	cursor: ActivityCursor,
	found: SubscriberActivity[],
	maxSubscriberId: number,
): ActivityCursor {
	const fresh = found.flatMap((entry) => entry.fresh);
	let newest = cursor.newest;
	for (const message of fresh) if (timeOf(message) > newest) newest = timeOf(message);
	let since = cursor.newest;
	const handled = Object.entries({
		...cursor.seen,
		...Object.fromEntries(fresh.map((message) => [messageKey(message), timeOf(message)])),
	})
		.filter(([, time]) => time >= since)
		.sort((a, b) => b[1].localeCompare(a[1]));
	let kept = handled;
	if (handled.length > MAX_SEEN) {
		// Too many to remember: move `since` past the oldest forgotten time, so forgotten messages count as old.
		const firstDropped = handled[MAX_SEEN][1];
		kept = handled.filter(([, time]) => time > firstDropped);
		since = nextSecond(firstDropped);
	}
	const recent = found
		.filter((entry) => entry.fresh.length > 0)
		.map((entry) => String(entry.subscriber.chat_id));
	const next: ActivityCursor = {
		since,
		newest,
		seen: Object.fromEntries(kept),
		recent: recent.slice(0, MAX_RECENT),
		maxSubscriberId,
	};
	const lastPages = rememberedLastPages(cursor.lastPages, found);
	if (lastPages) next.lastPages = lastPages;
	return next;
}

/** The last pages to remember (oldest-first platforms only): those read now, then earlier ones, MAX_RECENT at most. */
export function rememberedLastPages(
	previous: Record<string, number> | undefined,
	read: Array<{ subscriber: IDataObject; lastPage?: number }>,
): Record<string, number> | undefined {
	const entries = new Map<string, number>();
	for (const { subscriber, lastPage } of read)
		if (lastPage !== undefined) entries.set(String(subscriber.chat_id), lastPage);
	const readNow = new Set(read.map(({ subscriber }) => String(subscriber.chat_id)));
	for (const [chatId, page] of Object.entries(previous ?? {}))
		if (!readNow.has(chatId) && !entries.has(chatId)) entries.set(chatId, page);
	return entries.size ? Object.fromEntries([...entries].slice(0, MAX_RECENT)) : undefined;
}

/** `YYYY-MM-DD HH:MM:SS` plus one second (text order stays time order). */
function nextSecond(time: string): string {
	const parsed = Date.parse(`${time.replace(' ', 'T')}Z`);
	if (Number.isNaN(parsed)) return time;
	return new Date(parsed + 1000).toISOString().replace('T', ' ').slice(0, 19);
}

/**
 * The cursor of a first activation: everything that exists now is old. The newest message of the
 * account is the newest message of the first subscriber with a conversation in the `orderBy=1` list.
 */
export async function startActivity(
	context: IPollFunctions,
	phoneNumberId: string,
): Promise<ActivityCursor> {
	const list = await subscriberPage(context, phoneNumberId, 1, 1);
	const maxSubscriberId = Math.max(
		0,
		...list.records.map((entry) => Number(entry.subscriber_id) || 0),
	);
	for (const subscriber of list.records) {
		if (unreadable(context, subscriber)) continue;
		const { latest, lastPage } = await readSubscriberConversation(
			context,
			phoneNumberId,
			String(subscriber.chat_id ?? ''),
		);
		if (latest.length === 0) continue;
		const newest = timeOf(latest[0]);
		const seen = Object.fromEntries(
			latest
				.filter((message) => timeOf(message) === newest)
				.map((message) => [messageKey(message), newest]),
		);
		const cursor: ActivityCursor = { since: newest, newest, seen, recent: [], maxSubscriberId };
		if (lastPage !== undefined) cursor.lastPages = { [String(subscriber.chat_id)]: lastPage };
		return cursor;
	}
	return { since: '', newest: '', seen: {}, recent: [], maxSubscriberId };
}

/** A few recent subscribers with their latest messages, for manual runs (no cursor involved). */
export async function recentActivity(
	context: IPollFunctions,
	phoneNumberId: string,
	subscribers: number,
): Promise<SubscriberActivity[]> {
	const list = await subscriberPage(context, phoneNumberId, 1, 1, subscribers);
	const result: SubscriberActivity[] = [];
	for (const subscriber of list.records.slice(0, subscribers)) {
		if (unreadable(context, subscriber)) continue;
		const { latest } = await readSubscriberConversation(
			context,
			phoneNumberId,
			String(subscriber.chat_id ?? ''),
		);
		result.push({ subscriber, fresh: [...latest].sort(compareMessages), latest });
	}
	return result;
}
