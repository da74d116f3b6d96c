/**
 * Issue 46, points 1-3: the reply guards of the free-form sends (Only If Still Unanswered, Skip If a Person Took
 * Over), through n8n's engine against the simulator, on both ways n8n runs the node (the workflow's bulk path and
 * `execute`, the AI tool path), with Continue On Fail and Retry On Fail.
 */
import type { IDataObject } from 'n8n-workflow';
import { runNode, type RunResult } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { NUMBER, numberFromList, PHONE } from '../harness/params';
import { callControl } from '../simulator/control';
import { BotSailor } from '../../nodes/BotSailor/BotSailor.node';

const fx = useSimulator({ seed: { subscribersPerNumber: 3 } });
const PATHS = ['workflow', 'execute'] as const;
type Path = (typeof PATHS)[number];
/** The free-form sends with the guards: their endpoint and their own parameters (Send Media: its own test below). */
const SENDS = {
	sendButtons: {
		url: '/whatsapp/send/interactive-buttons',
		parameters: {
			message: 'Shall we book it?',
			buttons: { button: [{ title: 'Yes' }, { title: 'No' }] },
		},
	},
	sendText: { url: '/whatsapp/send', parameters: { message: 'Yes, table for two at 8.' } },
} as const;
type Send = keyof typeof SENDS;
const CASES = (Object.keys(SENDS) as Send[]).flatMap((operation) =>
	PATHS.map((path) => [operation, path] as const),
);
const CONVERSATION = '/whatsapp/get/conversation';

const control = (action: string, input: unknown = {}) =>
	callControl<IDataObject>(fx.sim, action, input);

/** A row of the conversation; its wa_message_id. */
const write = async (sender: string, text: string) =>
	String(
		(await control('message', { phone_number_id: NUMBER, phone_number: PHONE, sender, text }))
			.wa_message_id,
	);
const requested = (path: string) => fx.sim.requests.filter((request) => request.path === path);

function sendWith(
	operation: Send,
	path: Path,
	additionalFields: IDataObject,
	extra: IDataObject = {},
	options: {
		continueOnFail?: boolean;
		retryOnFail?: { maxTries: number };
		json?: IDataObject;
		sendPath?: string;
	} = {},
): Promise<RunResult> {
	return runNode({
		path,
		credentials: fx.credentials,
		items: [{ json: { phone: PHONE, ...options.json } }],
		continueOnFail: options.continueOnFail,
		retryOnFail: options.retryOnFail,
		parameters: {
			resource: 'message',
			operation,
			phoneNumberId: numberFromList,
			phoneNumber: '={{ $json.phone }}',
			...SENDS[operation].parameters,
			additionalFields,
			...extra,
		} as never,
	});
}

/** The platform's clock at now, in UTC (the node compares its times with now: takeover window, 24-hour window). */
beforeEach(async () => await control('clock', { time_zone: 'UTC' }));

describe.each(CASES)('reply guards: %s (%s path)', (operation, path) => {
	const SEND = SENDS[operation].url;
	const send = (...args: Parameters<typeof sendWith> extends [Send, ...infer R] ? R : never) =>
		sendWith(operation, ...args);
	it('Only If Still Unanswered: skipped when the customer wrote again; the newest message is answered, one read', async () => {
		const first = await write('user', 'Hi');
		const second = await write('user', 'Are you open today?');
		fx.sim.clearRequests();
		const older = await send(path, { onlyIfUnanswered: true, answersMessageId: first });
		expect(older.error).toBeUndefined();
		expect(older.items[0].json).toMatchObject({
			skipped: true,
			skip_reason: 'newer_message_arrived',
			answers_message_id: first,
			newer_wa_message_id: second,
		});
		expect(requested(SEND)).toHaveLength(0);
		expect(requested(CONVERSATION)).toHaveLength(1);

		fx.sim.clearRequests();
		// The default Answers Message ID: the wa_message_id the trigger output.
		const newest = await send(
			path,
			{ onlyIfUnanswered: true, answersMessageId: '={{ $json.wa_message_id }}' },
			{},
			{ json: { wa_message_id: second } },
		);
		expect(newest.error).toBeUndefined();
		expect(newest.items[0].json.skipped).toBeUndefined();
		expect(requested(SEND)).toHaveLength(1);
		expect(requested(CONVERSATION)).toHaveLength(1);
	});

	it('Only If Still Unanswered: skipped when the bot already answered after the message', async () => {
		const question = await write('user', 'Price?');
		await write('bot', 'It is 20 EUR');
		fx.sim.clearRequests();
		const result = await send(path, { onlyIfUnanswered: true, answersMessageId: question });
		expect(result.items[0].json).toMatchObject({
			skipped: true,
			skip_reason: 'already_answered',
			answered_by: 'bot',
		});
		expect(requested(SEND)).toHaveLength(0);
	});

	it('Skip If a Person Took Over: a team member wrote since the message, named with the time', async () => {
		const question = await write('user', 'I want a refund');
		await write('agent', 'Let me look into it');
		fx.sim.clearRequests();
		const result = await send(path, {
			skipIfPersonTookOver: true,
			answersMessageId: question,
		});
		expect(result.items[0].json).toMatchObject({
			skipped: true,
			skip_reason: 'person_took_over',
			taken_over_by: 'Alex Agent',
		});
		expect(String(result.items[0].json.taken_over_at)).toMatch(/^\d{4}-\d\d-\d\dT/);
		expect(requested(SEND)).toHaveLength(0);
	});

	it('Skip If a Person Took Over: a team member who wrote before the message, within the window, counts', async () => {
		await write('agent', 'Hello, Alex here');
		const question = await write('user', 'Thanks, one more thing');
		fx.sim.clearRequests();
		const within = await send(path, {
			skipIfPersonTookOver: true,
			answersMessageId: question,
			takeoverMinutes: 30,
		});
		expect(within.items[0].json).toMatchObject({ skip_reason: 'person_took_over' });
		// The bot and automations are no person: with only Only If Still Unanswered, this message is unanswered.
		fx.sim.clearRequests();
		const sent = await send(path, { onlyIfUnanswered: true, answersMessageId: question });
		expect(sent.items[0].json.skipped).toBeUndefined();
		expect(requested(SEND)).toHaveLength(1);
	});

	it('Takeover Includes Assignment: the conversation assigned to a team member (Subscriber → Get)', async () => {
		const question = await write('user', 'Hello');
		await write('automation', 'Auto-reply: we are on it');
		fx.sim.state.subscriber(NUMBER, PHONE)!.assigned_agent_id = 501;
		fx.sim.clearRequests();
		const assignment = {
			skipIfPersonTookOver: true,
			takeoverIncludesAssignment: true,
			answersMessageId: question,
		};
		const result = await send(path, assignment);
		expect(result.items[0].json).toMatchObject({
			skipped: true,
			skip_reason: 'assigned_to_team_member',
		});
		expect(String(result.items[0].json.taken_over_by)).toContain('501');
		expect(requested(SEND)).toHaveLength(0);
		// The option is on by default: a handed-over conversation is taken over before the person writes.
		const byDefault = await send(path, { skipIfPersonTookOver: true, answersMessageId: question });
		expect(byDefault.items[0].json).toMatchObject({
			skipped: true,
			skip_reason: 'assigned_to_team_member',
		});
		expect(requested(SEND)).toHaveLength(0);
		// Turned off, the assignment is not read (no Subscriber → Get): sent.
		fx.sim.clearRequests();
		const unread = await send(path, {
			skipIfPersonTookOver: true,
			takeoverIncludesAssignment: false,
			answersMessageId: question,
		});
		expect(unread.items[0].json.skipped).toBeUndefined();
		expect(requested('/whatsapp/subscriber/get')).toHaveLength(0);
		expect(requested(SEND)).toHaveLength(1);
		// Unassigned: sent (an automation is no person).
		fx.sim.state.subscriber(NUMBER, PHONE)!.assigned_agent_id = 0;
		const next = await write('user', 'Hello again');
		fx.sim.clearRequests();
		const sent = await send(path, { ...assignment, answersMessageId: next });
		expect(sent.items[0].json.skipped).toBeUndefined();
		expect(requested('/whatsapp/subscriber/get')).toHaveLength(1);
		expect(requested(SEND)).toHaveLength(1);
	});

	it('cost: both guards add one request per send, none after Check Window First (simulator requests counted)', async () => {
		const count = async (additionalFields: IDataObject, extra: IDataObject = {}) => {
			const message = await write('user', 'Is the table for two still free?');
			fx.sim.clearRequests();
			const result = await send(
				path,
				{ ...additionalFields, answersMessageId: '={{ $json.wa_message_id }}' },
				extra,
				{ json: { wa_message_id: message } },
			);
			expect(result.error).toBeUndefined();
			expect(result.items[0].json.skipped).toBeUndefined();
			expect(requested(SEND)).toHaveLength(1);
			return fx.sim.requests.length;
		};
		const both = {
			onlyIfUnanswered: true,
			skipIfPersonTookOver: true,
			takeoverIncludesAssignment: false,
		};
		const checkFirst = { outsideWindow: 'skip', checkWindowFirst: true };
		expect((await count(both)) - (await count({}))).toBe(1);
		expect((await count(both, checkFirst)) - (await count({}, checkFirst))).toBe(0);
		// With the assignment (the default): Subscriber → Get, shared with Skip Opted-Out Subscribers.
		const all = { ...both, takeoverIncludesAssignment: true };
		const byDefault = { onlyIfUnanswered: true, skipIfPersonTookOver: true };
		expect((await count(byDefault)) - (await count({}))).toBe(2);
		const optOut = { skipOptedOut: true };
		expect((await count(all, optOut)) - (await count({}, optOut))).toBe(1);
		expect(
			(await count(all, { ...optOut, ...checkFirst })) -
				(await count({}, { ...optOut, ...checkFirst })),
		).toBe(0);
	});

	it.each([
		['empty', '', /^Answers Message ID is empty/],
		['malformed', 'wamid.{{ broken }}', /^Answers Message ID is not a message ID/],
		['not in the conversation', 'wamid.NOTHERE', /^Answers Message ID is not in the conversation/],
	])(
		'a message id that is %s fails the item naming the field; nothing sent',
		async (_, id, expected) => {
			await write('user', 'Hi');
			for (const continueOnFail of [false, true]) {
				fx.sim.clearRequests();
				const result = await send(
					path,
					{ onlyIfUnanswered: true, answersMessageId: id },
					{},
					{ continueOnFail },
				);
				const message = continueOnFail
					? String(result.items[0]?.json.error ?? '')
					: String(result.error?.message ?? '');
				expect(message).toMatch(expected);
				if (continueOnFail) expect(result.items[0].pairedItem).toEqual({ item: 0 });
				expect(requested(SEND)).toHaveLength(0);
			}
		},
	);

	it('a message id naming a message sent to the subscriber fails the item naming the field', async () => {
		await write('user', 'Hi');
		const ours = await write('bot', 'Hello! How can I help?');
		fx.sim.clearRequests();
		const result = await send(path, { onlyIfUnanswered: true, answersMessageId: ours });
		expect(String(result.error?.message ?? '')).toMatch(
			/^Answers Message ID names a message sent to the subscriber/,
		);
		expect(requested(SEND)).toHaveLength(0);
	});

	it('an unreadable conversation never means send: the item fails, also under Retry On Fail', async () => {
		const question = await write('user', 'Hi');
		fx.sim.faults.add(CONVERSATION, { kind: 'answer', body: { status: '1', message: 'ok' } });
		for (const options of [{}, { retryOnFail: { maxTries: 2 } }, { continueOnFail: true }]) {
			fx.sim.clearRequests();
			const result = await send(
				path,
				{ skipIfPersonTookOver: true, onlyIfUnanswered: true, answersMessageId: question },
				{},
				options,
			);
			const message =
				'continueOnFail' in options
					? String(result.items[0]?.json.error ?? '')
					: String(result.error?.message ?? '');
			expect(message).toMatch(
				/^The conversation could not be read, so the reply guards cannot tell/,
			);
			expect(requested(SEND)).toHaveLength(0);
		}
	});

	it('Retry On Fail: an unreadable read once, then readable: the retry reads again and sends exactly once', async () => {
		const question = await write('user', 'Hi');
		fx.sim.faults.add(CONVERSATION, {
			kind: 'answer',
			body: { status: '1', message: 'ok' },
			times: 1,
		});
		fx.sim.clearRequests();
		const result = await send(
			path,
			{ onlyIfUnanswered: true, answersMessageId: question },
			{},
			{ retryOnFail: { maxTries: 2 } },
		);
		// n8n retries the node (both paths run inside a workflow): the second try reads again and sends.
		expect(result.error).toBeUndefined();
		expect(requested(CONVERSATION)).toHaveLength(2);
		expect(requested(SEND)).toHaveLength(1);
	});

	it('an unreadable assignment never means send', async () => {
		const question = await write('user', 'Hi');
		fx.sim.faults.add('/whatsapp/subscriber/get', {
			kind: 'answer',
			body: { status: '1', message: [{ chat_id: PHONE, first_name: 'X' }] },
		});
		fx.sim.clearRequests();
		const result = await send(path, {
			skipIfPersonTookOver: true,
			takeoverIncludesAssignment: true,
			answersMessageId: question,
		});
		expect(String(result.error?.message ?? '')).toMatch(/^The assignment could not be read/);
		expect(requested(SEND)).toHaveLength(0);
	});

	it('with Skip Opted-Out Subscribers, one Subscriber → Get serves both checks', async () => {
		const question = await write('user', 'Hi');
		fx.sim.clearRequests();
		const result = await send(
			path,
			{ skipIfPersonTookOver: true, takeoverIncludesAssignment: true, answersMessageId: question },
			{ skipOptedOut: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.skipped).toBeUndefined();
		expect(requested('/whatsapp/subscriber/get')).toHaveLength(1);
		expect(requested(CONVERSATION)).toHaveLength(1);
		expect(requested(SEND)).toHaveLength(1);
	});

	it('with Check Window First the guards read the conversation no second time', async () => {
		const question = await write('user', 'Hi');
		fx.sim.clearRequests();
		const result = await send(
			path,
			{ onlyIfUnanswered: true, answersMessageId: question },
			{ outsideWindow: 'skip', checkWindowFirst: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.skipped).toBeUndefined();
		expect(requested(CONVERSATION)).toHaveLength(1);
		expect(requested(SEND)).toHaveLength(1);
	});
});

it('a run that fails reports each skipped item with its own reason (issue 52, point 6)', async () => {
	const question = await write('user', 'Price?');
	await write('bot', 'It is 20 EUR');
	// The second item's send is refused: the run's failure lists what happened to every item.
	fx.sim.faults.add('/whatsapp/send', { kind: 'status0', message: 'Invalid phone number.' });
	const result = await runNode({
		path: 'workflow',
		credentials: { ...fx.credentials, maxSendsInFlight: 1 },
		items: [{ json: { guard: true } }, { json: { guard: false } }],
		parameters: {
			resource: 'message',
			operation: 'sendText',
			phoneNumberId: numberFromList,
			phoneNumber: PHONE,
			message: 'Yes',
			additionalFields: { onlyIfUnanswered: '={{ $json.guard }}', answersMessageId: question },
		} as never,
	});
	expect(result.error?.message).toBe('Invalid phone number.');
	expect(result.error?.description).toContain(
		'Skipped (nothing sent): item 0 (Already answered: bot replied after this message).',
	);
	expect(result.error?.description).not.toContain('24-hour window');
});

it('Send Media carries the guards too', async () => {
	const first = await write('user', 'Hi');
	await write('user', 'Hello?');
	fx.sim.clearRequests();
	const result = await runNode({
		path: 'workflow',
		credentials: fx.credentials,
		items: [{ json: {} }],
		parameters: {
			resource: 'message',
			operation: 'sendMedia',
			phoneNumberId: numberFromList,
			phoneNumber: PHONE,
			source: 'url',
			mediaUrl: 'https://example.com/menu.jpg',
			additionalFields: { onlyIfUnanswered: true, answersMessageId: first },
		} as never,
	});
	expect(result.items[0].json).toMatchObject({
		skipped: true,
		skip_reason: 'newer_message_arrived',
	});
	expect(requested('/whatsapp/send/file')).toHaveLength(0);
});

/**
 * Issue 50, point 5: a reply or a team member's row whose conversation_time is no evidence (null, empty, MySQL's zero
 * date) may be newer than the customer's message it was sorted after: the guards fail the item with the reason, never
 * send. Rows as a deployment serves them (scripted answer: the simulator cannot store a null time), in either order.
 */
describe.each(['newestFirst', 'oldestFirst'] as const)(
	'reply guards and rows without a time (rows served %s)',
	(order) => {
		const at = (secondsAgo: number) =>
			new Date(Date.now() - secondsAgo * 1000).toISOString().slice(0, 19).replace('T', ' ');
		const row = (id: number, sender: string, time: string | null): IDataObject => ({
			id,
			whatsapp_bot_subscriber_subscriber_id: PHONE,
			sender,
			agent_name: sender === 'agent' ? 'Alex Agent' : null,
			message_content: JSON.stringify({ type: 'text', text: { body: `row ${id}` } }),
			conversation_time: time,
			wa_message_id: `wamid.ROW${id}`,
		});
		/** The platform's answer: the customer's message (row 2) and a later row whose time is `time`. */
		const serve = (rows: IDataObject[]) =>
			fx.sim.faults.add(CONVERSATION, {
				kind: 'answer',
				body: { status: '1', message: order === 'newestFirst' ? [...rows].reverse() : rows },
			});
		const guardedSend = (additionalFields: IDataObject, continueOnFail = false) =>
			sendWith(
				'sendText',
				'workflow',
				{ answersMessageId: 'wamid.ROW2', ...additionalFields },
				{},
				{ continueOnFail },
			);

		it.each([
			['null', null],
			['empty', ''],
			['the zero date', '0000-00-00 00:00:00'],
		])(
			'a bot reply with %s time: Only If Still Unanswered fails with the reason, nothing sent',
			async (_, time) => {
				serve([row(1, 'bot', at(600)), row(2, 'user', at(60)), row(3, 'bot', time)]);
				const result = await guardedSend({ onlyIfUnanswered: true });
				expect(result.error?.message).toMatch(
					/^The reply guards cannot tell whether to send: the bot message 3 has (no time|a time)/,
				);
				expect(requested(SENDS.sendText.url)).toHaveLength(0);
				// Continue On Fail: the item goes to the error output with its pairing, still nothing sent.
				const routed = await guardedSend({ onlyIfUnanswered: true }, true);
				expect(String(routed.items[0].json.error)).toMatch(/cannot tell whether to send/);
				expect(routed.items[0].pairedItem).toEqual({ item: 0 });
				expect(requested(SENDS.sendText.url)).toHaveLength(0);
			},
		);

		it('a team member’s row without a time: Skip If a Person Took Over fails, nothing sent', async () => {
			serve([row(1, 'agent', null), row(2, 'user', at(60)), row(3, 'automation', at(30))]);
			const result = await guardedSend({
				skipIfPersonTookOver: true,
				takeoverIncludesAssignment: false,
			});
			expect(result.error?.message).toMatch(/the agent message 1 has no time/);
			expect(requested(SENDS.sendText.url)).toHaveLength(0);
			// A customer's row without a time is no team member, and times that are evidence decide: sent once.
			fx.sim.faults.clear();
			serve([row(1, 'user', null), row(2, 'user', at(60)), row(3, 'automation', at(30))]);
			const sent = await guardedSend({
				skipIfPersonTookOver: true,
				takeoverIncludesAssignment: false,
			});
			expect(sent.error).toBeUndefined();
			expect(sent.items[0].json.wa_message_id).toMatch(/^wamid\./);
			expect(requested(SENDS.sendText.url)).toHaveLength(1);
		});

		it('the answered message without a time: its place cannot be told, nothing sent', async () => {
			serve([row(1, 'bot', ''), row(2, 'user', '')]);
			const result = await guardedSend({ onlyIfUnanswered: true });
			expect(result.error?.message).toMatch(
				/the message wamid\.ROW2 has no time, so the rows around it cannot be ordered/,
			);
			expect(requested(SENDS.sendText.url)).toHaveLength(0);
		});
	},
);

describe('reply guards in the panel', () => {
	it('join each send’s Additional Fields in alphabetical order, as the panel and the lint order options', () => {
		const collections = new BotSailor().description.properties.filter(
			(property) =>
				property.name === 'additionalFields' &&
				(property.options ?? []).some(
					(option) => 'displayName' in option && option.displayName === 'Takeover Window (Minutes)',
				),
		);
		const operations = collections.map((collection) => collection.displayOptions?.show?.operation);
		expect(operations).toEqual(
			expect.arrayContaining([['sendText'], ['sendButtons'], ['sendMedia']]),
		);
		for (const collection of collections) {
			const names = (collection.options ?? []).map((option) =>
				'displayName' in option ? option.displayName : option.name,
			);
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		}
	});
});
