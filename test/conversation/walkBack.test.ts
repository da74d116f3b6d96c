/**
 * The one walk back through a conversation (nodes/shared/conversation/conversation.ts walkBack), used by Message → Get Unanswered
 * and the reply guards: panel events left out, no page read beyond the one holding the row sought unless the caller
 * reads on.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { conversationSource, walkBack } from '../../nodes/shared/conversation/conversation';

/** 120 rows, newest first on page 1: every 10th from the bot, every 7th a panel event, the rest the customer's. */
function pagedSource() {
	const rows: IDataObject[] = Array.from({ length: 120 }, (_, index) => {
		const n = 120 - index;
		const sender = n % 10 === 0 ? 'bot' : n % 7 === 0 ? 'system' : 'user';
		const time = new Date(Date.UTC(2026, 10, 27, 8, 0, n)).toISOString();
		return {
			id: n,
			sender,
			wa_message_id: sender === 'system' ? '' : `wamid.${n}`,
			conversation_time: time.slice(0, 19).replace('T', ' '),
		};
	});
	const pages: number[] = [];
	const source = conversationSource(
		{ name: 'test' } as INode,
		{ phone_number: '1' },
		false,
		async (body) => {
			const page = Number(body.offset);
			pages.push(page);
			const slice = rows.slice((page - 1) * 50, page * 50);
			return { status: '1', message: slice, nextOffset: page * 50 < rows.length ? page + 1 : null };
		},
	);
	return { source, pages };
}

it('walks to the first match, leaving panel events out, on the pages it needs only', async () => {
	const { source, pages } = pagedSource();
	const walk = await walkBack(source, (row) => row.sender === 'bot');
	expect(walk.at?.id).toBe(120);
	expect(walk.newer).toEqual([]);
	expect(pages).toEqual([1]);

	const { source: second, pages: read } = pagedSource();
	const toMessage = await walkBack(second, (row) => row.wa_message_id === 'wamid.55');
	expect(toMessage.at?.id).toBe(55);
	const newer = toMessage.newer.map((row) => row.id);
	expect(newer[0]).toBe(120);
	expect(newer).not.toContain(119); // 119 = 7 × 17: a panel event
	const expected = Array.from({ length: 120 - 55 }, (_, index) => 120 - index).filter(
		(n) => n % 10 === 0 || n % 7 !== 0,
	);
	expect(newer).toEqual(expected);
	expect(read).toEqual([1, 2]);
	// Reading on continues where the walk stopped, on the next page when needed.
	const older: unknown[] = [];
	for await (const row of toMessage.older) older.push(row.id);
	expect(older[0]).toBe(54);
	expect(older).not.toContain(49); // 7 × 7
	expect(read).toEqual([1, 2, 3]);
});

it('maxNewer stops the walk before a match; maxPages bounds it', async () => {
	const { source } = pagedSource();
	const capped = await walkBack(source, () => false, { maxNewer: 5 });
	expect(capped.newer).toHaveLength(5);
	expect(capped.at).toBeUndefined();
	const { source: bounded, pages } = pagedSource();
	const none = await walkBack(bounded, () => false, { maxPages: 2 });
	expect(none.at).toBeUndefined();
	expect(pages).toEqual([1, 2]);
});
