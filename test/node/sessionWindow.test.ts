/**
 * The 24-hour window: Subscriber → Get Window Status, and "Outside the 24-Hour Window" (Fail, Send a Template
 * Instead, Skip, Check Window First) on Send Text, Send Buttons and Send Media, both ways n8n runs the node (the
 * workflow's bulk path and `execute`, the tool path). The simulator enforces the window (sessionWindow) on a clock
 * set to now, so the node's clock and the platform's agree.
 */
import {
	OUTSIDE_WINDOW_REFUSALS,
	isOutsideWindowRefusal,
} from '../../nodes/shared/whatsapp/sessionWindow';
import { platformTimeToDate } from '../../nodes/shared/http/platformTime';
import { NodeApiError } from 'n8n-workflow';
import { runNode, type InputItem, type RunResult, type TestCredentials } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { OUTSIDE_WINDOW_TEXT } from '../simulator/route';
import { AVA, byId, fromList, NUMBER, numberFromList, PHONE } from '../harness/params';
import { callControl } from '../simulator/control';

const fx = useSimulator({ seed: { subscribersPerNumber: 5 } });
/** Inside the window: wrote a minute ago. */
const INSIDE = PHONE;
/** Outside: last wrote 30 hours ago. */
const OUTSIDE = AVA;
const PATHS = ['workflow', 'execute'] as const;
type Path = (typeof PATHS)[number];

const control = (action: string, input: unknown = {}) => callControl(fx.sim, action, input);

/** The platform's clock at now (in `zone`), the window enforced, one subscriber inside and one outside it. */
async function windowWorld(zone = 'UTC') {
	await control('deployment', { sessionWindow: 'enforced' });
	await control('clock', { time_zone: zone });
	await control('message', { phone_number_id: NUMBER, phone_number: INSIDE, text: 'Hi there' });
	await control('window', { phone_number_id: NUMBER, phone_number: OUTSIDE, hours_ago: 30 });
	fx.sim.clearRequests();
}

const orderUpdateId = () =>
	String(
		fx.sim.state.templates.find(
			(entry) => entry.template_name === 'order_update' && entry.phone_number_id === NUMBER,
		)!.template_id,
	);

/** Send a Template Instead, with order_update and both its variables. */
const templateInstead = () => ({
	outsideWindow: 'template',
	templateId: fromList(orderUpdateId()),
	templateVariables: {
		mappingMode: 'defineBelow',
		value: { 'templateVariable-order_id-1': 'A-1001', 'templateVariable-status-1': 'shipped' },
	},
});

const SENDS = [
	{
		kind: 'text',
		endpoint: '/whatsapp/send',
		parameters: { resource: 'message', operation: 'sendText', message: 'Your order is ready' },
	},
	{
		kind: 'buttons',
		endpoint: '/whatsapp/send/interactive-buttons',
		parameters: {
			resource: 'message',
			operation: 'sendButtons',
			message: 'Pick one',
			buttons: { button: [{ title: 'Yes' }, { title: 'No' }] },
		},
	},
	{
		kind: 'media',
		endpoint: '/whatsapp/send/file',
		parameters: {
			resource: 'message',
			operation: 'sendMedia',
			source: 'url',
			mediaUrl: 'https://example.com/menu.pdf',
		},
	},
] as const;

function run(
	path: Path,
	parameters: Record<string, unknown>,
	extra: {
		items?: InputItem[];
		continueOnFail?: boolean;
		credentials?: Partial<TestCredentials>;
		retryOnFail?: { maxTries: number; waitBetweenTries?: number };
	} = {},
): Promise<RunResult> {
	return runNode({
		path,
		parameters: { phoneNumberId: numberFromList, ...parameters } as never,
		credentials: { ...fx.credentials, ...extra.credentials },
		items: extra.items,
		continueOnFail: extra.continueOnFail,
		retryOnFail: extra.retryOnFail,
	});
}

/** The requests' paths, but the template list a run reads after a template went out, for its category (messageKind.ts). */
const paths = () =>
	fx.sim.requests
		.map((request) => request.path)
		.filter((path) => path !== '/whatsapp/template/list');
/** Messages the node got sent to `phone` (the simulator stores a send as a bot row with status "sent"; the seed's are "delivered"). */
const sentTo = (phone: string) =>
	fx.sim.state.messages.filter(
		(message) =>
			message.whatsapp_bot_subscriber_subscriber_id === phone &&
			message.sender === 'bot' &&
			message.message_status === 'sent',
	);

describe('Subscriber → Get Window Status', () => {
	const status = (
		phone: string,
		credentials: Partial<TestCredentials> = {},
		path: Path = 'workflow',
	) =>
		run(
			path,
			{
				resource: 'subscriber',
				operation: 'getWindowStatus',
				subscriber: byId(phone),
			},
			{ credentials },
		);

	it.each(PATHS)(
		'inside: open, when they last wrote and when it closes, in one request (%s)',
		async (path) => {
			await windowWorld();
			const result = await status(INSIDE, {}, path);
			expect(result.error).toBeUndefined();
			const json = result.items[0].json;
			expect(json).toMatchObject({
				phone_number: INSIDE,
				window_open: true,
				platform_time_zone: 'UTC',
			});
			const last = Date.parse(String(json.last_incoming_at));
			expect(Math.abs(Date.now() - last)).toBeLessThan(5 * 60_000);
			expect(Date.parse(String(json.window_closes_at)) - last).toBe(24 * 3_600_000);
			expect(json.seconds_left).toBeGreaterThan(23 * 3600);
			expect(String(json.last_incoming_platform_time)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
			expect(result.items[0].pairedItem).toEqual({ item: 0 });
			expect(paths()).toEqual(['/whatsapp/get/conversation']);
		},
	);

	it('outside: closed 6 hours ago; the bot’s, an agent’s and system rows after the customer’s message do not count', async () => {
		await windowWorld();
		for (const sender of ['bot', 'agent', 'system', 'automation', 'sequence'])
			await control('message', {
				phone_number_id: NUMBER,
				phone_number: OUTSIDE,
				sender,
				text: 'Label added: VIP',
			});
		fx.sim.clearRequests();
		const json = (await status(OUTSIDE)).items[0].json;
		expect(json.window_open).toBe(false);
		expect(json.seconds_left).toBe(0);
		const closes = Date.parse(String(json.window_closes_at));
		expect(Math.abs(Date.now() - 6 * 3_600_000 - closes)).toBeLessThan(5 * 60_000);
	});

	it('never wrote: closed, with no time', async () => {
		await windowWorld();
		await control('subscriber', { phone_number_id: NUMBER, phone_number: '15550199999' });
		const json = (await status('15550199999')).items[0].json;
		expect(json).toMatchObject({
			window_open: false,
			last_incoming_at: null,
			window_closes_at: null,
			last_incoming_platform_time: null,
		});
	});

	it.each(['newestFirst', 'oldestFirst'])(
		'a long conversation paged %s: the customer’s message three pages back is found',
		async (conversationOrder) => {
			await windowWorld();
			await control('deployment', { conversationOrder });
			for (let index = 0; index < 120; index++)
				await control('message', {
					phone_number_id: NUMBER,
					phone_number: INSIDE,
					sender: 'bot',
					text: `Update ${index}`,
				});
			fx.sim.clearRequests();
			const json = (await status(INSIDE)).items[0].json;
			expect(json.window_open).toBe(true);
			const reads = paths().length;
			// Newest first: pages 1, 2, 3. Oldest first: page 1 and 2 to tell the order, the last page found, back to the message.
			expect(reads).toBeLessThanOrEqual(conversationOrder === 'newestFirst' ? 3 : 8);
		},
	);

	it('reads the platform’s times in the credential’s Platform Time Zone (a wrong zone shifts the window by its offset)', async () => {
		await windowWorld('Asia/Dhaka');
		await control('window', { phone_number_id: NUMBER, phone_number: OUTSIDE, hours_ago: 27 });
		const right = (await status(OUTSIDE, { platformTimeZone: 'Asia/Dhaka' })).items[0].json;
		expect(right.window_open).toBe(false);
		expect(right.platform_time_zone).toBe('Asia/Dhaka');
		// Read as UTC, a Dhaka time is 6 hours later than it was: a message of 27 hours ago looks 21 hours old.
		const wrong = (await status(OUTSIDE, { platformTimeZone: 'UTC' })).items[0].json;
		expect(wrong.window_open).toBe(true);
		expect(
			Date.parse(String(wrong.last_incoming_at)) - Date.parse(String(right.last_incoming_at)),
		).toBe(6 * 3_600_000);
	});

	it('an unknown time zone fails naming Platform Time Zone, before any request', async () => {
		await windowWorld();
		const result = await status(INSIDE, { platformTimeZone: 'Mars/Olympus' });
		expect(result.error?.message).toMatch(/^Platform Time Zone "Mars\/Olympus" is not a time zone/);
		expect(paths()).toEqual([]);
	});
});

describe.each(SENDS)(
	'Message → Send $kind: Outside the 24-Hour Window',
	({ kind, endpoint, parameters }) => {
		const send = (path: Path, phone: string, extra: Record<string, unknown> = {}) =>
			run(path, { ...parameters, phoneNumber: phone, ...extra });

		it.each(PATHS)('inside the window: sent as %s, one request, for each choice', async (path) => {
			await windowWorld();
			for (const choice of [{}, { outsideWindow: 'skip' }, templateInstead()]) {
				fx.sim.clearRequests();
				const result = await send(path, INSIDE, choice);
				expect(result.error).toBeUndefined();
				expect(result.items).toHaveLength(1);
				expect(result.items[0].json.wa_message_id).toMatch(/^wamid\./);
				// Fail (the default) keeps the output saved workflows know; a chosen fallback says what was sent.
				expect(result.items[0].json.sent_as).toBe('outsideWindow' in choice ? kind : undefined);
				expect(paths()).toEqual([endpoint]);
			}
		});

		it.each(PATHS)(
			'outside, Fail (the default): the platform’s refusal, explained; nothing else sent (%s)',
			async (path) => {
				await windowWorld();
				const result = await send(path, OUTSIDE);
				expect(result.error?.message).toBe(OUTSIDE_WINDOW_TEXT);
				expect(result.error?.description).toContain(
					'set "Outside the 24-Hour Window" to Send a Template Instead or Skip',
				);
				expect(paths()).toEqual([endpoint]);
				expect(sentTo(OUTSIDE)).toHaveLength(0);
			},
		);

		it.each(PATHS)(
			'outside, Send a Template Instead: the template with its variables, sent_as "template" (%s)',
			async (path) => {
				await windowWorld();
				const result = await send(path, OUTSIDE, templateInstead());
				expect(result.error).toBeUndefined();
				expect(result.items[0].json).toMatchObject({ sent_as: 'template', phone_number: OUTSIDE });
				expect(result.items[0].json.wa_message_id).toMatch(/^wamid\./);
				expect(result.items[0].pairedItem).toEqual({ item: 0 });
				expect(paths()).toEqual([endpoint, '/whatsapp/send/template']);
				const template = fx.sim.requests[1].body;
				expect(template).toMatchObject({
					phone_number_id: NUMBER,
					phone_number: OUTSIDE,
					template_id: orderUpdateId(),
					'templateVariable-order_id-1': 'A-1001',
					'templateVariable-status-1': 'shipped',
				});
				expect(sentTo(OUTSIDE)).toHaveLength(1);
			},
		);

		it.each(PATHS)('outside, Skip: nothing sent, skipped with the reason (%s)', async (path) => {
			await windowWorld();
			const result = await send(path, OUTSIDE, { outsideWindow: 'skip' });
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ skipped: true, phone_number: OUTSIDE });
			expect(String(result.items[0].json.reason)).toContain('Outside the 24-hour window');
			expect(result.items[0].pairedItem).toEqual({ item: 0 });
			expect(sentTo(OUTSIDE)).toHaveLength(0);
		});

		it('Check Window First: outside, the template without trying the free-form message; inside, one read more', async () => {
			await windowWorld();
			const outside = await send('workflow', OUTSIDE, {
				...templateInstead(),
				checkWindowFirst: true,
			});
			expect(outside.items[0].json.sent_as).toBe('template');
			expect(paths()).toEqual(['/whatsapp/get/conversation', '/whatsapp/send/template']);
			fx.sim.clearRequests();
			const inside = await send('workflow', INSIDE, {
				outsideWindow: 'skip',
				checkWindowFirst: true,
			});
			expect(inside.items[0].json.sent_as).toBe(kind);
			expect(paths()).toEqual(['/whatsapp/get/conversation', endpoint]);
		});
	},
);

describe('Outside the 24-Hour Window: the promises of the sends', () => {
	const text = { resource: 'message', operation: 'sendText', message: 'Your order is ready' };

	it('the refusal texts known for this software are recognised; another refusal stays an error and sends no template', async () => {
		const refusal = (message: string) =>
			new NodeApiError({ name: 'BotSailor' } as never, { message } as never, { message });
		for (const message of [
			OUTSIDE_WINDOW_TEXT,
			'(#131047) Re-engagement message',
			'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
			'Outside the 24-hour customer service window',
		])
			expect([message, isOutsideWindowRefusal(refusal(message))]).toEqual([message, true]);
		expect(isOutsideWindowRefusal(refusal('Subscriber limit has been exceeded.'))).toBe(false);
		expect(OUTSIDE_WINDOW_REFUSALS.length).toBeGreaterThanOrEqual(4);

		await windowWorld();
		fx.sim.faults.add('/whatsapp/send', {
			kind: 'status0',
			message: '(#131047) Re-engagement message',
			times: 1,
		});
		const meta = await run('workflow', { ...text, phoneNumber: INSIDE, ...templateInstead() });
		expect(meta.items[0].json.sent_as).toBe('template');

		fx.sim.clearRequests();
		fx.sim.faults.add('/whatsapp/send', {
			kind: 'status0',
			message: 'Invalid phone number.',
			times: 1,
		});
		const other = await run('workflow', { ...text, phoneNumber: INSIDE, ...templateInstead() });
		expect(other.error?.message).toBe('Invalid phone number.');
		expect(paths()).toEqual(['/whatsapp/send']);
	});

	it.each(PATHS)(
		'bad input is refused before any request: no template, an empty variable (%s)',
		async (path) => {
			await windowWorld();
			const noTemplate = await run(path, {
				...text,
				phoneNumber: OUTSIDE,
				outsideWindow: 'template',
				// An expression that comes out empty (n8n itself refuses an empty field before the run).
				templateId: byId('={{ $json.missing ?? "" }}'),
			});
			expect(noTemplate.error?.message).toMatch(/^Template to Send Instead/);
			const emptyVariable = await run(path, {
				...text,
				phoneNumber: OUTSIDE,
				...templateInstead(),
				templateVariables: {
					mappingMode: 'defineBelow',
					value: { 'templateVariable-order_id-1': 'A-1001', 'templateVariable-status-1': '' },
				},
			});
			expect(emptyVariable.error?.message).toMatch(
				/^Template variable templateVariable-status-1 is empty/,
			);
			expect(paths()).toEqual([]);
		},
	);

	it.each(PATHS)(
		'a 504 after the platform acted, with the fallback on: "may have been delivered", no template (%s)',
		async (path) => {
			await windowWorld();
			fx.sim.faults.add('/whatsapp/send', { kind: 'processThen504', times: 1 });
			const result = await run(path, { ...text, phoneNumber: INSIDE, ...templateInstead() });
			expect(result.error?.message).toMatch(/^The message may have been delivered/);
			expect(paths()).toEqual(['/whatsapp/send']);
			expect(sentTo(INSIDE)).toHaveLength(1);
		},
	);

	it('Continue On Fail: each item its outcome, paired to its input; the choice may differ per item', async () => {
		await windowWorld();
		fx.sim.faults.add('/whatsapp/send', {
			kind: 'status0',
			message: 'Invalid phone number.',
			everyNth: 4,
		});
		const result = await run(
			'workflow',
			{
				...text,
				phoneNumber: '={{ $json.phone }}',
				...templateInstead(),
				outsideWindow: '={{ $json.choice }}',
			},
			{
				continueOnFail: true,
				credentials: { maxSendsInFlight: 1 },
				items: [
					{ json: { phone: INSIDE, choice: 'template' } },
					{ json: { phone: OUTSIDE, choice: 'template' } },
					{ json: { phone: OUTSIDE, choice: 'skip' } },
					{ json: { phone: INSIDE, choice: 'skip' } },
				],
			},
		);
		expect(
			result.items.map((item) => [
				item.pairedItem,
				item.json.sent_as ?? item.json.skipped ?? item.json.error,
			]),
		).toEqual([
			[{ item: 0 }, 'text'],
			[{ item: 1 }, 'template'],
			[{ item: 2 }, true],
			[{ item: 3 }, 'Invalid phone number.'],
		]);
	});

	it('a failed run’s report names the items sent as templates and the skipped ones', async () => {
		await windowWorld();
		fx.sim.faults.add('/whatsapp/send', {
			kind: 'status0',
			message: 'Invalid phone number.',
			everyNth: 3,
		});
		const result = await run(
			'workflow',
			{
				...text,
				phoneNumber: '={{ $json.phone }}',
				...templateInstead(),
				outsideWindow: '={{ $json.choice }}',
			},
			{
				items: [
					{ json: { phone: OUTSIDE, choice: 'template' } },
					{ json: { phone: OUTSIDE, choice: 'skip' } },
					{ json: { phone: INSIDE, choice: 'skip' } },
				],
				credentials: { maxSendsInFlight: 1 },
			},
		);
		expect(result.error?.message).toBe('Invalid phone number.');
		expect(result.error?.description).toContain('Delivered: 1 of 3 items');
		expect(result.error?.description).toContain(
			'Sent as a template (outside the 24-hour window): item 0.',
		);
		expect(result.error?.description).toContain(
			'Skipped (nothing sent): item 1 (Outside the 24-hour window: the platform refused the',
		);
	});

	it('Retry On Fail sends neither the template nor the refused message again', async () => {
		await windowWorld();
		// The second send fails once; n8n runs the node again, and only that item goes out again.
		fx.sim.faults.add('/whatsapp/send', {
			kind: 'status0',
			message: 'Invalid phone number.',
			everyNth: 2,
		});
		const result = await run(
			'workflow',
			{ ...text, phoneNumber: '={{ $json.phone }}', ...templateInstead() },
			{
				items: [{ json: { phone: OUTSIDE } }, { json: { phone: INSIDE } }],
				credentials: { maxSendsInFlight: 1 },
				retryOnFail: { maxTries: 3, waitBetweenTries: 0 },
			},
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.sent_as)).toEqual(['template', 'text']);
		expect(paths()).toEqual([
			'/whatsapp/send',
			'/whatsapp/send/template',
			'/whatsapp/send',
			'/whatsapp/send',
		]);
		expect(sentTo(OUTSIDE)).toHaveLength(1);
		expect(sentTo(INSIDE)).toHaveLength(1);
	});
});

describe('platform times', () => {
	it('a local time is read in its zone, across a clock change too; a time with a zone as it says', () => {
		expect(platformTimeToDate('2026-11-26 14:05:00', 'UTC')?.toISOString()).toBe(
			'2026-11-26T14:05:00.000Z',
		);
		expect(platformTimeToDate('2026-11-26 14:05:00', 'Asia/Dhaka')?.toISOString()).toBe(
			'2026-11-26T08:05:00.000Z',
		);
		expect(platformTimeToDate('2026-07-01 12:00:00', 'Europe/Berlin')?.toISOString()).toBe(
			'2026-07-01T10:00:00.000Z',
		);
		expect(platformTimeToDate('2026-01-01 12:00:00', 'Europe/Berlin')?.toISOString()).toBe(
			'2026-01-01T11:00:00.000Z',
		);
		expect(platformTimeToDate('2026-03-29 03:30:00', 'Europe/Berlin')?.toISOString()).toBe(
			'2026-03-29T01:30:00.000Z',
		);
		expect(platformTimeToDate('2026-11-26T14:05:00+06:00', 'UTC')?.toISOString()).toBe(
			'2026-11-26T08:05:00.000Z',
		);
		expect(platformTimeToDate('1795000000', 'Asia/Dhaka')?.getTime()).toBe(1_795_000_000_000);
		expect(platformTimeToDate('yesterday', 'UTC')).toBeUndefined();
	});
});
