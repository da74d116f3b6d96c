/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- raw servers (plain Node.js) that answer item 0 at once and the others later, or only 429 */
/**
 * Issue 42 point 3: without Continue On Fail, once an item fails no request leaves that had not left yet. Under the
 * shipped defaults (the credential's Max Sends in Flight, DEFAULT_SENDS_IN_FLIGHT, and the adaptive pace starting at
 * INITIAL_SENDS_IN_FLIGHT), a run of RUN_ITEMS starts the pace's first width of sends and queues the rest for a slot.
 * The server refuses item 0 at once and answers the others later: the other sends in flight finish, the queued ones
 * are not attempted, and the run's error says exactly that. Under Continue On Fail every item is attempted, as
 * before. Every figure below is derived from those two constants and RUN_ITEMS, so a change of the pace fails here
 * only if the stop itself changed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendTextNode, sendTextParameters } from '../../bench/sendTextNode';
import { paces, INITIAL_SENDS_IN_FLIGHT } from '../../nodes/BotSailor/sending/pace';
import { DEFAULT_SENDS_IN_FLIGHT } from '../../nodes/shared/http/credential';
import { runNode, type RunResult } from '../harness/harness';
import { NUMBER } from '../harness/params';

const REFUSED = { status: '0', message: 'Subscriber has opted out.' };
/** The items of a run: more than the pace's first width, so that some wait for a slot. */
const RUN_ITEMS = 10;
const indexes = (from: number, to: number) =>
	Array.from({ length: to - from }, (_, offset) => from + offset);
/** The message id the server gives item `index`: the assertions read it from here, not from a copy. */
const wamid = (index: number) => `wamid.STOP${index}`;
const OK = (index: number) => ({
	status: '1',
	message: 'Message sent successfully.',
	wa_message_id: wamid(index),
});

let server: Server;
let url = '';
/** The item index of each send the server received, in arrival order. */
const received: number[] = [];

beforeAll(async () => {
	server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const body = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
			const index = Number(/Hello (\d+)/.exec(body.get('message') ?? '')?.[1]);
			received.push(index);
			const answer = (json: object) => {
				response.writeHead(200, { 'Content-Type': 'application/json' });
				response.end(JSON.stringify(json));
			};
			// Item 0 is refused at once; the others are answered a moment later, so they are in flight at the refusal.
			if (index === 0) answer(REFUSED);
			else setTimeout(() => answer(OK(index)), 200);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
	received.splice(0);
	paces.clear();
});

function send(extra: {
	path?: 'workflow' | 'execute';
	continueOnFail?: boolean;
	retryOnFail?: { maxTries: number; waitBetweenTries?: number };
}): Promise<RunResult> {
	return runNode({
		// The node as shipped: the credential's Max Sends in Flight left at its default.
		nodeType: sendTextNode({}),
		credentials: { baseUrl: url, apiToken: 'token', apiForm: 'current' },
		items: indexes(0, RUN_ITEMS).map((index) => ({
			json: { phone: `1999000${String(index).padStart(4, '0')}`, text: `Hello ${index}` },
		})),
		...extra,
		parameters: sendTextParameters(NUMBER) as never,
	});
}

describe('3. a failed run stops sending (shipped defaults)', () => {
	it('the defaults put sends in a queue: more workers than the pace lets through', () => {
		expect(DEFAULT_SENDS_IN_FLIGHT).toBeGreaterThan(RUN_ITEMS);
		expect(INITIAL_SENDS_IN_FLIGHT).toBeLessThan(RUN_ITEMS);
	});

	it('item 0 refused: the sends in flight finish, the queued ones are not attempted', async () => {
		const result = await send({});
		expect(result.error?.message).toBe(REFUSED.message);
		const inFlight = INITIAL_SENDS_IN_FLIGHT;
		// Each item reached the server at most once, and only the first pace's worth of items ever left.
		expect([...received].sort((a, b) => a - b)).toEqual(indexes(0, inFlight));
		const description = String(result.error?.description);
		const delivered = indexes(1, inFlight);
		expect(description).toContain(
			`Delivered: ${delivered.length} of ${RUN_ITEMS} items (${delivered.map((index) => `${index}: ${wamid(index)}`).join('; ')}).`,
		);
		expect(description).toMatch(
			new RegExp(
				`Not sent: item 0 \\(failed\\), items ${inFlight}–${RUN_ITEMS - 1} \\(not attempted\\)\\.$`,
			),
		);
		expect(description.match(/Delivered:/g)).toHaveLength(1);
		expect(result.error?.context).toMatchObject({
			delivered: delivered.length,
			notAttempted: RUN_ITEMS - inFlight,
		});
	});

	it('Continue On Fail: every item is attempted once; item 0 is an error item', async () => {
		const result = await send({ continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect([...received].sort((a, b) => a - b)).toEqual(indexes(0, RUN_ITEMS));
		expect(result.items.map((item) => item.json.error ?? item.json.wa_message_id)).toEqual([
			REFUSED.message,
			...indexes(1, RUN_ITEMS).map(wamid),
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			indexes(0, RUN_ITEMS).map((item) => ({ item })),
		);
	});
});

describe('3. on the AI tool path (execute: n8n’s RoutingNode starts every item of the call at once)', () => {
	it('item 0 refused: the sends in flight finish, the items waiting for a slot are not attempted', async () => {
		const result = await send({ path: 'execute' });
		expect(result.error?.message).toBe(REFUSED.message);
		// RoutingNode starts all RUN_ITEMS items together; the pace lets the first INITIAL_SENDS_IN_FLIGHT leave.
		expect([...received].sort((a, b) => a - b)).toEqual(indexes(0, INITIAL_SENDS_IN_FLIGHT));
	});

	it('under Continue On Fail: every item is attempted once, the queued ones say nothing of a stop', async () => {
		const result = await send({ path: 'execute', continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect([...received].sort((a, b) => a - b)).toEqual(indexes(0, RUN_ITEMS));
		expect(result.items.map((item) => item.json.error ?? item.json.wa_message_id)).toEqual([
			REFUSED.message,
			...indexes(1, RUN_ITEMS).map(wamid),
		]);
	});

	it('Retry On Fail: the next try starts afresh (a stop ends with its try), sends nothing twice', async () => {
		const result = await send({ path: 'execute', retryOnFail: { maxTries: 2 } });
		expect(result.error?.message).toBe(REFUSED.message);
		const counts = new Map<number, number>();
		for (const index of received) counts.set(index, (counts.get(index) ?? 0) + 1);
		// Item 0 is refused on each try (a refusal may be sent again); no delivered item is sent twice.
		expect(counts.get(0)).toBe(2);
		expect([...counts].filter(([index, count]) => index !== 0 && count > 1)).toEqual([]);
		// The second try sends items the first did not attempt (the stop of the first try is not carried over).
		expect(counts.size).toBeGreaterThan(INITIAL_SENDS_IN_FLIGHT);
	});
});

describe('6. a run against a platform answering only 429 is bounded by the Rate Limit Wait Budget', () => {
	const RETRY_AFTER_SECONDS = 1;
	let limited: Server;
	let limitedUrl = '';
	let requests = 0;
	beforeAll(async () => {
		limited = createServer((request, response) => {
			request.resume();
			request.on('end', () => {
				requests++;
				response.writeHead(429, {
					'Content-Type': 'text/plain',
					'Retry-After': String(RETRY_AFTER_SECONDS),
				});
				response.end('Too Many Requests');
			});
		});
		await new Promise<void>((resolve) => limited.listen(0, '127.0.0.1', resolve));
		limitedUrl = `http://127.0.0.1:${(limited.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		limited.closeAllConnections();
		await new Promise<void>((resolve) => limited.close(() => resolve()));
	});
	beforeEach(() => {
		requests = 0;
	});

	const ITEMS = 10;
	const BUDGET_SECONDS = 2;
	/** What the run says once the budget is spent, as a pattern (the figure is the credential's, above). */
	const RETRIES_IN_BUDGET = Math.floor(BUDGET_SECONDS / RETRY_AFTER_SECONDS);
	const BUDGET_SPENT = `this run waited its whole Rate Limit Wait Budget \\(${BUDGET_SECONDS} s\\)`;
	const run = (path: 'workflow' | 'execute', retryOnFail?: { maxTries: number }, count = ITEMS) =>
		runNode({
			path,
			nodeType: sendTextNode({}),
			credentials: {
				baseUrl: limitedUrl,
				apiToken: 'token',
				apiForm: 'current',
				rateLimitBudgetSeconds: BUDGET_SECONDS,
			},
			continueOnFail: true,
			retryOnFail,
			items: Array.from({ length: count }, (_, index) => ({
				json: { phone: `1999000${String(index).padStart(4, '0')}`, text: `Hello ${index}` },
			})),
			parameters: sendTextParameters(NUMBER) as never,
		});

	it.each([
		['workflow', undefined],
		['workflow', { maxTries: 3 }],
	] as const)(
		'Continue On Fail (%s path, Retry On Fail %j): each item "Not sent" naming the budget; the requests are bounded',
		async (path, retryOnFail) => {
			const result = await run(path, retryOnFail);
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(ITEMS);
			for (const item of result.items)
				expect(String(item.json.error)).toMatch(
					new RegExp(
						`^Not sent: (${BUDGET_SPENT} on the platform’s rate limit|the platform answered HTTP 429)`,
					),
				);
			expect(
				result.items.filter((item) => /Rate Limit Wait Budget/.test(String(item.json.error))),
			).not.toHaveLength(0);
			expect(result.items.map((item) => item.pairedItem)).toEqual(
				Array.from({ length: ITEMS }, (_, item) => ({ item })),
			);
			// Each item's first try, plus at most one retry per Retry-After within the budget. Without the budget
			// every item is tried 7 times (70 requests), waiting about 6 × Retry-After each.
			expect(requests).toBeLessThanOrEqual(ITEMS + RETRIES_IN_BUDGET);
		},
	);

	it('the AI tool path (execute): one budget per call, each call bounded alike', async () => {
		const calls = 3;
		const result = await run('execute', undefined, calls);
		expect(result.items).toHaveLength(calls);
		for (const item of result.items)
			expect(String(item.json.error)).toMatch(new RegExp(`^Not sent: ${BUDGET_SPENT}`));
		// RoutingNode runs each item as its own call: each call may spend the budget once.
		expect(requests).toBeLessThanOrEqual(calls * (1 + RETRIES_IN_BUDGET));
	});
});
