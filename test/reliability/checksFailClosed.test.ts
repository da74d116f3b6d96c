/**
 * Reliability matrix, issue 42: the checks a send makes first fail closed, times that are not times are unknown, a
 * refused fallback names both refusals, and a failure without an answer is never blamed on the 24-hour window. Every
 * send that has the check × every odd answer × both ways n8n runs the node (the workflow's bulk path and `execute`, the
 * AI tool path) × with and without Continue On Fail. The simulator answers the odd ways through its scripted `answer`
 * fault (SPEC-GAP: deployments' odd answers, test/simulator/faults.ts). The one home of these sweeps, each case with its
 * exact reason; test/node/failClosed.test.ts keeps what a sweep does not hold (the choices, Broadcast, Send and Wait,
 * the subscriber search).
 */
import type { IDataObject } from 'n8n-workflow';
import { runNode, type RunResult } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { AVA, byId, fromList, NUMBER, numberFromList, PHONE } from '../harness/params';
import { OUTSIDE_WINDOW_TEXT } from '../simulator/route';
import { behaviourOf, count, flushTally, newTally } from './checks';
import { callControl } from '../simulator/control';

const fx = useSimulator({ seed: { subscribersPerNumber: 5 } });
const tally = newTally();
const started = Date.now();
afterAll(() => flushTally('checksFailClosed', tally, (Date.now() - started) / 1000));

const PATHS = ['workflow', 'execute'] as const;
const MODES = [false, true] as const;
const INSIDE = PHONE;
const OUTSIDE = AVA;

const control = (action: string, input: unknown = {}) => callControl(fx.sim, action, input);
async function windowWorld() {
	await control('deployment', { sessionWindow: 'enforced' });
	await control('clock', { time_zone: 'UTC' });
	await control('message', { phone_number_id: NUMBER, phone_number: INSIDE, text: 'Hi there' });
	await control('window', { phone_number_id: NUMBER, phone_number: OUTSIDE, hours_ago: 30 });
	fx.sim.clearRequests();
}
const answer = (path: string, body: unknown) => fx.sim.faults.add(path, { kind: 'answer', body });
const requested = (path: string) => fx.sim.requests.filter((request) => request.path === path);
const SEND_PATHS = [
	'/whatsapp/send',
	'/whatsapp/send/template',
	'/whatsapp/send/interactive-buttons',
	'/whatsapp/send/file',
];
const sent = () => SEND_PATHS.flatMap(requested);

const orderUpdateId = () =>
	String(
		fx.sim.state.templates.find(
			(entry) => entry.template_name === 'order_update' && entry.phone_number_id === NUMBER,
		)!.template_id,
	);

/** `kind`: how a free-form send names itself (sent_as, and its refusal before a template fallback). */
const SENDS: Array<{
	operation: string;
	label: string;
	extra: () => IDataObject;
	free: boolean;
	kind?: string;
}> = [
	{
		operation: 'sendText',
		label: 'Message → Send Text',
		extra: () => ({ message: 'Your order is ready' }),
		free: true,
		kind: 'text',
	},
	{
		operation: 'sendButtons',
		label: 'Message → Send Buttons',
		extra: () => ({ message: 'Pick one', buttons: { button: [{ title: 'Yes' }] } }),
		free: true,
		kind: 'buttons',
	},
	{
		operation: 'sendMedia',
		label: 'Message → Send Media',
		extra: () => ({ source: 'url', mediaUrl: 'https://example.com/menu.pdf' }),
		free: true,
		kind: 'media',
	},
	{
		operation: 'sendTemplate',
		label: 'Message → Send Template',
		extra: () => ({
			templateId: byId('900000'),
			variableSource: 'manual',
			manualVariables: { variable: [{ label: 'first_name', position: 1, value: 'Ava' }] },
		}),
		free: false,
	},
];
const FREE = SENDS.filter((send) => send.free);

function send(
	path: (typeof PATHS)[number],
	operation: string,
	phone: string,
	extra: IDataObject,
	continueOnFail: boolean,
): Promise<RunResult> {
	return runNode({
		path,
		credentials: fx.credentials,
		items: [{ json: { phone } }],
		continueOnFail,
		parameters: {
			resource: 'message',
			operation,
			phoneNumberId: numberFromList,
			phoneNumber: '={{ $json.phone }}',
			...extra,
		} as never,
	});
}

/** The item's failure, as a run error or the error item of Continue On Fail. */
function failureOf(result: RunResult, continueOnFail: boolean) {
	const error = continueOnFail ? result.items[0]?.error : result.error;
	return { message: String(error?.message ?? ''), error };
}

function settle(category: string, label: string, problems: string[], error: unknown): void {
	count(tally, category, problems.length > 0, behaviourOf(error as never, label));
	expect(problems).toEqual([]);
}

const OPT_OUT_CATEGORY =
	'Skip Opted-Out Subscribers, Subscriber → Get answered unreadably (text, {}, no message, a list of texts, a record without label_names, label_names as a number, null or an object): the item fails (or is skipped, by choice) with the reason, nothing is sent';
/** Each answer, and the reason the failure gives for it (this file is the one home of these cases, issue 52). */
const UNREADABLE_SUBSCRIBER: Array<[IDataObject, string]> = [
	[
		{ status: '1', message: 'Subscriber found.' },
		'the answer\'s "message" is not a subscriber record: "Subscriber found."',
	],
	[{ status: '1', message: {} }, 'the answer\'s "message" is an empty record'],
	[{ status: '1' }, 'the answer holds no subscriber record (no "message")'],
	[{ status: '1', message: ['opted-out'] }, 'the answer\'s "message" is a list of'],
	[
		{ status: '1', message: [{ chat_id: AVA, first_name: 'Ava' }] },
		'the subscriber record has no "label_names"',
	],
	[
		{ status: '1', message: [{ chat_id: AVA, label_names: 5 }] },
		'the subscriber record\'s "label_names" is a number ("5"), not text',
	],
	[
		{ status: '1', message: [{ chat_id: AVA, label_names: null }] },
		'the subscriber record\'s "label_names" is null ("null"), not text',
	],
	[
		{ status: '1', message: [{ chat_id: AVA, label_names: { 0: 'opted-out' } }] },
		'the subscriber record\'s "label_names" is an object',
	],
];

describe('opt-out fails closed', () => {
	const cases = SENDS.flatMap((entry) =>
		UNREADABLE_SUBSCRIBER.flatMap(([body, why], index) =>
			PATHS.flatMap((path) =>
				[...MODES, 'skip' as const].map((mode) => ({ ...entry, body, why, index, path, mode })),
			),
		),
	);
	it.each(cases)(
		'$label, answer $index, $path, Continue On Fail $mode',
		async ({ operation, label, extra, body, why, path, mode }) => {
			answer('/whatsapp/subscriber/get', body);
			const continueOnFail = mode === true;
			const result = await send(
				path,
				operation,
				AVA,
				{
					...extra(),
					skipOptedOut: true,
					...(mode === 'skip' ? { optOutUnreadable: 'skip' } : {}),
				},
				continueOnFail,
			);
			const problems: string[] = [];
			if (sent().length)
				problems.push(
					`sent: ${sent()
						.map((request) => request.path)
						.join()}`,
				);
			if (requested('/whatsapp/subscriber/get').length !== 1)
				problems.push('Subscriber → Get not read once');
			let error: unknown;
			if (mode === 'skip') {
				const json = result.items[0]?.json ?? {};
				if (json.skipped !== true || !String(json.reason).startsWith('Opt-out could not be read'))
					problems.push(`not skipped with the reason: ${JSON.stringify(json)}`);
			} else {
				const failure = failureOf(result, continueOnFail);
				error = failure.error;
				const reason = `Opt-out could not be read, so nothing was sent: Subscriber → Get answered for ${AVA}, but ${why}`;
				if (!failure.message.includes(reason))
					problems.push(`failure: ${failure.message || 'none'}`);
				if (!String(failure.error?.description).includes('When Opt-Out Cannot Be Read'))
					problems.push('the description does not name When Opt-Out Cannot Be Read');
				if (continueOnFail && !result.items[0]?.pairedItem) problems.push('no pairedItem');
			}
			settle(OPT_OUT_CATEGORY, label, problems, error);
		},
	);
});

const WINDOW_CATEGORY =
	'Check Window First, the conversation answered unreadably (text, {}, no message, rows that are no messages): the item fails with the reason, never skipped, never sent as text or template';
/** Each answer, and what the failure says of it. */
const UNREADABLE_CONVERSATION: Array<[IDataObject, string]> = [
	[{ status: '1', message: 'No conversation.' }, 'is not a list of messages'],
	[{ status: '1', message: {} }, 'a row of the answer is not a conversation message'],
	[{ status: '1' }, 'the answer holds no "message"'],
	[{ status: '1', message: [5, 6] }, 'is not a conversation message'],
];

describe('the window check fails closed', () => {
	const cases = FREE.flatMap((entry) =>
		UNREADABLE_CONVERSATION.flatMap(([body, why], index) =>
			PATHS.flatMap((path) =>
				['skip', 'template'].flatMap((choice) =>
					MODES.map((continueOnFail) => ({
						...entry,
						body,
						why,
						index,
						path,
						choice,
						continueOnFail,
					})),
				),
			),
		),
	);
	it.each(cases)(
		'$label, answer $index, $choice, $path, Continue On Fail $continueOnFail',
		async ({ operation, label, extra, body, why, path, choice, continueOnFail }) => {
			await windowWorld();
			answer('/whatsapp/get/conversation', body);
			const fallback =
				choice === 'template'
					? { outsideWindow: 'template', templateId: fromList(orderUpdateId()) }
					: { outsideWindow: 'skip' };
			const result = await send(
				path,
				operation,
				INSIDE,
				{ ...extra(), ...fallback, checkWindowFirst: true },
				continueOnFail,
			);
			const problems: string[] = [];
			if (sent().length)
				problems.push(
					`sent: ${sent()
						.map((request) => request.path)
						.join()}`,
				);
			const failure = failureOf(result, continueOnFail);
			if (
				!failure.message.startsWith(
					'The conversation could not be read, so the 24-hour window cannot be told',
				) ||
				!failure.message.includes(why)
			)
				problems.push(`failure: ${failure.message || JSON.stringify(result.items[0]?.json)}`);
			if (result.items.some((item) => item.json.skipped === true)) problems.push('skipped');
			settle(WINDOW_CATEGORY, label, problems, failure.error);
		},
	);
});

const TIME_CATEGORY =
	'Platform times that are not times (zero date, empty, garbage, 2099, 1999): Get Window Status says window_open null with the reason; Check Window First attempts the send and the fallback works from the refusal';
/** Each time, and what Get Window Status says of the message that carries it. */
const TIMES: Array<[string, string]> = [
	['0000-00-00 00:00:00', 'has a time that is not a time: "0000-00-00 00:00:00"'],
	['', 'has no time'],
	['yesterday', 'has a time that is not a time: "yesterday"'],
	[
		'2099-01-01 00:00:00',
		'has a time in the future: "2099-01-01 00:00:00" (in UTC; check the credential\'s Platform Time Zone)',
	],
	['1999-12-31 23:59:59', 'has a time before WhatsApp existed: "1999-12-31 23:59:59"'],
];
const row = (id: number, time: string, phone: string): IDataObject => ({
	id,
	whatsapp_bot_subscriber_subscriber_id: phone,
	sender: 'user',
	agent_name: null,
	message_content: JSON.stringify({ type: 'text', text: { body: 'Hi' } }),
	conversation_time: time,
	wa_message_id: `wamid.ROW${id}`,
});
const thirtyHoursAgo = () =>
	new Date(Date.now() - 30 * 3_600_000).toISOString().replace('T', ' ').slice(0, 19);

describe('times that are not times are unknown', () => {
	const cases = TIMES.flatMap(([time, why]) =>
		PATHS.flatMap((path) =>
			['status', 'skip', 'template'].map((what) => ({ time, why, path, what })),
		),
	);
	it.each(cases)('"$time", $what, $path', async ({ time, why, path, what }) => {
		await windowWorld();
		const phone = what === 'template' ? OUTSIDE : INSIDE;
		answer('/whatsapp/get/conversation', {
			status: '1',
			message: [row(2, time, phone), row(1, thirtyHoursAgo(), phone)],
		});
		const problems: string[] = [];
		let error: unknown;
		if (what === 'status') {
			const result = await runNode({
				path,
				credentials: fx.credentials,
				parameters: {
					resource: 'subscriber',
					operation: 'getWindowStatus',
					phoneNumberId: numberFromList,
					subscriber: byId(phone),
				},
			});
			error = result.error;
			const json = result.items[0]?.json ?? {};
			// The message with a real time 30 hours ago would claim too much: no time is given at all.
			const expected = {
				phone_number: phone,
				window_open: null,
				reason: `The subscriber's message 2 ${why}, so when they last wrote cannot be told`,
				last_incoming_at: null,
				window_closes_at: null,
			};
			if (Object.entries(expected).some(([key, value]) => json[key] !== value))
				problems.push(`status: ${JSON.stringify(json)}`);
		} else {
			const fallback =
				what === 'template'
					? { outsideWindow: 'template', templateId: fromList(orderUpdateId()) }
					: { outsideWindow: 'skip' };
			const result = await send(
				path,
				'sendText',
				phone,
				{ message: 'Hi', ...fallback, checkWindowFirst: true },
				false,
			);
			error = result.error;
			const expected = what === 'template' ? 'template' : 'text';
			if (result.items[0]?.json.sent_as !== expected)
				problems.push(`sent_as: ${JSON.stringify(result.items[0]?.json ?? result.error?.message)}`);
			if (requested('/whatsapp/send').length !== 1)
				problems.push('the free-form send was not attempted once');
			if (requested('/whatsapp/send/template').length !== (what === 'template' ? 1 : 0))
				problems.push(`templates sent: ${requested('/whatsapp/send/template').length}`);
		}
		settle(TIME_CATEGORY, 'Subscriber → Get Window Status', problems, error);
	});
});

const BOTH_CATEGORY =
	'A refused template fallback (not found, paused, wrong variables) names both refusals: the free-form refusal for the 24-hour window and the template’s';
const TEMPLATE_REFUSALS = [
	'Message template not found.',
	'Template is paused.',
	'Template variables do not match.',
];

describe('a refused fallback names both refusals', () => {
	const cases = FREE.flatMap((entry) =>
		TEMPLATE_REFUSALS.flatMap((refusal) =>
			PATHS.flatMap((path) =>
				MODES.map((continueOnFail) => ({ ...entry, refusal, path, continueOnFail })),
			),
		),
	);
	it.each(cases)(
		'$label, "$refusal", $path, Continue On Fail $continueOnFail',
		async ({ operation, label, extra, kind, refusal, path, continueOnFail }) => {
			await windowWorld();
			fx.sim.faults.add('/whatsapp/send/template', { kind: 'status0', message: refusal });
			const result = await send(
				path,
				operation,
				OUTSIDE,
				{ ...extra(), outsideWindow: 'template', templateId: fromList(orderUpdateId()) },
				continueOnFail,
			);
			const failure = failureOf(result, continueOnFail);
			const problems: string[] = [];
			const windowRefusal = `Outside the 24-hour window: the platform refused the ${kind} message ("${OUTSIDE_WINDOW_TEXT}")`;
			if (
				failure.message !==
				`The template sent instead failed too: "${refusal}". Before it: ${windowRefusal}`
			)
				problems.push(`message: ${failure.message}`);
			if (
				!String(failure.error?.description).includes(
					`First the ${kind} message: ${windowRefusal}. Then the template sent instead (Outside the 24-Hour Window → Send a Template Instead): "${refusal}".`,
				)
			)
				problems.push(`description: ${String(failure.error?.description)}`);
			if (sent().length !== 2)
				problems.push(`sends: ${sent().length}, not the refused one and the template`);
			settle(BOTH_CATEGORY, label, problems, failure.error);
		},
	);
});

const CONNECTION_CATEGORY =
	'No answer from the platform (DNS not found, connection dropped) on a free-form send with the template fallback: never taken for the 24-hour window, no template sent, no window hint';

describe('a connection failure is never blamed on the window', () => {
	const cases = FREE.flatMap((entry) =>
		(['dns', 'drop'] as const).flatMap((fault) =>
			PATHS.flatMap((path) =>
				MODES.map((continueOnFail) => ({ ...entry, fault, path, continueOnFail })),
			),
		),
	);
	it.each(cases)(
		'$label, $fault, $path, Continue On Fail $continueOnFail',
		async ({ operation, label, extra, fault, path, continueOnFail }) => {
			const endpoint = {
				sendText: '/whatsapp/send',
				sendButtons: '/whatsapp/send/interactive-buttons',
				sendMedia: '/whatsapp/send/file',
			}[operation]!;
			if (fault === 'drop') fx.sim.faults.add(endpoint, { kind: 'drop' });
			const result = await runNode({
				path,
				credentials:
					fault === 'dns'
						? { baseUrl: 'https://no-such-platform.invalid', apiToken: 'x', apiForm: 'current' }
						: fx.credentials,
				items: [{ json: { phone: OUTSIDE } }],
				continueOnFail,
				parameters: {
					resource: 'message',
					operation,
					phoneNumberId: byId(NUMBER),
					phoneNumber: '={{ $json.phone }}',
					...extra(),
					outsideWindow: 'template',
					templateId: byId('900000'),
				} as never,
			});
			const failure = failureOf(result, continueOnFail);
			const problems: string[] = [];
			if (!/The connection to the platform/.test(failure.message))
				problems.push(`failure: ${failure.message}`);
			if (fault === 'dns' && !failure.message.includes('no-such-platform.invalid was not found'))
				problems.push(`the unknown host is not named: ${failure.message}`);
			if (failure.message.includes('template')) problems.push('the failure speaks of a template');
			if (/24 hours|24-hour/.test(String(failure.error?.description)))
				problems.push('blamed on the window');
			if (requested('/whatsapp/send/template').length) problems.push('a template was sent');
			settle(CONNECTION_CATEGORY, label, problems, failure.error);
		},
	);
});
