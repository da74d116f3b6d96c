/**
 * Wait for Delivery with Status Updates From "Webhook Trigger Events, Reads as Backstop" (issue 46, point 5): the
 * simulator posts the number's Message Status webhooks over HTTP to the BotSailor Webhook Trigger (run on n8n-core's
 * WebhookContext, test/webhookTrigger/webhookHarness.ts), whose webhook() feeds the status hub
 * (nodes/shared/triggers/statusEvents.ts); the sends run through n8n's engine on both paths.
 * SPEC-GAP: the status webhook's wa_message_id is the simulator's assumption (test/simulator/webhooks.ts).
 */
import { NodeHelpers } from 'n8n-workflow';
import { sendTextParameters } from '../../bench/sendTextNode';
import { BotSailorWebhookTrigger } from '../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node';
import { publishStatusReport } from '../../nodes/BotSailorWebhookTrigger/events/messageStatusChanged';
import {
	EVENTS_FIRST_READ_MS,
	waitForDeliveryFields,
} from '../../nodes/BotSailor/sending/deliveryWait';
import {
	clearStatusHub,
	MAX_BYTES,
	MAX_IDS,
	onStatus,
	publishStatus,
	TTL_MS,
	recentStatus,
	statusHubCounts,
} from '../../nodes/shared/triggers/statusEvents';
import { runNode } from '../harness/harness';
import { NUMBER } from '../harness/params';
import { deliveryStatuses, sendTextItems } from '../harness/deliveryStatuses';
import { useSimulator } from '../harness/simulatorFixture';
import { startReceiver, type Receiver } from '../webhookTrigger/receiver';
import { WebhookRunner } from '../webhookTrigger/webhookHarness';

const fx = useSimulator();
const PATHS = ['workflow', 'execute'] as const;
const FAILING = '19990000002';
const URL_CHECK = 's3cret-for-statuses';

let receiver: Receiver;
let runner: WebhookRunner;

beforeAll(async () => {
	receiver = await startReceiver(() => runner);
});
afterAll(async () => await receiver.close());
beforeEach(async () => {
	clearStatusHub();
	// Its Event is Incoming Message: status reports start no run, and still feed the hub.
	runner = new WebhookRunner({
		webhookType: new BotSailorWebhookTrigger(),
		parameters: { event: 'incomingMessage', secret: URL_CHECK },
	});
	await runner.activate();
	receiver.received.splice(0);
});

/** The simulator posts the number's Message Status webhooks to the trigger's Production URL. */
const postStatuses = () =>
	fx.sim.state.webhooks.configure(NUMBER, {
		urls: { message_status: `${receiver.url}?secret=${URL_CHECK}` },
	});

const statuses = (input: Parameters<typeof deliveryStatuses>[1]) => deliveryStatuses(fx.sim, input);

async function send(
	path: (typeof PATHS)[number],
	count: number,
	parameters: Record<string, unknown> = {},
	extra: { continueOnFail?: boolean } = {},
) {
	return await runNode({
		credentials: fx.credentials,
		items: sendTextItems(count),
		path,
		continueOnFail: extra.continueOnFail,
		parameters: {
			...sendTextParameters(NUMBER),
			waitForDelivery: true,
			deliveryMaxWait: 20,
			deliveryStatusSource: 'webhookEvents',
			...parameters,
		} as never,
	});
}

const sends = () => fx.sim.requests.filter((request) => request.path === '/whatsapp/send');
const statusReads = () =>
	fx.sim.requests.filter((request) => request.path === '/whatsapp/get/message-status');
const delivery = (item: { json: Record<string, unknown> }) =>
	item.json.delivery as Record<string, unknown>;

/** A status report as the simulator posts it (test/simulator/webhooks.ts statusWebhook). */
const statusBody = (waMessageId: string | undefined, status: string, failedReason = '') => ({
	webhook_type: 'message_status_change',
	message_status: status,
	status_time: '2026-11-27 10:00:00',
	failed_reason: failedReason,
	...(waMessageId === undefined ? {} : { wa_message_id: waMessageId }),
	chat_id: '15550100000',
	whatsapp_bot_id: 11,
});

/** The send's answer names this wa_message_id (the platform accepted it; the simulator knows nothing of it). */
const sendAnswers = (waMessageId: string) =>
	fx.sim.faults.add('/whatsapp/send', {
		kind: 'answer',
		body: { status: '1', wa_message_id: waMessageId, message: 'Message sent successfully.' },
	});

describe.each(PATHS)('Wait for Delivery from the Webhook Trigger events (%s path)', (path) => {
	it('N sends settle from the status webhooks with 0 status reads, source "webhook"; nothing is sent twice', async () => {
		postStatuses();
		statuses({ delivered_after_ms: [50, 400], read_after_ms: 5_000, seed: 3 });
		const started = Date.now();
		const { items: output, error } = await send(path, 12);
		expect(error).toBeUndefined();
		expect(output).toHaveLength(12);
		for (const item of output)
			expect(delivery(item)).toMatchObject({ status: 'delivered', source: 'webhook' });
		expect(output.map((item) => item.pairedItem)).toEqual(
			Array.from({ length: 12 }, (_, item) => ({ item })),
		);
		expect(statusReads()).toHaveLength(0);
		expect(sends()).toHaveLength(12);
		// Settled by the events (no status read above), before the first backstop read would have been due.
		expect(Date.now() - started).toBeLessThan(EVENTS_FIRST_READ_MS);
		// The trigger answered every status post, and (its Event being Incoming Message) started no run for them.
		expect(receiver.received.length).toBeGreaterThanOrEqual(12);
		expect(receiver.received.every((request) => request.status === 200)).toBe(true);
		expect(runner.executions).toHaveLength(0);
	});

	it('a failed event: Output the Item puts it with its reason; Fail the Item fails the item (Continue On Fail: error item)', async () => {
		postStatuses();
		statuses({ delivered_after_ms: 100, fail_numbers: { [FAILING]: 131026 } });
		const outputted = await send(path, 3, { onDeliveryFailed: 'output' });
		expect(outputted.error).toBeUndefined();
		expect(delivery(outputted.items[2])).toMatchObject({ status: 'failed', source: 'webhook' });
		expect(delivery(outputted.items[2]).failed_reason).toMatch(
			/^\(#131026\) Message undeliverable/,
		);
		expect(delivery(outputted.items[0])).toMatchObject({ status: 'delivered', source: 'webhook' });

		const failed = await send(path, 3, { onDeliveryFailed: 'fail' }, { continueOnFail: true });
		expect(failed.error).toBeUndefined();
		expect(failed.items[2].pairedItem).toEqual({ item: 2 });
		expect(String(failed.items[2].json.error)).toMatch(
			/^The message was not delivered: \(#131026\) Message undeliverable/,
		);
		expect(delivery(failed.items[1])).toMatchObject({ status: 'delivered', source: 'webhook' });
		expect(statusReads()).toHaveLength(0);
		expect(sends()).toHaveLength(6);
	});

	it('a status that arrived before the wait started (before the send was answered) settles it at once', async () => {
		const id = `wamid.early-${path}`;
		const early = await runner.deliver({
			body: statusBody(id, 'delivered'),
			query: { secret: URL_CHECK },
		});
		expect(early.status).toBe(200);
		expect(recentStatus(id)?.status).toBe('delivered');
		sendAnswers(id);
		const { items: output, error } = await send(path, 1);
		expect(error).toBeUndefined();
		expect(output[0].json.wa_message_id).toBe(id);
		expect(delivery(output[0])).toMatchObject({ status: 'delivered', source: 'webhook' });
		// At once: before the first status read would have been due (and none was made), however loaded the machine.
		expect(delivery(output[0]).waited_ms as number).toBeLessThan(EVENTS_FIRST_READ_MS);
		expect(statusReads()).toHaveLength(0);
	});

	it('events never arrive (no webhook set up): the backstop reads settle it, source "status read", reads bounded', async () => {
		statuses({ delivered_after_ms: [50, 300] });
		// Max Wait 3 s: the deferred first read comes at Max Wait, when it is shorter than EVENTS_FIRST_READ_MS.
		const { items: output, error } = await send(path, 4, { deliveryMaxWait: 3 });
		expect(error).toBeUndefined();
		for (const item of output) {
			expect(delivery(item)).toMatchObject({ status: 'delivered', source: 'status read' });
			expect(delivery(item).waited_ms as number).toBeGreaterThanOrEqual(2_900);
			expect(delivery(item).timed_out).toBeUndefined();
		}
		// One read per message: none before the deferred first read.
		expect(statusReads()).toHaveLength(4);
		expect(sends()).toHaveLength(4);
	});

	it('an event for another wa_message_id settles nothing', async () => {
		const id = `wamid.mine-${path}`;
		await runner.deliver({
			body: statusBody(`${id}-other`, 'delivered'),
			query: { secret: URL_CHECK },
		});
		await runner.deliver({
			body: statusBody(`wamid.x${id.slice('wamid.'.length)}`, 'failed', '(#131026) x'),
			query: { secret: URL_CHECK },
		});
		expect(statusHubCounts().kept).toBe(2);
		sendAnswers(id);
		// The simulator never saw this message: the backstop read answers "Message not found." (unknown).
		const { items: output, error } = await send(path, 1, { deliveryMaxWait: 1 });
		expect(error).toBeUndefined();
		expect(delivery(output[0])).toMatchObject({ status: 'unknown', source: 'status read' });
		expect(delivery(output[0]).waited_ms as number).toBeGreaterThanOrEqual(950);
		expect(statusReads()).toHaveLength(1);
	});
});

describe('what reaches the status hub', () => {
	it('a status request with a wrong or missing secret publishes nothing (answered 401)', async () => {
		const id = 'wamid.forged';
		const heard: string[] = [];
		const stop = onStatus(id, (event) => heard.push(event.status));
		for (const query of [{ secret: 'wrong' }, {}] as Array<Record<string, string>>) {
			const answer = await runner.deliver({ body: statusBody(id, 'delivered'), query });
			expect(answer.status).toBe(401);
		}
		stop();
		expect(heard).toEqual([]);
		expect(recentStatus(id)).toBeUndefined();
		expect(statusHubCounts()).toMatchObject({ published: 0, withoutId: 0, kept: 0 });

		// A wait for that id is not settled by the forged report: the backstop read decides.
		sendAnswers(id);
		const { items: output } = await send('workflow', 1, { deliveryMaxWait: 1 });
		expect(delivery(output[0]).source).toBe('status read');
	});

	it('a status report without wa_message_id publishes nothing, and is counted; the first is logged once', async () => {
		const warnings: string[] = [];
		const logger = { warn: (message: string) => warnings.push(message) };
		publishStatusReport(statusBody(undefined, 'delivered'), logger);
		publishStatusReport(statusBody(undefined, 'read'), logger);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/without wa_message_id/);
		const answer = await runner.deliver({
			body: statusBody(undefined, 'delivered'),
			query: { secret: URL_CHECK },
		});
		expect(answer.status).toBe(200);
		expect(statusHubCounts()).toMatchObject({ published: 0, withoutId: 3, kept: 0 });
	});

	it('the Outgoing Message URL and other events publish nothing; a late "sent" does not replace "delivered"', async () => {
		const id = 'wamid.order';
		await runner.deliver({
			body: statusBody(id, 'delivered'),
			query: { secret: URL_CHECK },
			webhook: 'setup',
		});
		await runner.deliver({
			body: { wa_message_id: id, user_message: 'hi', chat_id: '15550100000' },
			query: { secret: URL_CHECK },
		});
		expect(recentStatus(id)).toBeUndefined();
		await runner.deliver({ body: statusBody(id, 'delivered'), query: { secret: URL_CHECK } });
		await runner.deliver({ body: statusBody(id, 'sent'), query: { secret: URL_CHECK } });
		expect(recentStatus(id)?.status).toBe('delivered');
		await runner.deliver({ body: statusBody(id, 'read'), query: { secret: URL_CHECK } });
		expect(recentStatus(id)?.status).toBe('read');
	});
});

describe('the status hub is bounded', () => {
	it('keeps the last MAX_IDS messages and each for TTL_MS', () => {
		const start = Date.now();
		for (let index = 0; index < MAX_IDS + 5; index++)
			publishStatus({ waMessageId: `wamid.bound-${index}`, status: 'delivered' }, start + index);
		expect(statusHubCounts().kept).toBe(MAX_IDS);
		expect(recentStatus('wamid.bound-4', start + MAX_IDS)).toBeUndefined();
		expect(recentStatus('wamid.bound-5', start + MAX_IDS)?.status).toBe('delivered');
		const last = `wamid.bound-${MAX_IDS + 4}`;
		expect(recentStatus(last, start + MAX_IDS + 4 + TTL_MS - 1)?.status).toBe('delivered');
		expect(recentStatus(last, start + MAX_IDS + 4 + TTL_MS)).toBeUndefined();
		// A later publish drops what expired.
		publishStatus({ waMessageId: 'wamid.later', status: 'sent' }, start + MAX_IDS + 4 + TTL_MS);
		expect(statusHubCounts().kept).toBe(1);
	});
});

describe('a Secret on the status trigger protects the waits (issue 50, point 8)', () => {
	it('a Webhook Trigger without a Secret takes the report, and it settles no wait: the status read decides', async () => {
		runner = new WebhookRunner({
			webhookType: new BotSailorWebhookTrigger(),
			parameters: { event: 'incomingMessage' },
		});
		await runner.activate();
		const id = 'wamid.unchecked';
		const answer = await runner.deliver({ body: statusBody(id, 'delivered') });
		expect(answer.status).toBe(200);
		expect(recentStatus(id)).toBeUndefined();
		expect(statusHubCounts()).toMatchObject({ published: 0, kept: 0 });
		// A wait for that id is settled by its own status read ("Message not found.": unknown), not by the report.
		sendAnswers(id);
		const { items: output } = await send('workflow', 1, { deliveryMaxWait: 1 });
		expect(delivery(output[0])).toMatchObject({ status: 'unknown', source: 'status read' });
	});

	it('the trigger’s panel says so while its Secret is empty', () => {
		const description = new BotSailorWebhookTrigger().description;
		const notice = description.properties.find(
			(property) => property.type === 'notice' && /No Secret set/.test(property.displayName),
		);
		expect(notice?.displayName).toMatch(/do not settle .*Wait for Delivery/);
		const shown = (secret: string) =>
			NodeHelpers.displayParameter(
				{ event: 'incomingMessage', secret },
				notice!,
				{ typeVersion: 1.1 },
				description,
			);
		expect(shown('')).toBe(true);
		expect(shown('s3cret')).toBe(false);
	});
});

describe('the status hub holds ids of WhatsApp messages only, bounded in bytes (issue 50, point 7)', () => {
	it('a report whose id cannot be a WhatsApp message id is refused: 200 kB ids, spaces, another prefix', async () => {
		const hostile = ['wamid.' + 'A'.repeat(200_000), 'wamid.has spaces', 'msg-1234', 'wamid.'];
		for (const id of hostile) {
			const answer = await runner.deliver({
				body: statusBody(id, 'delivered'),
				query: { secret: URL_CHECK },
			});
			expect(answer.status).toBe(200);
			expect(recentStatus(id)).toBeUndefined();
		}
		expect(statusHubCounts()).toMatchObject({ published: 0, refused: 4, kept: 0, keptBytes: 0 });
		// A real id's shape is kept.
		const real = 'wamid.HBgLMTU1NTAxMDAwMDEVAgARGBI1QjA0RjY4QkJCRkY1NzE5QTcA';
		await runner.deliver({ body: statusBody(real, 'delivered'), query: { secret: URL_CHECK } });
		expect(recentStatus(real)?.status).toBe('delivered');
	});

	it('the longest ids it takes, MAX_IDS of them, stay within MAX_BYTES (the oldest dropped first)', () => {
		const start = Date.now();
		const longest = (index: number) => `wamid.${String(index).padStart(250, 'x')}`;
		for (let index = 0; index < MAX_IDS; index++)
			publishStatus(
				{ waMessageId: longest(index), status: 'failed', failedReason: 'r'.repeat(10_000) },
				start,
			);
		const { kept, keptBytes } = statusHubCounts();
		expect(keptBytes).toBeLessThanOrEqual(MAX_BYTES);
		expect(kept).toBeLessThan(MAX_IDS);
		expect(recentStatus(longest(MAX_IDS - 1), start)?.failed_reason).toHaveLength(500);
		expect(recentStatus(longest(0), start)).toBeUndefined();
	});
});

describe('the default source is unchanged', () => {
	it('Status Updates From defaults to Status Reads, shown only with Wait for Delivery', () => {
		const field = waitForDeliveryFields().find((item) => item.name === 'deliveryStatusSource');
		expect(field).toMatchObject({
			default: 'statusReads',
			displayOptions: { show: { waitForDelivery: [true] } },
		});
	});

	it.each(PATHS)(
		'a Status Updates From that is not one of its options fails the item before anything is sent (%s path)',
		async (path) => {
			const { items: output, error } = await send(
				path,
				1,
				{ deliveryStatusSource: 'pushNotifications' },
				{ continueOnFail: true },
			);
			expect(error).toBeUndefined();
			expect(String(output[0].json.error)).toBe('Status Updates From is not valid');
			expect(fx.sim.requests).toHaveLength(0);
		},
	);

	it('without the parameter (a saved workflow), statuses are read even when events arrive; source "status read"', async () => {
		postStatuses();
		statuses({ delivered_after_ms: 50 });
		const { items: output, error } = await runNode({
			credentials: fx.credentials,
			items: sendTextItems(2),
			parameters: {
				...sendTextParameters(NUMBER),
				waitForDelivery: true,
				deliveryMaxWait: 20,
			} as never,
		});
		expect(error).toBeUndefined();
		for (const item of output)
			expect(delivery(item)).toMatchObject({ status: 'delivered', source: 'status read' });
		expect(statusReads()).toHaveLength(2);
	});
});
