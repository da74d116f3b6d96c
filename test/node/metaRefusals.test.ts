/**
 * Meta's refusals that concern one customer (131049 marketing limit, 131050 marketing stopped, 131056 pair rate limit:
 * nodes/shared/whatsapp/metaRefusals.ts) wherever they reach the node, through n8n's engine against the simulator:
 * a send's answer (named in plain words, code kept; 131049/131050 never retried and the account's pace untouched;
 * 131056 retried after that customer's cooldown only), Wait for Delivery, Get Delivery Report and both Message Status
 * triggers. SPEC-GAP: how the platform relays Meta's refusals is not shown; the simulator answers with Meta's own
 * text "(#<code>) <title>" (test/simulator/state.ts metaRefusals, statuses.ts).
 */
import { sendTextNode, sendTextParameters } from '../../bench/sendTextNode';
import { DEFAULT_SENDS_IN_FLIGHT } from '../../nodes/shared/http/credential';
import {
	COOLDOWN_KEPT_MS,
	cooldowns,
	MAX_COOLDOWNS,
	PAIR_COOLDOWN_MS,
	paces,
	RecipientCooldowns,
} from '../../nodes/BotSailor/sending/pace';
import { metaRefusalOf } from '../../nodes/shared/whatsapp/metaRefusals';
import { BotSailorWebhookTrigger } from '../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node';
import { runNode } from '../harness/harness';
import { control, deliveryStatuses } from '../harness/deliveryStatuses';
import { NUMBER, numberById } from '../harness/params';
import { useSimulator } from '../harness/simulatorFixture';
import { addMessage, setMessageStatus } from '../simulator/control';
import { failedReasonOf } from '../simulator/statuses';
import { numberParam, triggerPoller } from '../trigger/helpers';
import { WebhookRunner } from '../webhookTrigger/webhookHarness';

const fx = useSimulator();
const bulk = sendTextNode({});
const tool = sendTextNode(false);

const LIMITED = '17770000001';
const STOPPED = '17770000002';
const PAIR = '17770000003';
const itemsTo = (phones: string[]) =>
	phones.map((phone, index) => ({ json: { phone, text: `Hello ${index}` } }));
const others = (count: number) =>
	Array.from({ length: count }, (_, index) => `1777100${String(index).padStart(4, '0')}`);

const refuse = (input: Record<string, unknown>) => control(fx.sim, 'meta-refusals', input);

const sendsTo = (phone: string) =>
	fx.sim.requests.filter(
		(request) =>
			request.path === '/whatsapp/send' &&
			String((request.body as Record<string, unknown>)?.phone_number) === phone,
	);
const deliveredTo = (phone: string) =>
	fx.sim.state.messages.filter(
		(message) =>
			message.sender === 'bot' && message.whatsapp_bot_subscriber_subscriber_id === phone,
	).length;
const paceNow = () => paces.paceFor('cred-1', DEFAULT_SENDS_IN_FLIGHT).snapshot();

beforeEach(() => cooldowns.clear());

describe('Meta’s refusals in texts', () => {
	it('reads the code as it came, or Meta’s title where the code was dropped, never a number inside another', () => {
		expect(metaRefusalOf(failedReasonOf(131049))).toMatchObject({
			code: '131049',
			kind: 'marketingLimit',
		});
		expect(metaRefusalOf('Error code 131050: user opted out')?.code).toBe('131050');
		expect(metaRefusalOf('(Business Account, Consumer Account) pair rate limit hit')?.code).toBe(
			'131056',
		);
		expect(metaRefusalOf('Message failed for +491310491234')).toBeUndefined();
		expect(metaRefusalOf(failedReasonOf(131026))).toBeUndefined();
		expect(metaRefusalOf(failedReasonOf(131049))!.meaning).toMatch(
			/do not resend it for 24 hours/i,
		);
	});
});

describe.each([
	['the bulk path', bulk],
	['the tool path', tool],
])('a send Meta refuses (%s)', (_, nodeType) => {
	it.each([200, 429])(
		'131049 and 131050 (HTTP %s): named in plain words with the code, sent once, never retried, the account’s pace untouched',
		async (httpStatus) => {
			refuse({ numbers: { [LIMITED]: 131049, [STOPPED]: 131050 }, http_status: httpStatus });
			const before = paceNow();
			const run = await runNode({
				nodeType,
				credentials: fx.credentials,
				continueOnFail: true,
				items: itemsTo([others(1)[0], LIMITED, STOPPED]),
				parameters: sendTextParameters(NUMBER) as never,
			});
			expect(run.error).toBeUndefined();
			// Continue On Fail's error item: on the tool path n8n keeps only `error` in the JSON, the rest is on the error.
			const [ok, limited, stopped] = run.items.map(
				(item): Record<string, unknown> => ({
					...(item.error?.context ?? {}),
					...item.json,
					description: item.error?.description,
				}),
			);
			expect(ok.wa_message_id).toMatch(/^wamid\./);
			expect(limited).toMatchObject({
				failed_code: '131049',
				failed_meaning: expect.stringMatching(/marketing messages to this customer.*24 hours/),
				description: expect.stringContaining('Do not resend it for 24 hours'),
			});
			expect(String(limited.error)).toContain('Meta error 131049');
			// The platform's text, with Meta's code, as it came.
			expect(String(limited.error)).toContain(failedReasonOf(131049));
			expect(stopped).toMatchObject({
				failed_code: '131050',
				failed_meaning: expect.stringMatching(/stopped marketing messages/),
			});
			expect(sendsTo(LIMITED)).toHaveLength(1);
			expect(sendsTo(STOPPED)).toHaveLength(1);
			expect(deliveredTo(LIMITED) + deliveredTo(STOPPED)).toBe(0);
			const after = paceNow();
			expect(after.pausedUntil).toBe(0);
			expect(after.allowed).toBeGreaterThanOrEqual(before.allowed);
			expect(after.threshold).toBe(before.threshold);
		},
	);
});

describe('Meta’s pair rate limit (131056)', () => {
	it('slows only that customer: the others go out meanwhile at the account’s pace, the customer gets it once after the cooldown', async () => {
		refuse({ numbers: { [PAIR]: 131056 }, times: 1, http_status: 429 });
		const rest = others(30);
		const run = await runNode({
			nodeType: bulk,
			// One send at a time: the customer's cooldown must not hold the run's only lane.
			credentials: { ...fx.credentials, maxSendsInFlight: 1 },
			items: itemsTo([PAIR, ...rest]),
			parameters: sendTextParameters(NUMBER) as never,
		});
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(31);
		expect(run.items[0].json.wa_message_id).toMatch(/^wamid\./);
		// Refused once, then sent once: two requests, one message.
		expect(sendsTo(PAIR)).toHaveLength(2);
		expect(deliveredTo(PAIR)).toBe(1);
		for (const phone of rest) expect(deliveredTo(phone)).toBe(1);
		// Every other customer's send went out between the refusal and the customer's second try.
		const order = fx.sim.requests
			.filter((request) => request.path === '/whatsapp/send')
			.map((request) => String((request.body as Record<string, unknown>).phone_number));
		expect(order.lastIndexOf(PAIR)).toBe(order.length - 1);
		// A 429 that is Meta's pair limit is not the account's rate limit.
		expect(paces.paceFor('cred-1', 1).snapshot()).toMatchObject({ pausedUntil: 0, allowed: 1 });
	});

	it('doubles the customer’s cooldown while they keep answering 131056, and keeps the others free', () => {
		let now = 1_000_000;
		const table = new RecipientCooldowns(() => now);
		table.hit('acct', PAIR);
		expect(table.remaining('acct', PAIR)).toBe(PAIR_COOLDOWN_MS);
		expect(table.remaining('acct', STOPPED)).toBe(0);
		expect(table.remaining('other account', PAIR)).toBe(0);
		now += PAIR_COOLDOWN_MS;
		table.hit('acct', PAIR);
		expect(table.remaining('acct', PAIR)).toBe(2 * PAIR_COOLDOWN_MS);
		now += 10 * 60_000;
		table.hit('acct', PAIR);
		expect(table.remaining('acct', PAIR)).toBe(PAIR_COOLDOWN_MS);
	});

	it('remembers at most MAX_COOLDOWNS customers, the ones hit longest ago dropped first, each until it can no longer double', () => {
		let now = 1_000_000;
		const table = new RecipientCooldowns(() => now);
		for (let n = 0; n <= MAX_COOLDOWNS; n++) table.hit('acct', `1555${n}`);
		expect(table.size).toBe(MAX_COOLDOWNS);
		expect(table.remaining('acct', '15550')).toBe(0);
		expect(table.remaining('acct', `1555${MAX_COOLDOWNS}`)).toBe(PAIR_COOLDOWN_MS);
		// Past COOLDOWN_KEPT_MS no entry can matter: the next hit drops them all but itself.
		now += COOLDOWN_KEPT_MS;
		table.hit('acct', PAIR);
		expect(table.size).toBe(1);
	});
});

describe('Meta’s refusals in delivery statuses', () => {
	it('Get Delivery Report names each with its code; failed_reason stays as it came', async () => {
		const ids = [131049, 131050, 131056, 131026].map((code, index) => {
			const message = addMessage(fx.sim.state, {
				phone_number_id: NUMBER,
				phone_number: `1888100${index}`,
				sender: 'bot',
			});
			setMessageStatus(fx.sim.state, {
				wa_message_id: message.wa_message_id,
				status: 'failed',
				failed_code: code,
			});
			return message.wa_message_id;
		});
		const { items, error } = await runNode({
			credentials: fx.credentials,
			parameters: {
				resource: 'message',
				operation: 'getDeliveryReport',
				messageIds: ids.join(','),
			} as never,
		});
		expect(error).toBeUndefined();
		const messages = items[0].json.messages as Array<Record<string, unknown>>;
		expect(messages.map((entry) => entry.failed_code)).toEqual([
			'131049',
			'131050',
			'131056',
			undefined,
		]);
		expect(messages[0]).toMatchObject({
			failed_reason: failedReasonOf(131049),
			failed_meaning: expect.stringContaining('24 hours'),
		});
		expect(messages[2].failed_meaning).toMatch(/this one customer/);
		expect(messages[3]).not.toHaveProperty('failed_meaning');
	});

	it('Wait for Delivery puts the code and its meaning on the item', async () => {
		deliveryStatuses(fx.sim, { delivered_after_ms: 20, fail_numbers: { [STOPPED]: 131050 } });
		const { items, error } = await runNode({
			credentials: fx.credentials,
			items: itemsTo([STOPPED]),
			parameters: {
				...sendTextParameters(NUMBER),
				waitForDelivery: true,
				deliveryMaxWait: 20,
				onDeliveryFailed: 'output',
			} as never,
		});
		expect(error).toBeUndefined();
		expect(items[0].json.delivery).toMatchObject({
			status: 'failed',
			failed_reason: failedReasonOf(131050),
			failed_code: '131050',
			failed_meaning: expect.stringContaining('stopped marketing messages'),
		});
	});

	it('the polling Message Status Changed item names it', async () => {
		const poller = triggerPoller(fx, {
			event: 'messageStatusChanged',
			phoneNumberId: numberParam(),
			statuses: ['failed'],
		});
		expect(await poller.poll()).toEqual([]);
		const subscriber = fx.sim.state.subscribersOf(NUMBER)[1];
		const message = addMessage(fx.sim.state, {
			phone_number: subscriber.chat_id,
			text: 'Offer',
			sender: 'bot',
		});
		expect(await poller.poll()).toEqual([]);
		setMessageStatus(fx.sim.state, {
			wa_message_id: message.wa_message_id,
			status: 'failed',
			failed_reason: failedReasonOf(131049),
		});
		const [item] = await poller.poll();
		expect(item.json).toMatchObject({
			failed_reason: failedReasonOf(131049),
			failed_code: '131049',
			failed_meaning: expect.stringContaining('24 hours'),
		});
	});

	it('the Webhook Trigger’s Message Status Changed item names it', async () => {
		const trigger = new WebhookRunner({
			webhookType: new BotSailorWebhookTrigger(),
			parameters: {
				event: 'messageStatusChanged',
				phoneNumberId: numberById,
				statuses: ['failed'],
			},
		});
		const answer = await trigger.deliver({
			body: {
				webhook_type: 'message_status_change',
				message_status: 'failed',
				status_time: '2026-11-20 10:15:03',
				failed_reason: failedReasonOf(131056),
				wa_message_id: 'wamid.PAIR1',
				chat_id: PAIR,
			},
		});
		expect(answer.started![0].json).toMatchObject({
			failed_reason: failedReasonOf(131056),
			failed_code: '131056',
			failed_meaning: expect.stringContaining('other customers are not affected'),
		});
	});
});
