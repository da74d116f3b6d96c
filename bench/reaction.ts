/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- the bench is a command-line script in plain Node.js, not node code */
/**
 * Row 7: how long a customer waits before the workflow starts. A real n8n 2.41.1 (`n8n start`, the
 * packed package installed as a community package) with published workflows, each a trigger into a No
 * Operation node: BotSailor Webhook Trigger (the simulator process posts its outgoing webhook to the
 * production URL), n8n's own Webhook node receiving the same kind of POSTs from the simulator's second
 * number at the same time (what n8n itself costs), and BotSailor Trigger polling every minute.
 * Reaction time = the execution's `startedAt` (n8n's REST API) − the moment the bench had the simulator
 * record the customer's message. Webhook messages arrive one per second per workflow, interleaved,
 * after 3 warm-up messages; polling messages are spread evenly over several poll intervals, so they fall
 * at every phase of the poll cycle. The machine's load average is printed with the figures: n8n runs
 * every execution in its main process, so a busy machine shows in the webhook figures.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
	importCredential,
	installCommunityPackage,
	instance,
	pack,
	provision,
	Session,
	start,
	type IRun,
	type N8nInstance,
} from '../test/e2e/n8n';
import {
	executionsOf,
	importTriggerWorkflows,
	productionUrl,
	publish,
	runOf,
	triggerItems,
	triggerWorkflow,
	unpublish,
	waitForProductionWebhook,
	type ExecutionSummary,
} from '../test/webhookTrigger/realN8n';
import { fmt, ROOT, type SimProcess } from './lib';
import { QUESTION_MARK_LABEL } from '../nodes/shared/conversation/answerBinding';

/**
 * The Webhook Trigger's version row 7 measures: as a new node gets it (Send and Wait Answers: Take Them), read from the
 * build n8n installs, or BENCH_REACTION_VERSION=1 for a node saved by 0.1.
 */
async function webhookTriggerVersion(): Promise<number> {
	if (process.env.BENCH_REACTION_VERSION) return Number(process.env.BENCH_REACTION_VERSION);
	type Trigger = new () => { description: { defaultVersion?: number } };
	const built = join(
		ROOT,
		'dist',
		'nodes',
		'BotSailorWebhookTrigger',
		'BotSailorWebhookTrigger.node.js',
	);
	const loaded = (await import(pathToFileURL(built).href)) as {
		BotSailorWebhookTrigger?: Trigger;
		default?: { BotSailorWebhookTrigger?: Trigger };
	};
	const BotSailorWebhookTrigger =
		loaded.BotSailorWebhookTrigger ?? loaded.default?.BotSailorWebhookTrigger;
	if (!BotSailorWebhookTrigger) throw new Error(`${built}: no BotSailorWebhookTrigger`);
	return Number(new BotSailorWebhookTrigger().description.defaultVersion);
}

const MARKER = join(ROOT, '.cache', 'n8n-2.41.1', '.provisioned');
const LABEL = '7. Reaction time: customer message → execution start (real n8n 2.41.1, n8n start)';
const WEBHOOK = { id: 'BenchReactWebhook', webhookId: 'bench-react-webhook' };
const POLLING = { id: 'BenchReactPolling', webhookId: 'bench-react-polling-unused' };
/** n8n's own Webhook node, fed by the simulator's second WhatsApp number. */
const N8N_WEBHOOK = {
	id: 'BenchReactN8nHook',
	path: 'bench-react-n8n-webhook',
	node: 'n8n Webhook',
};
const OTHER_NUMBER = '104382179270999';

function n8nWebhookWorkflow() {
	return {
		id: N8N_WEBHOOK.id,
		name: 'bench: n8n Webhook node',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'bench-n8n-hook',
				name: N8N_WEBHOOK.node,
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: N8N_WEBHOOK.path,
				parameters: { httpMethod: 'POST', path: N8N_WEBHOOK.path, options: {} },
			},
			{
				id: 'bench-n8n-done',
				name: 'Received',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [240, 0],
				parameters: {},
			},
		],
		connections: { [N8N_WEBHOOK.node]: { main: [[{ node: 'Received', type: 'main', index: 0 }]] } },
	};
}

/** Until n8n's Webhook node answers (its probe executions carry no message id and are ignored). */
async function waitForN8nWebhook(url: string): Promise<void> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{"probe":true}',
		}).catch(() => undefined);
		await response?.body?.cancel();
		if (response && response.status !== 404) return;
		if (Date.now() > deadline)
			throw new Error(`n8n's Webhook node at ${url} not registered within 60 s`);
		await sleep(250);
	}
}

/** The message ids an execution started with: our triggers' items, or the body n8n's Webhook node received. */
function messageIdsOf(run: IRun): string[] {
	const hook = run.data.resultData.runData[N8N_WEBHOOK.node];
	if (hook)
		return (hook[0].data?.main[0] ?? []).map((item) =>
			String((item.json.body as Record<string, unknown> | undefined)?.wa_message_id),
		);
	return triggerItems(run).items.map((item) => String(item.wa_message_id));
}

const cpus = availableParallelism();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePortPair(): Promise<number> {
	const free = (port: number) =>
		new Promise<boolean>((resolve) => {
			const probe = createServer();
			probe.once('error', () => resolve(false));
			probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
		});
	for (;;) {
		const port = 20000 + Math.floor(Math.random() * 20000);
		if ((await free(port)) && (await free(port + 1))) return port;
	}
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	if (!sorted.length) return Number.NaN;
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

interface Written {
	wa_message_id: string;
	at: number;
}

/** The customer writes; the time is taken just before the simulator records the message (and, for the webhook, posts it). */
async function write(
	sim: SimProcess,
	phoneNumberId: string,
	customer: number | string,
	text: string,
): Promise<Written> {
	const at = Date.now();
	const message = await sim.control<{ wa_message_id: string }>('message', {
		phone_number_id: phoneNumberId,
		// A number: one of the 50 customers of the timed rows; a string: that phone number.
		phone_number:
			typeof customer === 'string' ? customer : `1555070${String(customer % 50).padStart(4, '0')}`,
		text,
	});
	if (!message?.wa_message_id)
		throw new Error(`the simulator did not record the message: ${JSON.stringify(message)}`);
	return { wa_message_id: message.wa_message_id, at };
}

/** Messages per case of the requests-per-message count (row 7, issue 54 point 1). */
const PER_MESSAGE = 20;

/** The platform calls (labels) and the customers of row 7's requests-per-message count. */
function platform(sim: SimProcess, phoneNumberId: string) {
	const api = async (path: string, fields: Record<string, string>) => {
		const response = await fetch(`${sim.url}/api/v1${path}`, {
			method: 'POST',
			body: new URLSearchParams({ ...fields, apiToken: sim.token }),
		});
		const body = (await response.json()) as { status?: unknown; message?: unknown };
		if (!response.ok || body.status === '0' || body.status === false)
			throw new Error(`${path}: HTTP ${response.status} ${JSON.stringify(body)}`);
		return body.message;
	};
	const labelId = async (name: string) => {
		const labels = (await api('/whatsapp/label/list', {
			phone_number_id: phoneNumberId,
		})) as Array<{
			id: number | string;
			label_name: string;
		}>;
		return labels.find((label) => label.label_name === name)?.id;
	};
	return {
		phone: (index: number) => `1555071${String(index).padStart(4, '0')}`,
		label: async (phoneNumber: string, name: string) => {
			let id = await labelId(name);
			if (id === undefined) {
				await api('/whatsapp/label/create', { phone_number_id: phoneNumberId, label_name: name });
				id = await labelId(name);
			}
			await api('/whatsapp/subscriber/chat/assign-labels', {
				phone_number_id: phoneNumberId,
				phone_number: phoneNumber,
				label_ids: String(id),
			});
		},
	};
}

/**
 * A subscriber with a label writes, so that the trigger has seen this number's webhooks list labels: until then it
 * reads every message (SPEC-GAP, docs/spec-gaps.md: `label_names` is sent "sometimes"); on an account in use the first
 * labelled customer's message does this.
 */
async function showLabels(
	sim: SimProcess,
	phoneNumberId: string,
	started: (written: Written[]) => Promise<unknown>,
): Promise<void> {
	const { phone, label } = platform(sim, phoneNumberId);
	const labelled = phone(PER_MESSAGE);
	await started([await write(sim, phoneNumberId, labelled, 'hello')]);
	await label(labelled, 'VIP');
	await started([await write(sim, phoneNumberId, labelled, 'hello again')]);
}

/**
 * Issue 54 point 1: the platform requests the Webhook Trigger makes per incoming message that answers nothing, with no
 * question waiting for its sender and with one waiting (the mark a chat question leaves on its recipients). Counted:
 * every API request the simulator received while the messages were taken, divided by the messages.
 */
async function platformRequestsPerMessage(
	sim: SimProcess,
	phoneNumberId: string,
	started: (written: Written[]) => Promise<unknown>,
): Promise<{ without: number; marked: number }> {
	const { phone, label } = platform(sim, phoneNumberId);
	const count = async () => {
		await sim.control('clear-requests');
		const written: Written[] = [];
		for (let index = 0; index < PER_MESSAGE; index++)
			written.push(await write(sim, phoneNumberId, phone(index), `nothing to answer ${index}`));
		await started(written);
		// The simulator records its API requests only (its control routes are not recorded).
		const requests = await sim.control<Array<{ path: string }>>('requests');
		return requests.length / PER_MESSAGE;
	};
	const without = await count();
	for (let index = 0; index < PER_MESSAGE; index++) await label(phone(index), QUESTION_MARK_LABEL);
	const marked = await count();
	return { without, marked };
}

/** Waits until every message started an execution; returns each message's reaction time (startedAt − written). */
async function waitFor(
	n8n: N8nInstance,
	session: Session,
	workflowId: string,
	messages: Written[],
	timeoutMs: number,
): Promise<number[]> {
	const startedAt = new Map<string, number>();
	const read = new Set<string>();
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const executions: ExecutionSummary[] = await executionsOf(session, workflowId);
		for (const execution of executions) {
			if (
				read.has(execution.id) ||
				execution.status === 'running' ||
				execution.status === 'new' ||
				!execution.startedAt
			)
				continue;
			read.add(execution.id);
			for (const id of messageIdsOf(await runOf(n8n, session, execution.id)))
				startedAt.set(id, Date.parse(execution.startedAt));
		}
		const missing = messages.filter((message) => !startedAt.has(message.wa_message_id));
		if (!missing.length)
			return messages.map((message) => startedAt.get(message.wa_message_id)! - message.at);
		if (Date.now() > deadline)
			throw new Error(
				`${missing.length} of ${messages.length} messages started no execution of ${workflowId} within ${timeoutMs} ms`,
			);
		await sleep(1000);
	}
}

export interface ReactionOptions {
	messages: number;
	/** Over how many poll intervals (minutes) the polling trigger's messages are spread. */
	pollMinutes: number;
	phoneNumberId: string;
}

/** Rows of row 7, or one "not measured" row when the pinned n8n is not provisioned. */
export async function reactionRows(
	sim: SimProcess,
	{ messages, pollMinutes, phoneNumberId }: ReactionOptions,
): Promise<string[][]> {
	if (process.env.BENCH_IN_PROCESS === '1' || !existsSync(MARKER)) {
		return [
			[
				LABEL,
				'0 ms',
				'not measured',
				'n8n 2.41.1 not provisioned (.cache/n8n-2.41.1)',
				'–',
				'–',
				'webhook p95 < 1000 ms',
			],
		];
	}
	const log = (text: string) => process.stderr.write(`bench: row 7: ${text}\n`);
	const folder = join(ROOT, '.cache', 'bench-n8n-reaction');
	rmSync(folder, { recursive: true, force: true });
	mkdirSync(folder, { recursive: true });
	const n8n = instance(provision(), folder, await freePortPair());
	execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
	const webhookVersion = await webhookTriggerVersion();
	installCommunityPackage(n8n, pack(join(ROOT, '.cache', 'bench-reaction-pack')));
	await importCredential(n8n, { baseUrl: sim.url, apiToken: sim.token });
	await importTriggerWorkflows(n8n, [
		// BENCH_REACTION_CREDENTIAL=0: the Webhook Trigger without its (optional) credential, for what n8n's check of a
		// workflow's credentials before each run costs (issue 54 point 2, docs/performance.md).
		triggerWorkflow({
			...WEBHOOK,
			phoneNumberId,
			webhookWithoutCredential: process.env.BENCH_REACTION_CREDENTIAL === '0',
			webhookVersion,
		}),
		triggerWorkflow({ ...POLLING, phoneNumberId, pollingOnly: true }),
		n8nWebhookWorkflow(),
	]);
	const server = await start(n8n);
	try {
		const session = new Session(n8n.url);
		await session.setupOwner();
		await sim.control('reset');

		log(
			`webhook trigger and n8n's Webhook node, ${messages} messages each, one per second each, interleaved`,
		);
		await publish(session, WEBHOOK.id);
		await publish(session, N8N_WEBHOOK.id);
		await waitForProductionWebhook(n8n, WEBHOOK.webhookId);
		const n8nHookUrl = `${productionUrl(n8n, 'x').split('/webhook/')[0]}/webhook/${N8N_WEBHOOK.path}`;
		await waitForN8nWebhook(n8nHookUrl);
		await sim.control('webhooks', {
			phone_number_id: phoneNumberId,
			urls: { incoming_message: productionUrl(n8n, WEBHOOK.webhookId) },
		});
		await sim.control('webhooks', {
			phone_number_id: OTHER_NUMBER,
			urls: { incoming_message: n8nHookUrl },
		});
		const warmUp = { ours: [] as Written[], n8n: [] as Written[] };
		for (let index = 0; index < 3; index++) {
			warmUp.ours.push(await write(sim, phoneNumberId, index, `warm-up ${index}`));
			warmUp.n8n.push(await write(sim, OTHER_NUMBER, index, `warm-up ${index}`));
		}
		await waitFor(n8n, session, WEBHOOK.id, warmUp.ours, 60_000);
		await waitFor(n8n, session, N8N_WEBHOOK.id, warmUp.n8n, 60_000);
		await showLabels(sim, phoneNumberId, (written) =>
			waitFor(n8n, session, WEBHOOK.id, written, 60_000),
		);
		await sim.control('webhook-deliveries', { clear: true });
		const load = loadavg()[0];
		const pushed = { ours: [] as Written[], n8n: [] as Written[] };
		for (let index = 0; index < messages; index++) {
			pushed.ours.push(await write(sim, phoneNumberId, index, `price ${index}`));
			await sleep(500);
			pushed.n8n.push(await write(sim, OTHER_NUMBER, index, `price ${index}`));
			await sleep(500);
		}
		const webhookMs = await waitFor(n8n, session, WEBHOOK.id, pushed.ours, 120_000);
		const n8nMs = await waitFor(n8n, session, N8N_WEBHOOK.id, pushed.n8n, 120_000);
		const loadAfter = loadavg()[0];
		const deliveries =
			await sim.control<
				Array<{ phone_number_id: string; sentAt: number; answeredAt: number; status: number }>
			>('webhook-deliveries');
		const answers = (number: string) =>
			deliveries.filter((delivery) => delivery.phone_number_id === number);
		const answerMs = (number: string) =>
			answers(number).map((delivery) => delivery.answeredAt - delivery.sentAt);
		const statuses = [...new Set(deliveries.map((delivery) => delivery.status))].join('/');
		const perMessage = await platformRequestsPerMessage(sim, phoneNumberId, (written) =>
			waitFor(n8n, session, WEBHOOK.id, written, 120_000),
		);
		await unpublish(session, WEBHOOK.id);
		await unpublish(session, N8N_WEBHOOK.id);
		await sim.control('webhooks', { phone_number_id: phoneNumberId, urls: {} });

		const figures = (values: number[]) =>
			`${fmt(percentile(values, 50))} / ${fmt(percentile(values, 95))} / ${fmt(Math.max(...values))}`;
		const loadText = `load average ${fmt(load, 1)}–${fmt(loadAfter, 1)} on ${cpus} cores`;
		const webhookRows = [
			[
				LABEL,
				'0 ms',
				`p50 / p95 / max (ms); ours = Webhook Trigger, reference = n8n's own Webhook node, same POSTs interleaved (1 message/s each); ${loadText}`,
				figures(webhookMs),
				figures(n8nMs),
				`${fmt(percentile(webhookMs, 50) / percentile(n8nMs, 50), 2)} (p50), ${fmt(percentile(webhookMs, 95) / percentile(n8nMs, 95), 2)} (p95)`,
				'≤ 1.2 (n8n is the floor)',
			],
			[
				LABEL,
				'0 ms',
				`n8n's answer to the platform's POST, p50 / p95 / max (ms); ours vs n8n's Webhook node; ${deliveries.length} POSTs, all HTTP ${statuses}`,
				figures(answerMs(phoneNumberId)),
				figures(answerMs(OTHER_NUMBER)),
				`${fmt(percentile(answerMs(phoneNumberId), 50) / percentile(answerMs(OTHER_NUMBER), 50), 2)} (p50), ${fmt(percentile(answerMs(phoneNumberId), 95) / percentile(answerMs(OTHER_NUMBER), 95), 2)} (p95)`,
				'≤ 1.2',
			],
		];
		webhookRows.push([
			LABEL,
			'0 ms',
			`platform requests per incoming message that answers nothing, through the Webhook Trigger (version ${webhookVersion}); ours = no question waits for the sender, reference = one does (the sender carries the mark "${QUESTION_MARK_LABEL}"); ${PER_MESSAGE} messages each`,
			fmt(perMessage.without, 2),
			fmt(perMessage.marked, 2),
			'–',
			"≤ 0.1 with no question waiting (n8n's Webhook node: 0)",
		]);
		// BENCH_REACTION_POLL=0: the Webhook Trigger against n8n's Webhook node only (the polling half takes minutes).
		if (process.env.BENCH_REACTION_POLL === '0') return webhookRows;

		log(
			`polling trigger, ${messages} messages over ${pollMinutes} poll intervals (about ${pollMinutes + 1} min)`,
		);
		await publish(session, POLLING.id);
		await sleep(3000); // activation polls once: the cursor starts there
		const polled: Written[] = [];
		const spacing = (pollMinutes * 60_000) / messages;
		for (let index = 0; index < messages; index++) {
			polled.push(await write(sim, phoneNumberId, index, `price ${index}`));
			await sleep(spacing);
		}
		const pollingMs = await waitFor(n8n, session, POLLING.id, polled, 120_000);
		await unpublish(session, POLLING.id);

		return [
			[
				LABEL,
				'0 ms',
				`p50 / p95 / max (ms), ${messages} messages each; ours = Webhook Trigger (1 message/s), reference = polling Trigger (every minute); ${loadText}`,
				figures(webhookMs),
				figures(pollingMs),
				fmt(percentile(webhookMs, 95) / percentile(pollingMs, 95), 3),
				'webhook p95 < 1000 ms',
			],
			...webhookRows,
		];
	} finally {
		await server.stop();
	}
}
