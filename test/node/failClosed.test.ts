/**
 * Issue 42, points 1, 2, 8, 9, 10 and 11: the checks a send makes first fail closed, platform times that are not times
 * are unknown, a refused fallback names both refusals, a connection failure is never blamed on the 24-hour window, and
 * the subscriber search looks beyond the first page. The simulator answers each odd way (a scripted answer for one
 * path: SPEC-GAP, see test/simulator/faults.ts `answer`), on both ways n8n runs the node (the workflow's bulk path and
 * `execute`, the AI tool path), with and without Continue On Fail.
 *
 * One home per case (issue 52, point 9): a case that is one cell of a sweep (a send × an odd answer × a path ×
 * Continue On Fail) lives in the reliability matrix, test/reliability/checksFailClosed.test.ts, with its exact reason;
 * this file holds the rest: the choices (Skip Item, Retry On Fail), Broadcast, Get Window Status's single answers, Send
 * and Wait, the check before sending, a lost template answer, the time parser and the subscriber search.
 */
import type { IDataObject } from 'n8n-workflow';
import { callMethod, runNode, type InputItem, type RunResult } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { WaitingRun } from '../harness/waiting';
import {
	AVA,
	BEN,
	byId,
	byPhone,
	fromList,
	NUMBER,
	numberFromList,
	PHONE,
} from '../harness/params';
import { platformTimeEvidence, platformTimeToDate } from '../../nodes/shared/http/platformTime';
import { callControl } from '../simulator/control';

const fx = useSimulator({ seed: { subscribersPerNumber: 5 } });
const PATHS = ['workflow', 'execute'] as const;
type Path = (typeof PATHS)[number];

const control = (action: string, input: unknown = {}) => callControl(fx.sim, action, input);

/** Inside the window: wrote a minute ago. Outside: last wrote 30 hours ago. The platform enforces the window. */
const INSIDE = PHONE;
const OUTSIDE = AVA;
async function windowWorld() {
	await control('deployment', { sessionWindow: 'enforced' });
	await control('clock', { time_zone: 'UTC' });
	await control('message', { phone_number_id: NUMBER, phone_number: INSIDE, text: 'Hi there' });
	await control('window', { phone_number_id: NUMBER, phone_number: OUTSIDE, hours_ago: 30 });
	fx.sim.clearRequests();
}

/** Every answer of `path` is this body (HTTP 200), until the test ends. */
const answer = (path: string, body: unknown) => fx.sim.faults.add(path, { kind: 'answer', body });
const requested = (path: string) => fx.sim.requests.filter((request) => request.path === path);

function sendText(
	path: Path,
	phone: string,
	extra: Record<string, unknown> = {},
	options: { continueOnFail?: boolean; items?: InputItem[] } = {},
): Promise<RunResult> {
	return runNode({
		path,
		credentials: fx.credentials,
		items: options.items ?? [{ json: { phone } }],
		continueOnFail: options.continueOnFail,
		parameters: {
			resource: 'message',
			operation: 'sendText',
			phoneNumberId: numberFromList,
			phoneNumber: '={{ $json.phone }}',
			message: 'Your order is ready',
			...extra,
		} as never,
	});
}

/** The item's failure: the run's error, or the error item under Continue On Fail. */
const failureOf = (result: RunResult, continueOnFail: boolean) =>
	continueOnFail
		? { message: String(result.items[0]?.json.error ?? ''), error: result.items[0]?.error }
		: { message: String(result.error?.message ?? ''), error: result.error };

const MODES = [
	['plain', false],
	['Continue On Fail', true],
] as const;

describe('point 1: Skip Opted-Out Subscribers fails closed', () => {
	// Each unreadable answer × every send × both paths × Continue On Fail, with its exact reason: the reliability
	// matrix (test/reliability/checksFailClosed.test.ts). Here: what the choice of When Opt-Out Cannot Be Read does.
	it.each(PATHS)(
		'When Opt-Out Cannot Be Read: Skip Item skips with the reason; the readable subscriber is sent to (%s)',
		async (path) => {
			fx.sim.faults.add('/whatsapp/subscriber/get', {
				kind: 'answer',
				body: { status: '1', message: 'OK' },
				times: 1,
			});
			const result = await sendText(
				path,
				AVA,
				{ skipOptedOut: true, optOutUnreadable: 'skip' },
				{ items: [{ json: { phone: AVA } }, { json: { phone: BEN } }] },
			);
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toEqual({
				skipped: true,
				reason: `Opt-out could not be read, so nothing was sent: Subscriber → Get answered for ${AVA}, but the answer's "message" is not a subscriber record: "OK"`,
				phone_number: AVA,
			});
			expect(result.items[1].json.wa_message_id).toMatch(/^wamid\./);
			expect(requested('/whatsapp/send').map((request) => request.body.phone_number)).toEqual([
				BEN,
			]);
		},
	);

	it.each(PATHS)(
		'Retry On Fail: the unreadable answer fails the first attempt, the next reads it and sends once (%s)',
		async (path) => {
			fx.sim.faults.add('/whatsapp/subscriber/get', {
				kind: 'answer',
				body: { status: '1', message: {} },
				times: 1,
			});
			const result = await runNode({
				path,
				credentials: fx.credentials,
				items: [{ json: { phone: BEN } }],
				retryOnFail: { maxTries: 2, waitBetweenTries: 0 },
				parameters: {
					resource: 'message',
					operation: 'sendText',
					phoneNumberId: numberFromList,
					phoneNumber: '={{ $json.phone }}',
					message: 'Hi',
					skipOptedOut: true,
				} as never,
			});
			expect(result.error).toBeUndefined();
			expect(result.items[0].json.wa_message_id).toMatch(/^wamid\./);
			expect(requested('/whatsapp/subscriber/get')).toHaveLength(2);
			expect(requested('/whatsapp/send')).toHaveLength(1);
		},
	);

	it.each(PATHS)(
		'a number the platform lists no subscriber for (message: []) is sent to, as one it does not know (%s)',
		async (path) => {
			answer('/whatsapp/subscriber/get', { status: '1', message: [] });
			const result = await sendText(path, '15550199998', { skipOptedOut: true });
			expect(result.error).toBeUndefined();
			expect(result.items[0].json.wa_message_id).toMatch(/^wamid\./);
		},
	);
});

describe('point 1: Template → Send Broadcast’s opt-out exclusion fails closed', () => {
	const cases = [
		{ status: '1', message: 'No labels.' },
		{ status: '1' },
		{ status: '1', message: {} },
		{ status: '1', message: [{ name: 'opted-out' }] },
	].flatMap((body) =>
		PATHS.flatMap((path) =>
			MODES.map(([mode, continueOnFail]) => ({ body, path, mode, continueOnFail })),
		),
	);
	it.each(cases)(
		'the label list answered $body: the campaign is not sent ($path, $mode)',
		async ({ body, path, continueOnFail }) => {
			answer('/label/list', body);
			const result = await runNode({
				path,
				credentials: fx.credentials,
				continueOnFail,
				parameters: {
					resource: 'template',
					operation: 'sendBroadcast',
					phoneNumberId: numberFromList,
					flowData: '{"template_id":"900000","labels":[31]}',
					skipOptedOut: true,
				} as never,
			});
			const failure = failureOf(result, continueOnFail);
			expect(failure.message).toMatch(
				/^The label list could not be read, so opted-out subscribers cannot be left out/,
			);
			expect(requested('/whatsapp/broadcast/template/send')).toHaveLength(0);
		},
	);

	it('an account without labels (message: []) sends the campaign as given', async () => {
		answer('/label/list', { status: '1', message: [] });
		const result = await runNode({
			credentials: fx.credentials,
			parameters: {
				resource: 'template',
				operation: 'sendBroadcast',
				phoneNumberId: numberFromList,
				flowData: '{"template_id":"900000","labels":[31]}',
				skipOptedOut: true,
			} as never,
		});
		expect(result.error).toBeUndefined();
		expect(requested('/whatsapp/broadcast/template/send')).toHaveLength(1);
	});
});

describe('point 2: the 24-hour window check (Check Window First) fails closed', () => {
	// Each unreadable conversation × every free-form send × both paths × Continue On Fail, with its exact reason: the
	// reliability matrix (test/reliability/checksFailClosed.test.ts). Here: what Get Window Status says of one.
	it.each(PATHS)(
		'Get Window Status on an unreadable answer fails; it never says open or closed (%s)',
		async (path) => {
			answer('/whatsapp/get/conversation', { status: '1', message: 'OK' });
			const result = await runNode({
				path,
				credentials: fx.credentials,
				parameters: {
					resource: 'subscriber',
					operation: 'getWindowStatus',
					phoneNumberId: numberFromList,
					subscriber: byId(INSIDE),
				},
			});
			expect(result.error?.message).toContain('The conversation could not be read');
			expect(result.items).toHaveLength(0);
		},
	);

	it('Send and Wait’s subscriber lookup: an answer that cannot be read (or is about another number) names nobody', async () => {
		for (const body of [
			{ status: '1', message: 'Found.' },
			{ status: '1', message: {} },
			{ status: '1' },
			{ status: '1', message: [{ chat_id: BEN, first_name: 'Ben', last_name: 'Other' }] },
		]) {
			fx.sim.reset({ subscribersPerNumber: 5 });
			answer('/whatsapp/subscriber/get', body);
			const run = new WaitingRun({
				parameters: {
					resource: 'message',
					operation: 'sendAndWait',
					phoneNumberId: numberFromList,
					phoneNumber: byPhone('+1 555 010 0000'),
					message: 'Approve?',
				},
				credentials: fx.credentials,
				items: [{}],
			});
			await run.start();
			expect(run.waiting).toBe(true);
			expect(requested('/whatsapp/send')).toHaveLength(1);
			const link = String(requested('/whatsapp/send')[0].body.message).match(
				/https?:\/\/\S+approved=true\S*/,
			)![0];
			const page = await run.open(link, { method: 'POST', body: { confirm: '1' } });
			expect(page.resumed?.status).toBe('success');
			expect(run.output('After')[0].json.recipient).toEqual({ phone_number: PHONE });
		}
	});
});

/** A conversation row the scripted answers list: the subscriber's message at `time`. */
const userRow = (id: number, time: string, phone = INSIDE): IDataObject => ({
	id,
	whatsapp_bot_subscriber_subscriber_id: phone,
	whatsapp_bot_id: 1,
	sender: 'user',
	agent_name: null,
	message_content: JSON.stringify({ type: 'text', text: { body: 'Hi' } }),
	conversation_time: time,
	wa_message_id: `wamid.ROW${id}`,
	reaction_data: null,
	message_status: null,
	delivery_status_updated_at: time,
	failed_reason: '',
});
const platformTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
const hoursAgo = (hours: number) => platformTime(Date.now() - hours * 3_600_000);

describe('point 8: platform times that are not times are unknown, never evidence', () => {
	// Each time that is no time × Get Window Status, Skip and the template fallback × both paths: the matrix.
	it('the calendar’s impossible dates are no times; a real one still reads', () => {
		for (const text of [
			'0000-00-00 00:00:00',
			'2026-02-31 10:00:00',
			'2026-13-01 10:00:00',
			'2026-11-26 25:00:00',
		])
			expect([text, platformTimeToDate(text, 'UTC')]).toEqual([text, undefined]);
		expect(platformTimeToDate('2026-11-26 14:05:00', 'UTC')?.toISOString()).toBe(
			'2026-11-26T14:05:00.000Z',
		);
		const now = Date.parse('2026-11-26T15:00:00Z');
		expect(platformTimeEvidence('2026-11-26 14:05:00', 'UTC', now)).toEqual({
			at: new Date('2026-11-26T14:05:00Z'),
		});
		expect(platformTimeEvidence('2008-12-31 23:59:59', 'UTC', now)).toEqual({
			problem: 'has a time before WhatsApp existed: "2008-12-31 23:59:59"',
		});
		expect(platformTimeEvidence('2026-11-26 16:00:00', 'UTC', now)).toMatchObject({
			problem: expect.stringContaining('has a time in the future'),
		});
		expect(platformTimeEvidence('2026-11-26 15:10:00', 'UTC', now)).toHaveProperty('at');
	});

	const windowStatus = (path: Path) =>
		runNode({
			path,
			credentials: fx.credentials,
			parameters: {
				resource: 'subscriber',
				operation: 'getWindowStatus',
				phoneNumberId: numberFromList,
				subscriber: byId(INSIDE),
			},
		});

	it.each(PATHS)(
		'a message with a real time inside the window proves it open beside a zero date (%s)',
		async (path) => {
			answer('/whatsapp/get/conversation', {
				status: '1',
				message: [userRow(2, '0000-00-00 00:00:00'), userRow(1, hoursAgo(1))],
			});
			const json = (await windowStatus(path)).items[0].json;
			expect(json.window_open).toBe(true);
			expect(json.reason).toBeUndefined();
		},
	);
});

const orderUpdateId = () =>
	String(
		fx.sim.state.templates.find(
			(entry) => entry.template_name === 'order_update' && entry.phone_number_id === NUMBER,
		)!.template_id,
	);
const templateInstead = () => ({
	outsideWindow: 'template',
	templateId: fromList(orderUpdateId()),
	templateVariables: {
		mappingMode: 'defineBelow',
		value: { 'templateVariable-order_id-1': 'A-1001', 'templateVariable-status-1': 'shipped' },
	},
});

describe('point 9: a refused fallback names both refusals', () => {
	// Each template refusal after the platform's window refusal, every free-form send: the matrix, word for word.
	it.each(PATHS)(
		'with Check Window First: the check’s finding, then the template’s refusal (%s)',
		async (path) => {
			await windowWorld();
			fx.sim.faults.add('/whatsapp/send/template', {
				kind: 'status0',
				message: 'Message template not found.',
			});
			const result = await sendText(path, OUTSIDE, {
				...templateInstead(),
				checkWindowFirst: true,
			});
			expect(result.error?.message).toMatch(
				/^The template sent instead failed too: "Message template not found."\. Before it: Outside the 24-hour window: the subscriber last wrote at \S+ \(checked before sending\)$/,
			);
			expect(requested('/whatsapp/send')).toHaveLength(0);
		},
	);

	it.each(PATHS)(
		'a template whose answer is lost stays "may have been delivered", with the first refusal (%s)',
		async (path) => {
			await windowWorld();
			fx.sim.faults.add('/whatsapp/send/template', { kind: 'processThen504' });
			const result = await sendText(path, OUTSIDE, templateInstead());
			expect(result.error?.message).toMatch(
				/^The template sent instead failed and may have been delivered: ".+"\. Before it: Outside the 24-hour window: the platform refused the text message/,
			);
			expect(result.error?.context?.outcome).toBe('unknown');
		},
	);
});

describe('point 10: a connection failure is never blamed on the 24-hour window', () => {
	// Every free-form send with the template fallback, an unknown host or a dropped connection: the matrix.
	const nowhere = {
		baseUrl: 'https://no-such-platform.invalid',
		apiToken: 'x',
		apiForm: 'current' as const,
	};

	it.each(MODES)('Send and Wait against an unknown host (%s)', async (_mode, continueOnFail) => {
		const run = new WaitingRun({
			parameters: {
				resource: 'message',
				operation: 'sendAndWait',
				phoneNumberId: numberFromList,
				phoneNumber: byPhone('+1 555 010 0000'),
				message: 'Approve?',
			},
			credentials: nowhere,
			items: [{}],
			continueOnFail,
		});
		await run.start();
		expect(run.waiting).toBe(false);
		const error = continueOnFail ? run.output('BotSailor')[0]?.error : run.error;
		expect(error?.message).toContain('the host no-such-platform.invalid was not found');
		expect(String(error?.description)).not.toMatch(/24 hours|24-hour|refused the question/);
	});

	it('Send and Wait whose connection drops before the answer: "may have been delivered", no window hint', async () => {
		fx.sim.faults.add('/whatsapp/send', { kind: 'drop', times: 1 });
		const run = new WaitingRun({
			parameters: {
				resource: 'message',
				operation: 'sendAndWait',
				phoneNumberId: numberFromList,
				phoneNumber: byPhone('+1 555 010 0000'),
				message: 'Approve?',
			},
			credentials: fx.credentials,
			items: [{}],
		});
		await run.start();
		expect(run.waiting).toBe(false);
		expect(run.error?.message).toContain('the connection was closed before the answer came');
		expect(String(run.error?.description)).not.toMatch(/24 hours|24-hour|refused the question/);
	});

	it('Send and Wait: the platform’s own refusal still names the 24-hour rule as a possible cause', async () => {
		fx.sim.faults.add('/whatsapp/send', { kind: 'status0', message: 'Something went wrong.' });
		const run = new WaitingRun({
			parameters: {
				resource: 'message',
				operation: 'sendAndWait',
				phoneNumberId: numberFromList,
				phoneNumber: byPhone('+1 555 010 0000'),
				message: 'Approve?',
			},
			credentials: fx.credentials,
			items: [{}],
		});
		await run.start();
		expect(run.error?.message).toBe('Something went wrong.');
		expect(run.error?.description).toContain(
			'If the subscriber has not written in the last 24 hours',
		);
	});
});

describe('point 11: the Subscriber search looks beyond the first page', () => {
	const big = useSimulator({ seed: { subscribersPerNumber: 1_100 } });
	const search = (filter?: string, paginationToken?: string) =>
		callMethod('listSearch', 'searchSubscribers', {
			credentials: big.credentials,
			parameters: { phoneNumberId: numberFromList },
			filter,
			paginationToken,
		}) as Promise<{
			results: Array<{ name: string; value: string; description?: string }>;
			paginationToken?: string;
		}>;
	const lists = () =>
		big.sim.requests.filter((request) => request.path === '/whatsapp/subscriber/list');

	it('by a phone number in any notation, or by name, on the third page of 100', async () => {
		const third = await search(undefined, '3');
		const target = third.results[42];
		const digits = target.value;
		big.sim.clearRequests();
		const byNumber = await search(
			`+${digits.slice(0, 1)} ${digits.slice(1, 4)} ${digits.slice(4, 7)} ${digits.slice(7)}`,
		);
		expect(byNumber.results).toEqual([target]);
		expect(lists().map((request) => request.body.offset)).toEqual(['1', '2', '3']);
		expect(byNumber.paginationToken).toBe('4');
		// A name no one on the first two pages has.
		Object.assign(big.sim.state.subscriber(NUMBER, digits)!, {
			first_name: 'Zelda',
			last_name: 'Quintero',
		});
		big.sim.clearRequests();
		const byName = await search('zelda QUIN');
		expect(byName.results).toEqual([{ name: `Zelda Quintero (+${digits})`, value: digits }]);
		expect(lists().map((request) => request.body.offset)).toEqual(['1', '2', '3']);
	});

	it('bounded: 10 pages per step; then the last entry says how far it searched, and scrolling goes on', async () => {
		const first = await search('+1 999 000 0000');
		expect(lists()).toHaveLength(10);
		expect(first.results).toEqual([
			{
				name: 'No match in the 1,000 most recent subscribers: scroll to search further, or pick By ID',
				value: '',
				description:
					'The search stops every 1000 subscribers (the platform has no search) and goes on from here when you scroll',
			},
		]);
		expect(first.paginationToken).toBe('11');
		big.sim.clearRequests();
		const rest = await search('+1 999 000 0000', first.paginationToken);
		expect(lists().map((request) => request.body.offset)).toEqual(['11']);
		expect(rest).toEqual({ results: [] });
	});

	it('without a filter: one page per scroll step, as before', async () => {
		const first = await search();
		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toBe('2');
		expect(lists()).toHaveLength(1);
	});
});
