/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- drives a real n8n from plain Node.js, not node code */
/**
 * BotSailor Webhook Trigger in a real n8n 2.41.1 (`n8n start`, the packed package installed as a
 * community package): published workflows, the simulator posting the platform's webhooks to their
 * production URLs. One execution per customer message; none for a duplicate (twice, concurrent) or a
 * wrong secret; with the polling trigger in the same workflow and 20 % of webhooks dropped, every
 * message starts exactly one execution within one poll interval. A customer without a phone number (Meta's
 * `user_id`, 2026) starts one execution whose reply's guard and window read decide (skipped, nothing read or sent),
 * and a second delivery starts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../simulator/server';
import type { ConversationMessage } from '../simulator/state';
import { addMessage, callControl } from '../simulator/control';
import {
	WEBHOOK_NODE,
	executionsOf,
	importTriggerWorkflows,
	productionUrl,
	publish,
	runOf,
	triggerItems,
	triggerWorkflow,
	unpublish,
	waitForExecutions,
	waitForProductionWebhook,
} from '../webhookTrigger/realN8n';
import {
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	findFreePortPair,
	importCredential,
	installCommunityPackage,
	instance,
	pack,
	PACKAGE_NAME,
	provision,
	Session,
	type N8nInstance,
	type Server,
	startWithOwner,
} from './n8n';
import { byId, NUMBER, seededPhone } from '../harness/params';

const SECRET = 'e2e-Secret-7f3a';
const WEBHOOK_ONLY = {
	id: 'bsE2eWebhookOnly',
	webhookId: 'bs-e2e-webhook-only',
	phoneNumberId: NUMBER,
	secret: SECRET,
};
const ANY_EVENT = {
	id: 'bsE2eAnyEvent',
	webhookId: 'bs-e2e-any-event',
	phoneNumberId: NUMBER,
	secret: SECRET,
	event: 'anyEvent',
};
const BOTH = {
	id: 'bsE2eBothTriggers',
	webhookId: 'bs-e2e-both-triggers',
	phoneNumberId: NUMBER,
	withPolling: true,
};

const WITHOUT_PHONE = {
	id: 'bsE2eWithoutPhone',
	webhookId: 'bs-e2e-without-phone',
	phoneNumberId: NUMBER,
	secret: SECRET,
};
const REPLY_NODE = 'Reply';

/** Webhook Trigger → Send Text answering the message, with Only If Still Unanswered and Check Window First (Skip). */
function replyWorkflow() {
	const workflow = triggerWorkflow(WITHOUT_PHONE);
	const [webhook] = workflow.nodes;
	const reply = {
		id: `${WITHOUT_PHONE.id}-reply`,
		name: REPLY_NODE,
		type: `${PACKAGE_NAME}.botSailor`,
		typeVersion: 1,
		position: [240, 0],
		parameters: {
			resource: 'message',
			operation: 'sendText',
			phoneNumberId: byId(NUMBER),
			phoneNumber: { __rl: true, mode: 'phone', value: '={{ $json.phone_number }}' },
			message: 'Yes, we bake on Sundays from 8 to 12',
			outsideWindow: 'skip',
			checkWindowFirst: true,
			additionalFields: {
				answersMessageId: '={{ $json.wa_message_id }}',
				onlyIfUnanswered: true,
			},
		},
		credentials: { botSailorApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
	};
	return {
		...workflow,
		nodes: [webhook, reply],
		connections: { [WEBHOOK_NODE]: { main: [[{ node: REPLY_NODE, type: 'main', index: 0 }]] } },
	};
}

let sim: Simulator;
let n8n: N8nInstance;
let work: string;
let server: Server;
let session: Session;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Which message ids each execution of a workflow started with, and from which trigger. */
async function startedMessages(workflowId: string) {
	const started: Array<{ id: string; trigger: string; item: Record<string, unknown> }> = [];
	for (const execution of await executionsOf(session, workflowId)) {
		const run = await runOf(n8n, session, execution.id);
		expect({ execution: execution.id, status: run.status }).toEqual({
			execution: execution.id,
			status: 'success',
		});
		const { trigger, items } = triggerItems(run);
		for (const item of items) started.push({ id: String(item.wa_message_id), trigger, item });
	}
	return started;
}

function countsOf(messages: ConversationMessage[], started: Array<{ id: string }>) {
	return messages.map(
		(message) => started.filter((entry) => entry.id === message.wa_message_id).length,
	);
}

beforeAll(async () => {
	const paths = provision();
	sim = await startSimulator();
	work = mkdtempSync(join(tmpdir(), 'botsailor-webhook-e2e-'));
	n8n = instance(paths, join(work, 'user'), await findFreePortPair());
	installCommunityPackage(n8n, pack(join(work, 'pack')));
	await importCredential(n8n, { baseUrl: sim.url, apiToken: sim.token });
	await importTriggerWorkflows(n8n, [
		triggerWorkflow(WEBHOOK_ONLY),
		triggerWorkflow(ANY_EVENT),
		triggerWorkflow(BOTH),
		replyWorkflow(),
	]);
	({ server, session } = await startWithOwner(n8n));
}, 600_000);

afterAll(async () => {
	await server?.stop();
	await sim?.close();
	if (work) rmSync(work, { recursive: true, force: true });
});

test('n8n lists the webhook trigger beside the polling one', async () => {
	const types =
		await session.get<Array<{ name: string; webhooks?: unknown[] }>>('/types/nodes.json');
	const webhookTrigger = types.find(
		(type) => type.name === `${PACKAGE_NAME}.botSailorWebhookTrigger`,
	);
	// Two Production URLs since the Outgoing Message event: …/webhook and …/outgoing.
	expect(webhookTrigger?.webhooks).toHaveLength(2);
	expect(types.map((type) => type.name)).toContain(`${PACKAGE_NAME}.botSailorTrigger`);
});

describe('a published workflow with the webhook trigger', () => {
	beforeAll(async () => {
		sim.reset();
		await publish(session, WEBHOOK_ONLY.id);
		await waitForProductionWebhook(n8n, WEBHOOK_ONLY.webhookId);
		sim.state.webhooks.configure(NUMBER, {
			urls: { incoming_message: productionUrl(n8n, WEBHOOK_ONLY.webhookId, SECRET) },
		});
	}, 120_000);
	afterAll(async () => await unpublish(session, WEBHOOK_ONLY.id));

	test('one execution per customer message; none for the second, the concurrent or a late copy', async () => {
		const webhooks = sim.state.webhooks;
		const messages: ConversationMessage[] = [];
		const write = (text: string, phone = seededPhone(7)) =>
			messages.push(addMessage(sim.state, { phone_number_id: NUMBER, phone_number: phone, text }));
		write('price');
		webhooks.addFault({ kind: 'twice', times: 1 });
		write('is the shop open on Sunday?');
		webhooks.addFault({ kind: 'concurrent', copies: 5, times: 1 });
		write('five copies at once', seededPhone(8));
		webhooks.addFault({ kind: 'twice', delayMs: 1500, times: 1 });
		write('again a second and a half later', seededPhone(9));
		for (let index = 0; index < 4; index++) write(`order ${index}`, seededPhone(10 + index));
		await webhooks.idle();

		const posts = webhooks.deliveries;
		expect(posts).toHaveLength(8 + 1 + 4 + 1);
		expect(posts.every((post) => post.status === 200)).toBe(true);
		await waitForExecutions(session, WEBHOOK_ONLY.id, messages.length);
		const started = await startedMessages(WEBHOOK_ONLY.id);
		expect(countsOf(messages, started)).toEqual(messages.map(() => 1));
		expect(started).toHaveLength(messages.length);
		const duplicates = posts.filter((post) => /"duplicate":true/.test(post.answer ?? ''));
		expect(duplicates).toHaveLength(1 + 4 + 1);

		const first = started.find((entry) => entry.id === messages[0].wa_message_id)!.item;
		expect(first).toEqual(
			expect.objectContaining({
				text: 'price',
				message_type: 'text',
				direction: 'incoming',
				phone_number: seededPhone(7),
				phone_number_id: NUMBER,
				subscriber_name: sim.state.subscriber(NUMBER, seededPhone(7))?.first_name,
				event_type: 'incomingMessage',
			}),
		);
		expect(JSON.stringify(started)).not.toContain(SECRET);
		expect(JSON.stringify(started)).not.toContain(sim.token);
	}, 180_000);

	test('a wrong or missing secret is answered 401 and starts nothing; a replayed delivery starts nothing', async () => {
		const before = (await executionsOf(session, WEBHOOK_ONLY.id)).length;
		const body = JSON.stringify({
			chat_id: seededPhone(20),
			user_message: 'hello',
			wa_message_id: 'wamid.E2E-SECRET-1',
			whatsapp_bot_id: 11,
		});
		const post = (url: string) =>
			fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
		const wrong = await post(productionUrl(n8n, WEBHOOK_ONLY.webhookId, 'guessed'));
		expect({ status: wrong.status, body: await wrong.json() }).toEqual({
			status: 401,
			body: { received: false, error: 'The secret in the URL is wrong' },
		});
		expect((await post(productionUrl(n8n, WEBHOOK_ONLY.webhookId))).status).toBe(401);
		const text = await fetch(productionUrl(n8n, WEBHOOK_ONLY.webhookId, SECRET), {
			method: 'POST',
			headers: { 'content-type': 'text/plain' },
			body: 'hello',
		});
		expect(text.status).toBe(415);
		const good = await post(productionUrl(n8n, WEBHOOK_ONLY.webhookId, SECRET));
		expect(good.status).toBe(200);
		const replay = await post(productionUrl(n8n, WEBHOOK_ONLY.webhookId, SECRET));
		expect(await replay.json()).toEqual({ received: true, started: false, duplicate: true });
		const executions = await waitForExecutions(session, WEBHOOK_ONLY.id, before + 1);
		expect(executions).toHaveLength(before + 1);
	}, 120_000);
});

describe('what real deployments post: the outgoing-message webhook and any Content-Type', () => {
	beforeAll(async () => {
		sim.reset();
		await publish(session, ANY_EVENT.id);
		await waitForProductionWebhook(n8n, ANY_EVENT.webhookId);
	}, 120_000);
	afterAll(async () => await unpublish(session, ANY_EVENT.id));

	test('a bot reply posted to the Outgoing Message URL in the incoming shape starts an Outgoing Message, never an Incoming one; bodies as text/plain, without a header or as octet-stream start the workflow', async () => {
		const webhooks = sim.state.webhooks;
		const urls = {
			incoming_message: productionUrl(n8n, ANY_EVENT.webhookId, SECRET),
			outgoing_message: productionUrl(n8n, ANY_EVENT.webhookId, SECRET, 'outgoing'),
		};
		const messages: ConversationMessage[] = [];
		const write = (text: string, sender = 'user') =>
			messages.push(
				addMessage(sim.state, {
					phone_number_id: NUMBER,
					phone_number: seededPhone(31),
					text,
					sender,
				}),
			);
		webhooks.configure(NUMBER, { urls, outgoing: 'likeIncoming' });
		write('do you ship to Lyon?');
		write('Yes, in 2 days', 'bot');
		for (const [format, contentType] of [
			['json', 'text/plain'],
			['json', ''],
			['form', 'application/octet-stream'],
		] as const) {
			webhooks.configure(NUMBER, { urls, format, contentType });
			write(`sent as ${format} with "${contentType}"`);
		}
		await webhooks.idle();
		expect(webhooks.deliveries.map((post) => [post.event, post.status])).toEqual([
			['incoming_message', 200],
			['outgoing_message', 200],
			['incoming_message', 200],
			['incoming_message', 200],
			['incoming_message', 200],
		]);
		expect(webhooks.deliveries[1].body).toHaveProperty('user_message', 'Yes, in 2 days');
		await waitForExecutions(session, ANY_EVENT.id, messages.length);
		const started = await startedMessages(ANY_EVENT.id);
		expect(countsOf(messages, started)).toEqual(messages.map(() => 1));
		const item = (message: ConversationMessage) =>
			started.find((entry) => entry.id === message.wa_message_id)!.item;
		expect(item(messages[0])).toMatchObject({
			event_type: 'incomingMessage',
			direction: 'incoming',
			text: 'do you ship to Lyon?',
		});
		expect(item(messages[1])).toMatchObject({
			event_type: 'outgoingMessage',
			direction: 'outgoing',
			sender: 'bot',
			text: 'Yes, in 2 days',
		});
		for (const message of messages.slice(2))
			expect(item(message)).toMatchObject({ event_type: 'incomingMessage', direction: 'incoming' });
	}, 180_000);
});

describe('the webhook trigger and the polling trigger in one published workflow', () => {
	beforeAll(async () => {
		sim.reset();
		await publish(session, BOTH.id);
		await waitForProductionWebhook(n8n, BOTH.webhookId);
		await sleep(3000); // activation polls once: that sets the polling trigger's cursor
		sim.state.webhooks.configure(NUMBER, {
			urls: { incoming_message: productionUrl(n8n, BOTH.webhookId) },
		});
	}, 120_000);
	afterAll(async () => await unpublish(session, BOTH.id));

	test('with 20 % of webhooks dropped, every message starts exactly one execution within one poll interval', async () => {
		const webhooks = sim.state.webhooks;
		webhooks.addFault({ kind: 'drop', everyNth: 5 });
		const written = Date.now();
		const messages = Array.from({ length: 10 }, (_, index) =>
			addMessage(sim.state, {
				phone_number_id: NUMBER,
				phone_number: `1555030${String(index).padStart(4, '0')}`,
				text: `order ${index}`,
			}),
		);
		await webhooks.idle();
		expect(webhooks.deliveries.filter((delivery) => delivery.dropped)).toHaveLength(2);

		// Within one poll interval (n8n polls every minute; plus the run itself).
		const executions = await waitForExecutions(session, BOTH.id, 10, {
			timeoutMs: 75_000,
			settleMs: 1000,
		});
		const latest = Math.max(
			...executions.map((execution) => Date.parse(String(execution.startedAt))),
		);
		expect(latest - written).toBeLessThan(70_000);
		let started = await startedMessages(BOTH.id);
		expect(countsOf(messages, started)).toEqual(messages.map(() => 1));
		expect(started.filter((entry) => entry.trigger === 'On WhatsApp Message')).toHaveLength(8);
		expect(started.filter((entry) => entry.trigger === 'Poll New Messages')).toHaveLength(2);

		// The next poll sees the same messages again as handled: still exactly one each.
		await sleep(65_000);
		started = await startedMessages(BOTH.id);
		expect(countsOf(messages, started)).toEqual(messages.map(() => 1));
	}, 240_000);
});

describe('a customer without a phone number (Meta user_id only, 2026; the simulator in Meta shape, SPEC-GAP)', () => {
	beforeAll(async () => {
		sim.reset();
		// The platform's clock at now: Check Window First judges the window against the real time.
		await callControl(sim, 'clock', { time_zone: 'UTC' });
		await publish(session, WITHOUT_PHONE.id);
		await waitForProductionWebhook(n8n, WITHOUT_PHONE.webhookId);
		sim.state.webhooks.configure(NUMBER, {
			urls: { incoming_message: productionUrl(n8n, WITHOUT_PHONE.webhookId, SECRET) },
		});
	}, 120_000);
	afterAll(async () => await unpublish(session, WITHOUT_PHONE.id));

	test("one execution, the reply's guard and window read decide (skipped: nothing read, nothing sent), a second delivery starts nothing; a customer with a phone number is answered", async () => {
		const webhooks = sim.state.webhooks;
		const ava = {
			chat: seededPhone(41),
			user_id: 'US.13491208655302741918',
			username: 'ava.bakes',
		};
		sim.state.customerIds[ava.chat] = {
			user_id: ava.user_id,
			username: ava.username,
			no_phone: true,
		};
		webhooks.addFault({ kind: 'twice', times: 1 });
		const fromAva = addMessage(sim.state, {
			phone_number_id: NUMBER,
			phone_number: ava.chat,
			text: 'Do you bake on Sundays?',
		});
		await webhooks.idle();
		expect(webhooks.deliveries.map((post) => post.status)).toEqual([200, 200]);
		expect(webhooks.deliveries[0].body).toMatchObject({ chat_id: '', user_id: ava.user_id });
		expect(webhooks.deliveries[1].answer).toMatch(/"duplicate":true/);
		sim.clearRequests();
		const fromBen = addMessage(sim.state, {
			phone_number_id: NUMBER,
			phone_number: seededPhone(42),
			text: 'Do you bake on Sundays?',
		});
		await webhooks.idle();

		const executions = await waitForExecutions(session, WITHOUT_PHONE.id, 2);
		expect(executions).toHaveLength(2);
		const replies = new Map<string, Record<string, unknown>>();
		for (const execution of executions) {
			const run = await runOf(n8n, session, execution.id);
			expect(run.status).toBe('success');
			const [started] = triggerItems(run).items;
			const reply = run.data.resultData.runData[REPLY_NODE]?.[0]?.data?.main[0] ?? [];
			expect(reply).toHaveLength(1);
			replies.set(String(started.wa_message_id), reply[0].json);
		}
		expect(replies.get(fromAva.wa_message_id)).toEqual({
			skipped: true,
			reason: expect.stringMatching(
				/^The customer has no phone number \(user_id US\.13491208655302741918, username ava\.bakes\): the platform's API accepts only phone numbers/,
			),
			phone_number: '',
			user_id: ava.user_id,
			username: ava.username,
		});
		expect(replies.get(fromBen.wa_message_id)).toMatchObject({
			sent_as: 'text',
			message_kind: 'free-form',
			phone_number: seededPhone(42),
		});
		// Only Ben's reply read and sent anything: his conversation (guard and window, one read) and his message.
		const paths = sim.requests.map((request) => request.path);
		expect(paths.filter((path) => path === '/whatsapp/send')).toHaveLength(1);
		expect(
			sim.requests
				.filter((request) => request.path === '/whatsapp/get/conversation')
				.map((request) => request.body.phone_number),
		).toEqual([seededPhone(42)]);
	}, 180_000);
});
