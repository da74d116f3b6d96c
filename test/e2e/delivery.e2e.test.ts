/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- drives a real n8n from plain Node.js, not node code */
/**
 * Delivery you can see (issue 46, points 5-6) in a real n8n 2.41.1: a workflow sends three texts with **Wait for
 * Delivery** (When Delivery Fails: Output the Item), then **Get Delivery Report** reads the same messages, against the
 * simulator reporting statuses as the platform would (delays of 0.3-1.5 s; one number unreachable: #131026).
 * Then (`n8n start`, regular mode) Status Updates From: Webhook Trigger Events: a published BotSailor Webhook Trigger
 * receives the simulator's Message Status webhooks, and a send workflow (started by n8n's Webhook node, so it runs in
 * the same n8n process) settles from them, against the same workflow with Status Reads.
 * SPEC-GAP: the statuses, their delays and the failed_reason texts are the simulator's (test/simulator/statuses.ts);
 * so is the status webhook's wa_message_id (test/simulator/webhooks.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addMessage } from '../simulator/control';
import { failedReasonOf } from '../simulator/statuses';
import { startSimulator, type Simulator } from '../simulator/server';
import {
	productionUrl,
	publish,
	triggerWorkflow,
	waitForProductionWebhook,
} from '../webhookTrigger/realN8n';
import {
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	ensureBuilt,
	execute,
	findFreePortPair,
	importCredential,
	importWorkflows,
	installCommunityPackage,
	instance,
	nodeOutput,
	pack,
	provision,
	Session,
	type N8nInstance,
	type Server,
	startWithOwner,
} from './n8n';
import { NUMBER } from '../harness/params';

const PHONES = ['15550100011', '15550100012', '15550100013'];
const UNREACHABLE = PHONES[1];
const credentials = { botSailorApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };
const WORKFLOW = 'bsE2eDelivery';
const URL_CHECK = 'e2e-Status-Secret-46';
/** The BotSailor Webhook Trigger that receives the number's Message Status webhooks (its Event: Incoming Message). */
const STATUS_TRIGGER = {
	id: 'bsE2eStatusTrigger',
	webhookId: 'bs-e2e-status-trigger',
	phoneNumberId: NUMBER,
	secret: URL_CHECK,
};
/** The send workflows started by n8n's Webhook node: one per Status Updates From. */
const SEND_BY_EVENTS = {
	id: 'bsE2eSendEvents',
	path: 'bs-e2e-send-events',
	source: 'webhookEvents',
};
const SEND_BY_READS = { id: 'bsE2eSendReads', path: 'bs-e2e-send-reads', source: 'statusReads' };

let sim: Simulator;
let n8n: N8nInstance;
let work: string;

/** Manual Trigger → three numbers → Send Text (Wait for Delivery) → Get Delivery Report (once, all ids). */
function deliveryWorkflow() {
	const node = (name: string, type: string, position: number, parameters: object, extra = {}) => ({
		parameters,
		id: name.toLowerCase().replace(/\W+/g, '-'),
		name,
		type,
		typeVersion: type.startsWith('n8n-nodes-botsailor') ? 1.1 : 1,
		position: [position * 220, 0],
		...extra,
	});
	return {
		id: WORKFLOW,
		name: WORKFLOW,
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', 0, {}),
			{
				...node('Numbers', 'n8n-nodes-base.set', 1, {
					mode: 'raw',
					jsonOutput: JSON.stringify({ phone: PHONES }),
					options: {},
				}),
				typeVersion: 3.4,
			},
			node('One per Number', 'n8n-nodes-base.splitOut', 2, {
				fieldToSplitOut: 'phone',
				options: {},
			}),
			node(
				'Send Text',
				'n8n-nodes-botsailor.botSailor',
				3,
				{
					resource: 'message',
					operation: 'sendText',
					phoneNumberId: { __rl: true, mode: 'id', value: NUMBER },
					phoneNumber: { __rl: true, mode: 'phone', value: '={{ $json.phone }}' },
					message: 'Your order is ready for pick-up.',
					waitForDelivery: true,
					deliveryMaxWait: 30,
					onDeliveryFailed: 'output',
				},
				{ credentials },
			),
			node(
				'Get Delivery Report',
				'n8n-nodes-botsailor.botSailor',
				4,
				{
					resource: 'message',
					operation: 'getDeliveryReport',
					messageIds: "={{ $('Send Text').all().map((item) => item.json.wa_message_id) }}",
				},
				{ credentials, executeOnce: true },
			),
		],
		connections: Object.fromEntries(
			['Start', 'Numbers', 'One per Number', 'Send Text'].map((name, index, names) => [
				name,
				{
					main: [
						[
							{
								node: [...names.slice(1), 'Get Delivery Report'][index],
								type: 'main',
								index: 0,
							},
						],
					],
				},
			]),
		),
	};
}

/** Webhook (POST, answers the last node's items) → three numbers → Send Text with Wait for Delivery from `source`. */
function sendByWebhookWorkflow(options: { id: string; path: string; source: string }) {
	const workflow = deliveryWorkflow();
	const webhook = {
		parameters: {
			httpMethod: 'POST',
			path: options.path,
			responseMode: 'lastNode',
			responseData: 'allEntries',
			options: {},
		},
		id: `${options.id}-webhook`,
		name: 'Start',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: options.path,
	};
	const nodes = workflow.nodes
		.filter((node) => node.name !== 'Get Delivery Report' && node.name !== 'Start')
		.map((node) =>
			node.name === 'Send Text'
				? { ...node, parameters: { ...node.parameters, deliveryStatusSource: options.source } }
				: node,
		);
	const connections = Object.fromEntries(
		Object.entries(workflow.connections).filter(([name]) => name !== 'Send Text'),
	);
	return {
		...workflow,
		id: options.id,
		name: options.id,
		nodes: [webhook, ...nodes],
		connections,
	};
}

beforeAll(async () => {
	const paths = provision();
	ensureBuilt();
	sim = await startSimulator();
	work = mkdtempSync(join(tmpdir(), 'botsailor-e2e-delivery-'));
	n8n = instance(paths, join(work, 'user'), await findFreePortPair());
	installCommunityPackage(n8n, pack(join(work, 'pack')));
	await importCredential(n8n, { baseUrl: sim.url, apiToken: sim.token });
	const workflows = join(work, 'workflows');
	mkdirSync(workflows);
	writeFileSync(join(workflows, `${WORKFLOW}.json`), JSON.stringify(deliveryWorkflow()));
	for (const workflow of [
		triggerWorkflow(STATUS_TRIGGER),
		sendByWebhookWorkflow(SEND_BY_EVENTS),
		sendByWebhookWorkflow(SEND_BY_READS),
	])
		writeFileSync(join(workflows, `${workflow.id}.json`), JSON.stringify(workflow));
	await importWorkflows(n8n, workflows);
}, 600_000);

afterAll(async () => {
	await sim?.close();
	if (work) rmSync(work, { recursive: true, force: true });
});

/** Each customer wrote first (the 24-hour window is open); the platform reports statuses 0.3–1.5 s after a send. */
function customersWroteAndStatusesFlow(): void {
	for (const phone of PHONES)
		addMessage(sim.state, { phone_number_id: NUMBER, phone_number: phone, text: 'Is it ready?' });
	sim.state.statuses.configure({
		delivered_after_ms: [300, 1500],
		read_after_ms: null,
		fail_numbers: { [UNREACHABLE]: 131026 },
	});
}

test('Wait for Delivery puts delivered and failed (with the reason) on the items; Get Delivery Report counts them; nothing sent twice', async () => {
	customersWroteAndStatusesFlow();
	sim.clearRequests();
	const started = Date.now();
	const run = await execute(n8n, WORKFLOW);
	expect(run.status).toBe('success');

	const sent = nodeOutput(run, 'Send Text');
	expect(sent.map((item) => item.phone_number)).toEqual(PHONES);
	for (const [index, item] of sent.entries()) {
		const delivery = item.delivery as Record<string, unknown>;
		expect(String(item.wa_message_id)).toMatch(/^wamid\./);
		if (PHONES[index] === UNREACHABLE)
			expect(delivery).toMatchObject({ status: 'failed', failed_reason: failedReasonOf(131026) });
		else {
			expect(delivery.status).toBe('delivered');
			expect(delivery.failed_reason).toBeUndefined();
		}
		expect(delivery.timed_out).toBeUndefined();
	}
	// Each message sent once; the statuses read with one schedule for the run (at most 3 reads per message).
	const requests = (path: string) => sim.requests.filter((request) => request.path === path);
	expect(requests('/whatsapp/send').map((request) => request.body.phone_number)).toEqual(PHONES);
	const [report] = nodeOutput(run, 'Get Delivery Report');
	expect(report).toMatchObject({
		total: 3,
		checked: 3,
		counts: { delivered: 2, failed: 1 },
	});
	const messages = report.messages as Array<Record<string, unknown>>;
	expect(messages.map((entry) => entry.wa_message_id)).toEqual(
		sent.map((item) => item.wa_message_id),
	);
	expect(messages[1]).toMatchObject({ status: 'failed', failed_reason: failedReasonOf(131026) });
	// The wait's reads (≤ 3 per message) and the report's one read per message.
	expect(requests('/whatsapp/get/message-status').length).toBeLessThanOrEqual(3 * 3 + 3);
	expect(Date.now() - started).toBeLessThan(120_000);
}, 240_000);

describe('Status Updates From: Webhook Trigger Events (n8n start, regular mode)', () => {
	let server: Server;
	let session: Session;

	beforeAll(async () => {
		({ server, session } = await startWithOwner(n8n));
		for (const id of [STATUS_TRIGGER.id, SEND_BY_EVENTS.id, SEND_BY_READS.id])
			await publish(session, id);
		await waitForProductionWebhook(n8n, STATUS_TRIGGER.webhookId);
		sim.state.webhooks.configure(NUMBER, {
			urls: { message_status: productionUrl(n8n, STATUS_TRIGGER.webhookId, URL_CHECK) },
		});
	}, 300_000);
	afterAll(async () => await server?.stop());

	/** Runs a send workflow through its Webhook node: the Send Text items, as the Webhook node answers them. */
	async function runSend(path: string): Promise<Array<Record<string, unknown>>> {
		const url = `${n8n.url.replace('//localhost:', '//127.0.0.1:')}/webhook/${path}`;
		for (let attempt = 0; ; attempt++) {
			const response = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{}',
			});
			// Activation may return before the webhook serves.
			if (response.status === 404 && attempt < 120) {
				await response.body?.cancel();
				await new Promise((done) => setTimeout(done, 500));
				continue;
			}
			const text = await response.text();
			expect({ status: response.status, text }).toEqual({ status: 200, text: expect.any(String) });
			return JSON.parse(text) as Array<Record<string, unknown>>;
		}
	}

	test('the sends settle from the status webhooks (source "webhook"), with 0 status reads, where Status Reads reads', async () => {
		customersWroteAndStatusesFlow();
		const requests = (path: string) => sim.requests.filter((request) => request.path === path);

		const outcomes: Record<string, { items: Array<Record<string, unknown>>; reads: number }> = {};
		for (const workflow of [SEND_BY_EVENTS, SEND_BY_READS]) {
			sim.clearRequests();
			sim.state.webhooks.clearDeliveries();
			const items = await runSend(workflow.path);
			await sim.state.webhooks.idle();
			expect(requests('/whatsapp/send').map((request) => request.body.phone_number)).toEqual(
				PHONES,
			);
			// The trigger answered every status post (its Event is Incoming Message: they start no run).
			const posts = sim.state.webhooks.deliveries.filter((post) => post.event === 'message_status');
			expect(posts.length).toBeGreaterThanOrEqual(PHONES.length);
			expect(posts.every((post) => post.status === 200)).toBe(true);
			outcomes[workflow.source] = {
				items,
				reads: requests('/whatsapp/get/message-status').length,
			};
		}

		for (const [source, expected] of [
			['webhookEvents', 'webhook'],
			['statusReads', 'status read'],
		]) {
			const { items } = outcomes[source];
			expect(items.map((item) => item.phone_number)).toEqual(PHONES);
			for (const [index, item] of items.entries()) {
				const delivery = item.delivery as Record<string, unknown>;
				if (PHONES[index] === UNREACHABLE)
					expect(delivery).toMatchObject({
						status: 'failed',
						failed_reason: failedReasonOf(131026),
						source: expected,
					});
				else expect(delivery).toMatchObject({ status: 'delivered', source: expected });
				expect(delivery.timed_out).toBeUndefined();
			}
		}
		expect(outcomes.webhookEvents.reads).toBe(0);
		expect(outcomes.statusReads.reads).toBeGreaterThanOrEqual(PHONES.length);
	}, 300_000);
});
