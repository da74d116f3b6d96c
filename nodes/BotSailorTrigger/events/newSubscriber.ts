import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import type { Page } from '../../BotSailor/shared/pagination';
import { nextPage, subscriberPage, SUBSCRIBER_PAGE_SIZE } from '../lib/api';
import { phoneNumberIdOf, type TriggerEvent } from '../lib/event';

const EVENT = 'newSubscriber';

/**
 * The default order of the subscriber list is creation order (ascending subscriber_id), so new
 * subscribers are on the last page. The state is that page's number and the highest id seen:
 * an idle poll reads one page. When subscribers were deleted the page may have moved back, so
 * the poll steps back while a page starts above the highest id seen (or is empty).
 */
interface SubscriberState {
	page: number;
	maxId: number;
}

const idOf = (record: IDataObject) => Number(record.subscriber_id) || 0;

function hasNext(page: Page, number: number): boolean {
	return nextPage(page, number, SUBSCRIBER_PAGE_SIZE) !== undefined;
}

/** Finds the last page without walking them all: doubling, then bisection (about 2·log2(pages) requests). */
async function lastPage(context: IPollFunctions, phoneNumberId: string): Promise<{ number: number; page: Page }> {
	const fetch = async (number: number) => await subscriberPage(context, phoneNumberId, number, 0);
	const first = await fetch(1);
	if (!hasNext(first, 1)) return { number: 1, page: first };
	let low = 1;
	let lowPage = first;
	let high = 2;
	for (;;) {
		const page = await fetch(high);
		if (page.records.length === 0) break;
		if (!hasNext(page, high)) return { number: high, page };
		low = high;
		lowPage = page;
		high *= 2;
	}
	while (high - low > 1) {
		const middle = Math.floor((low + high) / 2);
		const page = await fetch(middle);
		if (page.records.length === 0) high = middle;
		else if (!hasNext(page, middle)) return { number: middle, page };
		else {
			low = middle;
			lowPage = page;
		}
	}
	return { number: low, page: lowPage };
}

function withNumber(record: IDataObject, phoneNumberId: string): IDataObject {
	return { ...record, phone_number: record.chat_id, phone_number_id: phoneNumberId };
}

export const newSubscriber: TriggerEvent<SubscriberState> = {
	value: EVENT,
	name: 'New Subscriber',
	description: 'A new subscriber (contact) was added to the WhatsApp number',
	perNumber: true,
	properties: [],
	scope: (context) => `${EVENT}:${phoneNumberIdOf(context)}`,
	async start(context) {
		const { number, page } = await lastPage(context, phoneNumberIdOf(context));
		return { page: number, maxId: Math.max(0, ...page.records.map(idOf)) };
	},
	async poll(context, state) {
		const phoneNumberId = phoneNumberIdOf(context);
		const fetch = async (number: number) => await subscriberPage(context, phoneNumberId, number, 0);
		const pages = new Map<number, Page>();
		let number = Math.max(1, state.page);
		let page = await fetch(number);
		pages.set(number, page);
		// Step back while this page may not reach down to the last subscriber seen.
		let back = number;
		let backPage = page;
		while (back > 1 && (backPage.records.length === 0 || Math.min(...backPage.records.map(idOf)) > state.maxId)) {
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
		const byId = new Map<number, IDataObject>();
		for (const records of [...pages.entries()].sort((a, b) => a[0] - b[0]).map(([, entry]) => entry.records)) {
			for (const record of records) if (idOf(record) > state.maxId) byId.set(idOf(record), record);
		}
		const fresh = [...byId.values()].sort((a, b) => idOf(a) - idOf(b));
		const filled = [...pages.entries()].filter(([, entry]) => entry.records.length > 0).map(([key]) => key);
		return {
			items: fresh.map((record) => withNumber(record, phoneNumberId)),
			state: { page: filled.length ? Math.max(...filled) : 1, maxId: Math.max(state.maxId, ...fresh.map(idOf)) },
		};
	},
	async newest(context) {
		const phoneNumberId = phoneNumberIdOf(context);
		const { page } = await lastPage(context, phoneNumberId);
		const newest = [...page.records].sort((a, b) => idOf(a) - idOf(b)).at(-1);
		return newest ? withNumber(newest, phoneNumberId) : undefined;
	},
};
