/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- drives a real n8n from plain Node.js (e2e suite and bench), not node code */
/**
 * The webhook trigger in a real n8n (test/e2e/n8n.ts provisions and starts it): workflows with the
 * webhook trigger, with both triggers, publishing them, waiting for their production webhook, and
 * reading their executions (ids, status, start times, the trigger's items).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	activateWorkflow,
	cliOk,
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	PACKAGE_NAME,
	deactivateWorkflow,
	type IRun,
	type N8nInstance,
	type Session,
} from '../e2e/n8n';
import { byId } from '../harness/params';

export const WEBHOOK_NODE = 'On WhatsApp Message';
export const POLL_NODE = 'Poll New Messages';

const credentials = { botSailorApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };

export interface WorkflowOptions {
	id: string;
	/** The webhook node's webhookId: its production URL is /webhook/<webhookId>/webhook. */
	webhookId: string;
	phoneNumberId: string;
	secret?: string;
	/** The webhook node's Event (default Incoming Message). */
	event?: string;
	/** Also a polling trigger (New Message, every minute) into the same node. */
	withPolling?: boolean;
	/** Only the polling trigger (the bench's comparison). */
	pollingOnly?: boolean;
	/** The webhook node without the credential (receiving needs none; bench row 7 measures what it costs n8n). */
	webhookWithoutCredential?: boolean;
	/** The webhook node's version (default 1, as saved by 0.1; the bench uses the version a new node gets). */
	webhookVersion?: number;
}

/** Trigger(s) → a No Operation node, so an execution is the trigger's start and nothing else. */
export function triggerWorkflow(options: WorkflowOptions) {
	const webhook = {
		id: `${options.id}-webhook`,
		name: WEBHOOK_NODE,
		type: `${PACKAGE_NAME}.botSailorWebhookTrigger`,
		typeVersion: options.webhookVersion ?? 1,
		position: [0, 0],
		webhookId: options.webhookId,
		parameters: {
			event: options.event ?? 'incomingMessage',
			phoneNumberId: byId(options.phoneNumberId),
			...(options.secret ? { secret: options.secret } : {}),
		},
		...(options.webhookWithoutCredential ? {} : { credentials }),
	};
	const poll = {
		id: `${options.id}-poll`,
		name: POLL_NODE,
		type: `${PACKAGE_NAME}.botSailorTrigger`,
		typeVersion: 1,
		position: [0, 200],
		parameters: {
			pollTimes: { item: [{ mode: 'everyMinute' }] },
			event: 'newMessage',
			phoneNumberId: byId(options.phoneNumberId),
		},
		credentials,
	};
	const done = {
		id: `${options.id}-done`,
		name: 'Received',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [240, 100],
		parameters: {},
	};
	const triggers = options.pollingOnly ? [poll] : options.withPolling ? [webhook, poll] : [webhook];
	return {
		id: options.id,
		name: `webhook trigger: ${options.id}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [...triggers, done],
		connections: Object.fromEntries(
			triggers.map((node) => [
				node.name,
				{ main: [[{ node: 'Received', type: 'main', index: 0 }]] },
			]),
		),
	};
}

export async function importTriggerWorkflows(n8n: N8nInstance, workflows: object[]): Promise<void> {
	const dir = join(n8n.userFolder, 'webhook-trigger-workflows');
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	workflows.forEach((workflow, index) =>
		writeFileSync(join(dir, `${index}.json`), JSON.stringify(workflow)),
	);
	await cliOk(n8n, ['import:workflow', '--separate', `--input=${dir}`]);
}

/** Publishes (activates) a workflow in the running n8n. */
export async function publish(session: Session, id: string): Promise<void> {
	await activateWorkflow(session, id);
}

export async function unpublish(session: Session, id: string): Promise<void> {
	await deactivateWorkflow(session, id);
}

export function productionUrl(
	n8n: N8nInstance,
	webhookId: string,
	secret?: string,
	path: 'webhook' | 'outgoing' = 'webhook',
): string {
	// 127.0.0.1: n8n listens there only, and the platform's POST should not try ::1 first.
	return `${n8n.url.replace('//localhost:', '//127.0.0.1:')}/webhook/${webhookId}/${path}${secret ? `?secret=${encodeURIComponent(secret)}` : ''}`;
}

/**
 * Waits until the production webhook answers as the node (anything but 404): activation may return
 * before the webhook serves. The probe is an empty JSON body, which the node refuses (400) without
 * starting anything, or a missing secret (401).
 */
export async function waitForProductionWebhook(
	n8n: N8nInstance,
	webhookId: string,
	timeoutMs = 60_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const response = await fetch(productionUrl(n8n, webhookId), {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{}',
		}).catch(() => undefined);
		await response?.body?.cancel();
		if (response && response.status !== 404) return;
		if (Date.now() > deadline)
			throw new Error(`webhook ${webhookId} not registered within ${timeoutMs} ms`);
		await new Promise((done) => setTimeout(done, 250));
	}
}

export interface ExecutionSummary {
	id: string;
	status: string;
	startedAt: string | null;
	createdAt?: string;
	stoppedAt?: string | null;
}

/** Every execution of a workflow (newest first, as n8n lists them; pages of 100, n8n's maximum). */
export async function executionsOf(
	session: Session,
	workflowId: string,
): Promise<ExecutionSummary[]> {
	const all: ExecutionSummary[] = [];
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	for (;;) {
		const lastId = all.length ? `&lastId=${all[all.length - 1].id}` : '';
		const list = await session.request<{ results: ExecutionSummary[] }>(
			'GET',
			`/executions?filter=${filter}&limit=100${lastId}`,
		);
		all.push(...list.results);
		if (list.results.length < 100) return all;
	}
}

/** Waits until the workflow has `count` finished executions and then `settleMs` pass without a new one. */
export async function waitForExecutions(
	session: Session,
	workflowId: string,
	count: number,
	{ timeoutMs = 120_000, settleMs = 2000 } = {},
): Promise<ExecutionSummary[]> {
	const deadline = Date.now() + timeoutMs;
	let seen = -1;
	let stableSince = Date.now();
	for (;;) {
		const executions = await executionsOf(session, workflowId);
		const finished = executions.filter(
			(execution) => execution.status !== 'running' && execution.status !== 'new',
		);
		if (executions.length !== seen) {
			seen = executions.length;
			stableSince = Date.now();
		}
		if (
			finished.length >= count &&
			finished.length === executions.length &&
			Date.now() - stableSince >= settleMs
		)
			return executions;
		if (Date.now() > deadline) return executions;
		await new Promise((done) => setTimeout(done, 300));
	}
}

/** One execution's run data (the REST API sends it in "flatted" form; the host n8n's copy of flatted reads it). */
export async function runOf(
	n8n: N8nInstance,
	session: Session,
	executionId: string,
): Promise<IRun> {
	const execution = await session.request<{ status: string; data: string }>(
		'GET',
		`/executions/${executionId}`,
	);
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the host n8n's flatted, resolved at runtime
	const { parse } = require(join(n8n.paths.n8nBin, '..', 'flatted')) as {
		parse: (text: string) => IRun['data'];
	};
	return { status: execution.status, data: parse(execution.data) };
}

/** The items a trigger node emitted in an execution, and which trigger it was. */
export function triggerItems(run: IRun): {
	trigger: string;
	items: Array<Record<string, unknown>>;
} {
	for (const trigger of [WEBHOOK_NODE, POLL_NODE]) {
		const runs = run.data.resultData.runData[trigger];
		if (runs) return { trigger, items: (runs[0].data?.main[0] ?? []).map((item) => item.json) };
	}
	throw new Error(`no trigger ran: ${Object.keys(run.data.resultData.runData).join(', ')}`);
}
