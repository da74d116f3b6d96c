import type { Page } from './envelope';

/** Page-number paging shared by the trigger and the conversation reader. */

/** The page after `page`, or undefined when the API announced none (or a non-advancing one). */
export function nextPage(current: Page, page: number, pageSize: number): number | undefined {
	const next = Number(current.nextOffset);
	if (current.records.length < pageSize || !Number.isInteger(next) || next <= page)
		return undefined;
	return next;
}

export type PageFetch = (page: number) => Promise<Page>;

/** A page reader that reads each page once (a poll may look at a page from two sides). */
export function onceEach(fetch: PageFetch): { fetch: PageFetch; pages: Map<number, Page> } {
	const pages = new Map<number, Page>();
	return {
		pages,
		fetch: async (number) => {
			const known = pages.get(number);
			if (known) return known;
			const page = await fetch(number);
			pages.set(number, page);
			return page;
		},
	};
}

/**
 * The last page of a list paged by number, without reading every page: forward from `from` in
 * doubling steps, then bisection (about 2·log2(pages) reads from page 1; one read when `from` is
 * still the last page).
 */
export async function findLastPage(
	fetch: PageFetch,
	pageSize: number,
	from = 1,
): Promise<{ number: number; page: Page }> {
	let low = Math.max(1, from);
	let lowPage = await fetch(low);
	if (nextPage(lowPage, low, pageSize) === undefined) return { number: low, page: lowPage };
	let step = 1;
	let high = low + step;
	for (;;) {
		const page = await fetch(high);
		if (page.records.length === 0) break;
		if (nextPage(page, high, pageSize) === undefined) return { number: high, page };
		low = high;
		lowPage = page;
		step *= 2;
		high = low + step;
	}
	while (high - low > 1) {
		const middle = Math.floor((low + high) / 2);
		const page = await fetch(middle);
		if (page.records.length === 0) high = middle;
		else if (nextPage(page, middle, pageSize) === undefined) return { number: middle, page };
		else {
			low = middle;
			lowPage = page;
		}
	}
	return { number: low, page: lowPage };
}
