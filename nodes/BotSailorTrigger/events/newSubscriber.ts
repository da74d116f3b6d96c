import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import type { Page } from '../../shared/http/envelope';
import { earlierForm, nextPage, subscriberPage, SUBSCRIBER_PAGE_SIZE } from '../polling/api';
import { phoneNumberIdOf, type PollResult, type TriggerEvent } from '../polling/event';
import { listOrderError, subscriberPageOrder, type ListOrder } from '../../shared/http/listOrder';
import { findLastPage, onceEach, type PageFetch } from '../../shared/http/lastPage';

const EVENT = 'newSubscriber';

/**
 * New subscribers are found by subscriber_id (ids grow with creation) where the list in its default
 * order (orderBy=0) puts the newest. The spec does not say that order, so the pages tell it (at
 * activation and on every poll, so a platform that changes it is followed without losing anyone):
 * - oldest first: new subscribers are on the last page. The state is that page's number and the
 *   highest id seen: an idle poll reads one page. When subscribers were deleted the page may have
 *   moved back, so the poll steps back while a page starts above the highest id seen (or is empty).
 * - newest first: they are on page 1 (and the next pages while all of a page is new); an idle poll
 *   reads page 1.
 * - in no order by subscriber_id (more than one page): the activation (or poll) fails, saying so.
 * On the earlier API form the list comes whole in one request, in any order.
 */
interface SubscriberState {
	page: number;
	maxId: number;
	/** The default order as last seen; absent while no page showed it (and in states stored before it was: those assumed oldest first). */
	order?: ListOrder;
}

const idOf = (record: IDataObject) => Number(record.subscriber_id) || 0;
const maxIdOf = (records: IDataObject[]) => Math.max(0, ...records.map(idOf));

function hasNext(page: Page, number: number): boolean {
	return nextPage(page, number, SUBSCRIBER_PAGE_SIZE) !== undefined;
}

/** The pages of the default order in one poll: each read once, and checked for its order. */
function defaultOrderPages(
	context: IPollFunctions,
	phoneNumberId: string,
): { fetch: PageFetch; order(): ListOrder | undefined } {
	let order: ListOrder | undefined;
	const { fetch } = onceEach(async (number) => {
		const page = await subscriberPage(context, phoneNumberId, number, 0);
		const shown = subscriberPageOrder(page.records);
		// One page in any order is the whole list: nothing depends on the order then.
		if (shown === 'unordered' && (number > 1 || hasNext(page, number)))
			throw listOrderError(context, 'subscribers', { page: number, records: page.records });
		if (shown === 'oldestFirst' || shown === 'newestFirst') {
			if (order !== undefined && order !== shown)
				throw listOrderError(context, 'subscribers', { page: number, records: page.records });
			order = shown;
		}
		return page;
	});
	return { fetch, order: () => order };
}

function withNumber(record: IDataObject, phoneNumberId: string): IDataObject {
	return { ...record, phone_number: record.chat_id, phone_number_id: phoneNumberId };
}

/** The items of the subscribers above the highest id seen (each once, in creation order) and the state after them. */
function emitted(
	records: IDataObject[],
	state: SubscriberState,
	next: Omit<SubscriberState, 'maxId'>,
	phoneNumberId: string,
): PollResult<SubscriberState> {
	const byId = new Map<number, IDataObject>();
	for (const record of records) if (idOf(record) > state.maxId) byId.set(idOf(record), record);
	const fresh = [...byId.values()].sort((a, b) => idOf(a) - idOf(b));
	const after: SubscriberState = {
		page: next.page,
		maxId: Math.max(state.maxId, ...fresh.map(idOf)),
	};
	if (next.order) after.order = next.order;
	return { items: fresh.map((record) => withNumber(record, phoneNumberId)), state: after };
}

/** Oldest first: from the last page seen (stepping back over deletions, forward over new pages). */
async function fromLastPage(
	fetch: PageFetch,
	state: SubscriberState,
	order: ListOrder | undefined,
	phoneNumberId: string,
): Promise<PollResult<SubscriberState>> {
	const pages = new Map<number, Page>();
	let number = Math.max(1, state.page);
	let page = await fetch(number);
	pages.set(number, page);
	// Step back while this page may not reach down to the last subscriber seen.
	let back = number;
	let backPage = page;
	while (
		back > 1 &&
		(backPage.records.length === 0 || Math.min(...backPage.records.map(idOf)) > state.maxId)
	) {
		back--;
		backPage = await fetch(back);
		pages.set(back, backPage);
	}
	// Forward to the end of the list.
	for (;;) {
		const next = nextPage(page, number, SUBSCRIBER_PAGE_SIZE);
		if (next === undefined) break;
		number = next;
		page = await fetch(number);
		pages.set(number, page);
	}
	const records = [...pages.entries()]
		.sort((a, b) => a[0] - b[0])
		.flatMap(([, entry]) => entry.records);
	const filled = [...pages.entries()]
		.filter(([, entry]) => entry.records.length > 0)
		.map(([key]) => key);
	return emitted(
		records,
		state,
		{ page: filled.length ? Math.max(...filled) : 1, order },
		phoneNumberId,
	);
}

/** Newest first: page 1, and the next pages while all of a page is new. */
async function fromFirstPage(
	fetch: PageFetch,
	state: SubscriberState,
	phoneNumberId: string,
): Promise<PollResult<SubscriberState>> {
	const records: IDataObject[] = [];
	let number = 1;
	let page = await fetch(number);
	for (;;) {
		records.push(...page.records);
		if (page.records.length === 0 || page.records.some((record) => idOf(record) <= state.maxId))
			break;
		const next = nextPage(page, number, SUBSCRIBER_PAGE_SIZE);
		if (next === undefined) break;
		number = next;
		page = await fetch(number);
	}
	return emitted(records, state, { page: 1, order: 'newestFirst' }, phoneNumberId);
}

/** The page holding the newest subscribers now: page 1 (newest first) or the last page. */
async function newestPage(
	context: IPollFunctions,
	phoneNumberId: string,
): Promise<{ number: number; page: Page; order?: ListOrder }> {
	const pages = defaultOrderPages(context, phoneNumberId);
	const first = await pages.fetch(1);
	if (pages.order() === 'newestFirst') return { number: 1, page: first, order: 'newestFirst' };
	const last = await findLastPage(pages.fetch, SUBSCRIBER_PAGE_SIZE);
	return { ...last, order: pages.order() };
}

export const newSubscriber: TriggerEvent<SubscriberState> = {
	value: EVENT,
	name: 'New Subscriber',
	description: 'A new subscriber (contact) was added to the WhatsApp number',
	perNumber: true,
	properties: [],
	scope: (context) => `${EVENT}:${phoneNumberIdOf(context)}`,
	// 1: { page, maxId } and, since the order is read from the data, an optional `order` (absent = as before).
	stateVersion: 1,
	async start(context) {
		const { number, page, order } = await newestPage(context, phoneNumberIdOf(context));
		const state: SubscriberState = { page: number, maxId: maxIdOf(page.records) };
		if (order) state.order = order;
		return state;
	},
	async poll(context, state) {
		const phoneNumberId = phoneNumberIdOf(context);
		if (await earlierForm(context)) {
			// The whole list in one answer (page 1 of subscriberPage): any order will do.
			const { records } = await subscriberPage(context, phoneNumberId, 1, 0);
			return emitted(records, state, { page: 1, order: state.order }, phoneNumberId);
		}
		const pages = defaultOrderPages(context, phoneNumberId);
		let from = state;
		if (state.order === 'newestFirst') {
			await pages.fetch(1);
			if (pages.order() !== 'oldestFirst')
				return await fromFirstPage(pages.fetch, state, phoneNumberId);
			// The platform now lists oldest first: new subscribers are on the last page.
			from = { ...state, page: (await findLastPage(pages.fetch, SUBSCRIBER_PAGE_SIZE)).number };
		}
		const result = await fromLastPage(
			pages.fetch,
			from,
			pages.order() ?? state.order,
			phoneNumberId,
		);
		// A page read showed newest first (the platform changed its order): new subscribers are on page 1.
		if (pages.order() === 'newestFirst')
			return await fromFirstPage(pages.fetch, state, phoneNumberId);
		return result;
	},
	async newest(context) {
		const phoneNumberId = phoneNumberIdOf(context);
		const { page } = await newestPage(context, phoneNumberId);
		const newest = [...page.records].sort((a, b) => idOf(a) - idOf(b)).at(-1);
		return newest ? withNumber(newest, phoneNumberId) : undefined;
	},
};
