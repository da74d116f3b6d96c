/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-hardcoded-secrets -- drives a real n8n (child processes, tar) from plain Node.js inside the test's namespace, not node code; the webhook secret is a fixed test value */
/**
 * The body of `npm run test:release` (scripts/test-release.sh runs it inside its namespace, where
 * registry.npmjs.org is the throw-away Verdaccio holding the previous release and the build under test).
 * A real n8n 2.41.1 installs the previous release by name through its own installer, runs active trigger
 * workflows and a saved Send Template built with it, updates in place while customers write (and is
 * restarted), then uninstalls and reinstalls. Every check throws; the figures are printed at the end.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startSimulator, type Simulator } from '../simulator/server';
import {
	activateWorkflow,
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	findFreePortPair,
	importCredential,
	instance,
	PACKAGE_NAME,
	provision,
	Session,
	start,
	type N8nInstance,
	type Server,
} from '../e2e/n8n';
import {
	POLL_NODE,
	productionUrl,
	runOf,
	triggerItems,
	triggerWorkflow,
	waitForProductionWebhook,
	WEBHOOK_NODE,
} from '../webhookTrigger/realN8n';
import { AVA, NUMBER } from '../harness/params';

const WORK = process.env.RELEASE_WORK ?? '';
const PREVIOUS = process.env.RELEASE_PREVIOUS_VERSION ?? '';
/** This build re-versioned (scripts/test-release.sh): the update from this release to the next one. */
const REHEARSAL = process.env.RELEASE_REHEARSAL_VERSION ?? '';
/** releases.json storesWebhookMemory of the previous release (false for 0.1.0). */
const PREVIOUS_STORES_MEMORY = process.env.RELEASE_PREVIOUS_STORES_MEMORY !== 'false';
/** The phases in which the previous release's Webhook Trigger started messages (before the new code took over). */
const PREVIOUS_CODE_PHASES = ['before the update', 'during the update'];
const NEXT = process.env.RELEASE_NEXT_VERSION ?? '';
const SECRET = 'release-Secret-4b1c';
const TRIGGERS = {
	id: 'bsReleaseTriggers',
	webhookId: 'bs-release-triggers',
	phoneNumberId: NUMBER,
	secret: SECRET,
	withPolling: true,
};
const SEND_PATH = 'bs-release-send-template';
const OUR_TYPES = ['botSailor', 'botSailorTrigger', 'botSailorWebhookTrigger'].map(
	(name) => `${PACKAGE_NAME}.${name}`,
);

const log = (text: string) => process.stderr.write(`test:release: ${text}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function check(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(`test:release: FAILED: ${message}`);
	log(`ok: ${message}`);
}

/** sha256 over the sorted relative paths and contents of every file under `dir`. */
function treeHash(dir: string): string {
	const files: string[] = [];
	const walk = (at: string) => {
		for (const name of readdirSync(at)) {
			const path = join(at, name);
			if (statSync(path).isDirectory()) walk(path);
			else files.push(path);
		}
	};
	walk(dir);
	const hash = createHash('sha256');
	for (const file of files.sort()) {
		hash.update(relative(dir, file)).update('\0').update(readFileSync(file)).update('\0');
	}
	return hash.digest('hex');
}

/** The hash of a tarball's dist/ (what n8n loads), unpacked into the work folder. */
function tarballDistHash(tarball: string): string {
	const into = join(WORK, `unpacked-${tarball.replace(/\W/g, '_')}`);
	mkdirSync(into, { recursive: true });
	execFileSync('tar', ['-xzf', join(WORK, tarball), '-C', into]);
	return treeHash(join(into, 'package', 'dist'));
}

/** Tarball downloads of our package that the local registry served (its request log). */
/**
 * The package's tarballs the throw-away registry served, in order: one entry per answered GET (Verdaccio
 * logs a request when it arrives and again when it is answered; only the answer carries the status).
 */
function registryTarballGets(): string[] {
	return readFileSync(join(WORK, 'registry.log'), 'utf8')
		.split('\n')
		.flatMap((line) => {
			try {
				return [
					JSON.parse(line) as { request?: { method?: string; url?: string }; status?: number },
				];
			} catch {
				return [];
			}
		})
		.filter(
			(entry) =>
				entry.request?.method === 'GET' &&
				entry.status === 200 &&
				entry.request.url?.includes(`/${PACKAGE_NAME}/-/${PACKAGE_NAME}-`),
		)
		.map(
			(entry) =>
				/-(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)\.tgz$/.exec(entry.request?.url ?? '')?.[1] ?? '?',
		);
}

interface InstalledPackage {
	packageName: string;
	installedVersion: string;
	installedNodes: Array<{ type: string }>;
}

let n8n: N8nInstance;
let server: Server | undefined;
let session: Session;
let sim: Simulator;

function installedDir(): string {
	return join(n8n.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
}

/** What n8n installed is the tarball published to the local registry: version and dist/ content. */
function checkInstalled(version: string, tarball: string, via: string) {
	const installed = JSON.parse(readFileSync(join(installedDir(), 'package.json'), 'utf8')) as {
		version: string;
	};
	check(installed.version === version, `${via}: n8n installed version ${version}`);
	const expected = tarballDistHash(tarball);
	check(
		treeHash(join(installedDir(), 'dist')) === expected,
		`${via}: the installed dist/ is the ${tarball} published to the local registry (sha256 ${expected.slice(0, 16)}…)`,
	);
}

async function nodeTypes(): Promise<string[]> {
	const types = await session.get<Array<{ name: string }>>('/types/nodes.json');
	return types.map((type) => type.name);
}

/** The saved Send Template workflow: n8n's Webhook → BotSailor Send Template, answering with its output. */
function sendTemplateWorkflow() {
	const credentials = { botSailorApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };
	return {
		name: 'release: saved Send Template',
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'release-send-webhook',
				name: 'Order Shipped',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: SEND_PATH,
				parameters: { httpMethod: 'POST', path: SEND_PATH, responseMode: 'lastNode', options: {} },
			},
			{
				id: 'release-send-template',
				name: 'Send Welcome Template',
				type: `${PACKAGE_NAME}.botSailor`,
				typeVersion: 1.1,
				position: [240, 0],
				credentials,
				parameters: {
					resource: 'message',
					operation: 'sendTemplate',
					phoneNumberId: { __rl: true, mode: 'id', value: NUMBER },
					phoneNumber: { __rl: true, mode: 'phone', value: '={{ $json.body.phone_number }}' },
					templateId: { __rl: true, mode: 'id', value: '900000' },
					variableSource: 'mapper',
					templateVariables: {
						mappingMode: 'defineBelow',
						value: {
							'templateVariable-first_name-1': '={{ $json.body.first_name }}',
							'templateVariable-discount-2': '10%',
						},
						matchingColumns: [],
						schema: [
							{
								id: 'templateVariable-first_name-1',
								displayName: 'Body {{1}} (first_name)',
								required: true,
								defaultMatch: false,
								display: true,
								type: 'string',
								canBeUsedToMatch: false,
							},
							{
								id: 'templateVariable-discount-2',
								displayName: 'Body {{2}} (discount)',
								required: true,
								defaultMatch: false,
								display: true,
								type: 'string',
								canBeUsedToMatch: false,
							},
						],
					},
					additionalFields: {},
				},
			},
		],
		connections: {
			'Order Shipped': { main: [[{ node: 'Send Welcome Template', type: 'main', index: 0 }]] },
		},
	};
}

/** Runs the saved Send Template once; its output without the values that differ per send. */
async function runSendTemplate(): Promise<Record<string, unknown>> {
	// 404 until n8n has registered the production webhook after activation (nothing ran): ask again.
	const deadline = Date.now() + 120_000;
	let response: Response;
	for (;;) {
		response = await fetch(`${n8n.url}/webhook/${SEND_PATH}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ phone_number: AVA, first_name: 'Ava' }),
		});
		if (response.status !== 404 || Date.now() > deadline) break;
		await response.body?.cancel();
		await sleep(500);
	}
	const text = await response.text();
	check(response.ok, `the saved Send Template ran (HTTP ${response.status})`);
	const output = JSON.parse(text) as Record<string, unknown>;
	check(typeof output.wa_message_id === 'string', 'Send Template output a wa_message_id');
	const stable = { ...output };
	for (const key of Object.keys(stable))
		if (/(^|_)(id|at|time|timestamp)$/.test(key)) delete stable[key];
	return stable;
}

async function credentialTest(): Promise<string> {
	const result = await session.request<{ status: string; message: string }>(
		'POST',
		'/credentials/test',
		{
			credentials: {
				id: CREDENTIAL_ID,
				name: CREDENTIAL_NAME,
				type: 'botSailorApi',
				data: { apiForm: 'current', baseUrl: sim.url, apiToken: sim.token },
			},
		},
	);
	return result.status;
}

interface Written {
	id: string;
	phase: string;
}

/** How many messages each phase holds, as text for the report. */
function byPhase(list: Written[]): string {
	const counts = list.reduce<Record<string, number>>((all, message) => {
		all[message.phase] = (all[message.phase] ?? 0) + 1;
		return all;
	}, {});
	return Object.entries(counts)
		.map(([name, count]) => `${count} ${name}`)
		.join(', ');
}

let customerIndex = 0;

/** Customers writing every 500 ms, each message tagged with the phase it was written in, until stop(). */
function startCustomers(firstPhase: string) {
	const written: Written[] = [];
	const state = { phase: firstPhase, writing: true, errors: 0 };
	const writer = (async () => {
		while (state.writing) {
			const index = customerIndex++;
			const phase = state.phase;
			const response = await fetch(`${sim.url}/__control/message`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					phone_number_id: NUMBER,
					phone_number: `1555020${String(index % 1000).padStart(4, '0')}`,
					text: `release message ${index} (${phase})`,
				}),
			}).catch(() => undefined);
			if (response?.ok) {
				const { result } = (await response.json()) as { result: { wa_message_id?: unknown } };
				if (typeof result.wa_message_id === 'string')
					written.push({ id: result.wa_message_id, phase });
				else state.errors++;
			} else state.errors++;
			await sleep(500);
		}
	})();
	return {
		set phase(value: string) {
			state.phase = value;
		},
		get phase() {
			return state.phase;
		},
		async stop(): Promise<Written[]> {
			state.writing = false;
			await writer;
			check(state.errors === 0, 'every customer message was written to the simulator');
			return written;
		},
	};
}

/**
 * Waits until every written message started an execution (the poll runs every minute: up to two for a
 * late one), then one more interval, since a duplicate would come from a later poll; counts them.
 */
async function settle(workflowId: string, written: Written[]) {
	log(
		`${written.length} messages written; waiting for the next polls (every minute) to catch any the webhook missed`,
	);
	const deadline = Date.now() + 150_000;
	let counts = await startedCounts(workflowId);
	const seen = (id: string) => counts.has(id) || crashedWith.has(id);
	while (written.some((message) => !seen(message.id)) && Date.now() < deadline) {
		await sleep(5000);
		counts = await startedCounts(workflowId);
	}
	await sleep(65_000);
	counts = await startedCounts(workflowId);
	const lost = written.filter((message) => !seen(message.id));
	// A crashed execution never ran (below): a message held in one and started by the poll too ran once.
	const twice = written.filter((message) => (counts.get(message.id) ?? 0) > 1);
	const foreign = [...counts.keys()].filter((id) => !written.some((message) => message.id === id));
	log(`messages written: ${byPhase(written)}`);
	const statuses = (await allExecutions(workflowId)).reduce<Record<string, number>>((all, run) => {
		all[run.status] = (all[run.status] ?? 0) + 1;
		return all;
	}, {});
	log(`executions by status: ${JSON.stringify(statuses)}`);
	log(
		`started by the poll (the webhook missed them): ${byPhase(written.filter((message) => triggerOf.get(message.id) === 'poll')) || 'none'}`,
	);
	const held = written.filter((message) => crashedWith.has(message.id));
	if (held.length) {
		const heldOnly = held.filter((message) => !counts.has(message.id));
		log(
			`held in an execution n8n marked crashed as it stopped: ${byPhase(held)}; of them ran in no other execution (retry from the list): ${byPhase(heldOnly) || 'none'}`,
		);
	}
	if (lost.length) {
		log(`lost: ${byPhase(lost)}`);
		// What n8n answered the platform for each lost message: tells a refused webhook from a run n8n dropped.
		for (const message of lost) {
			const answers = sim.state.webhooks.deliveries
				.filter((delivery) => JSON.stringify(delivery.body).includes(message.id))
				.map((delivery) =>
					delivery.error
						? `error ${delivery.error}`
						: `HTTP ${delivery.status} ${String(delivery.answer ?? '').slice(0, 120)}`,
				);
			log(`  ${message.id} (${message.phase}): ${answers.join('; ') || 'no webhook POST'}`);
		}
	}
	if (twice.length) log(`twice: ${byPhase(twice)}`);
	return { counts, lost, twice, foreign };
}

async function startN8n(): Promise<void> {
	// A restart on a busy 2-core machine can take minutes: n8n's own readiness is the limit.
	server = await start(n8n, 300_000);
	session = new Session(n8n.url);
	await session.setupOwner();
}

/** Every execution of a workflow: n8n 2.41 pages its list with a cursor (`nextCursor`), 100 at most. */
async function allExecutions(workflowId: string): Promise<Array<{ id: string; status: string }>> {
	const all: Array<{ id: string; status: string }> = [];
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	let cursor: string | undefined;
	for (;;) {
		const page = await session.request<{
			results: Array<{ id: string; status: string }>;
			nextCursor?: string | null;
		}>(
			'GET',
			`/executions?filter=${filter}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
		);
		all.push(...page.results);
		if (!page.nextCursor || page.results.length === 0) return all;
		cursor = page.nextCursor;
	}
}

/** The message ids each finished execution started with (read once per execution: they do not change). */
const startedBy = new Map<string, string[]>();
/** Which trigger started each message id (the Webhook Trigger, or the poll catching one the webhook missed). */
const triggerOf = new Map<string, string>();

/**
 * Message ids held by an execution n8n marked `crashed`: n8n stops waiting for executions still `new` when it
 * shuts down (ActiveExecutions.shutdown), so a message whose run was created in that moment is kept in the
 * execution, not run; the user retries it from the executions list unless the poll started it again (docs/updating.md).
 * Not lost: counted.
 */
const crashedWith = new Set<string>();
/** The executions n8n marked crashed that hold messages (they never ran). */
const heldRuns = new Set<string>();

/** A crashed execution's trigger items, from the run data or, if it never ran, from the stack n8n saved. */
function pendingTriggerItems(
	run: Awaited<ReturnType<typeof runOf>>,
): ReturnType<typeof triggerItems> | undefined {
	// n8n's recovery rebuilds a crashed run's node list from its event log, often without the items: then
	// the stack it saved holds them.
	const ran = Object.keys(run.data.resultData?.runData ?? {}).length
		? triggerItems(run)
		: undefined;
	if (ran?.items.length) return ran;
	for (const entry of run.data.executionData?.nodeExecutionStack ?? []) {
		if (entry.node.name !== WEBHOOK_NODE && entry.node.name !== POLL_NODE) continue;
		const items = (entry.data.main[0] ?? []).map((item) => item.json);
		if (items.length) return { trigger: entry.node.name, items };
	}
	return undefined;
}

/**
 * How many executions each message id ran in, over the workflow's finished executions; the messages of a crashed
 * execution (which never ran) go to `crashedWith` instead.
 */
async function startedCounts(workflowId: string): Promise<Map<string, number>> {
	const counts = new Map<string, number>();
	for (const execution of await allExecutions(workflowId)) {
		if (execution.status === 'running' || execution.status === 'new') continue;
		let ids = startedBy.get(execution.id);
		if (!ids) {
			const run = await runOf(n8n, session, execution.id);
			const held = run.status === 'crashed' ? pendingTriggerItems(run) : undefined;
			if (run.status !== 'success' && !held)
				throw new Error(`test:release: FAILED: execution ${execution.id} ended ${run.status}`);
			const { trigger, items } = held ?? triggerItems(run);
			ids = items.map((item) => String(item.wa_message_id));
			for (const id of ids) triggerOf.set(id, trigger === POLL_NODE ? 'poll' : 'webhook');
			if (held) {
				for (const id of ids) crashedWith.add(id);
				heldRuns.add(execution.id);
			}
			startedBy.set(execution.id, ids);
		}
		if (heldRuns.has(execution.id)) continue;
		for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
	}
	return counts;
}

async function main() {
	const scriptStarted = Date.now();
	check(WORK && PREVIOUS && NEXT, 'run by scripts/test-release.sh (RELEASE_* set)');
	const paths = provision();
	sim = await startSimulator({ host: '127.0.0.1' });
	n8n = instance(paths, join(WORK, 'n8n'), await findFreePortPair(), {
		// n8n's npm (a child of n8n) trusts the throw-away CA and caches into the work folder only.
		NODE_EXTRA_CA_CERTS: join(WORK, 'tls', 'ca.pem'),
		npm_config_cache: join(WORK, 'n8n-npm-cache'),
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_LOG_LEVEL: 'info',
	});
	await importCredential(n8n, { baseUrl: sim.url, apiToken: sim.token });
	await startN8n();
	try {
		// --- 1. install the previous release by name -----------------------------------------------------
		check(
			!(await nodeTypes()).some((name) => OUR_TYPES.includes(name)),
			'no BotSailor node before installing',
		);
		let at = Date.now();
		const installed = await session.request<InstalledPackage>('POST', '/community-packages', {
			name: PACKAGE_NAME,
			version: PREVIOUS,
		});
		const installMs = Date.now() - at;
		check(
			installed.installedVersion === PREVIOUS,
			`POST /rest/community-packages installed ${PREVIOUS}`,
		);
		checkInstalled(PREVIOUS, 'previous.tgz', 'install');
		const types = await nodeTypes();
		check(
			OUR_TYPES.every((type) => types.includes(type)),
			`n8n lists ${OUR_TYPES.join(', ')}`,
		);

		// --- 2. live work built with the previous release --------------------------------------------------
		const triggers = await session.request<{ id: string }>('POST', '/workflows', {
			...triggerWorkflow(TRIGGERS),
			id: undefined,
			name: 'release: Webhook Trigger + New Message poll',
		});
		const send = await session.request<{ id: string }>(
			'POST',
			'/workflows',
			sendTemplateWorkflow(),
		);
		await activateWorkflow(session, triggers.id);
		await activateWorkflow(session, send.id);
		await waitForProductionWebhook(n8n, TRIGGERS.webhookId);
		sim.state.webhooks.configure(NUMBER, {
			urls: { incoming_message: productionUrl(n8n, TRIGGERS.webhookId, SECRET) },
		});
		const savedBefore = await session.request<{
			nodes: Array<{ name: string; parameters: unknown }>;
		}>('GET', `/workflows/${send.id}`);
		const triggersBefore = await session.request<{
			nodes: Array<{ name: string; parameters: unknown }>;
		}>('GET', `/workflows/${triggers.id}`);
		const sendBefore = await runSendTemplate();
		check((await credentialTest()) === 'OK', `the credential test passes on ${PREVIOUS}`);

		// Customers write every 500 ms from now until after the update and a restart.
		const customers = startCustomers('before the update');
		await sleep(3000);

		// --- 3. update in place while customers write ---------------------------------------------------------
		customers.phase = 'during the update';
		at = Date.now();
		const updated = await session.request<InstalledPackage>('PATCH', '/community-packages', {
			name: PACKAGE_NAME,
			version: NEXT,
		});
		const updateMs = Date.now() - at;
		check(updated.installedVersion === NEXT, `PATCH /rest/community-packages updated to ${NEXT}`);
		checkInstalled(NEXT, 'next.tgz', 'update');
		// The content check can tell the releases apart (else it would pass for either).
		check(
			tarballDistHash('previous.tgz') !== tarballDistHash('next.tgz'),
			'the two releases differ in dist/, so the content check tells which one n8n installed',
		);
		customers.phase = 'after the update';
		await sleep(3000);
		// n8n keeps the previous release's code in memory for triggers already running: a restart loads the
		// new one everywhere (docs/updating.md). Customers keep writing while n8n is down.
		let restartMs = 0;
		if (process.env.RELEASE_SKIP_RESTART !== '1') {
			customers.phase = 'during the restart';
			at = Date.now();
			await server!.stop();
			await startN8n();
			restartMs = Date.now() - at;
		}
		customers.phase = 'after the restart';
		await waitForProductionWebhook(n8n, TRIGGERS.webhookId);
		await sleep(3000);
		const written = await customers.stop();
		const { counts, lost, twice, foreign } = await settle(triggers.id, written);
		// The figures of the update, printed before the checks so that a failing run shows them too.
		process.stdout.write(
			`\n=== test:release: the update (n8n ${paths.n8nVersion}) ===\ninstall ${PREVIOUS} by name: ${(installMs / 1000).toFixed(1)} s\nupdate ${PREVIOUS} → ${NEXT} in place: ${(updateMs / 1000).toFixed(1)} s; restart ${(restartMs / 1000).toFixed(1)} s\ncustomer messages: ${written.length} written, ${counts.size} ran in an execution (held in crashed ones only: ${written.filter((message) => !counts.has(message.id) && !lost.includes(message)).length}), ${lost.length} lost, ${twice.length} started two or more (${byPhase(written)})\n`,
		);
		check(
			lost.length === 0,
			`no message lost across the update and the restart (${written.length} written)`,
		);
		if (PREVIOUS_STORES_MEMORY) check(twice.length === 0, 'no message started two executions');
		else {
			// The previous release kept what its webhook started only in its own process (releases.json): the
			// new code cannot know those, and the poll starts them once more. Everything else: exactly once.
			const afterTakeover = twice.filter(
				(message) => !PREVIOUS_CODE_PHASES.includes(message.phase),
			);
			check(
				afterTakeover.length === 0,
				`no message written after ${NEXT} took over started two executions (${PREVIOUS} stores no webhook memory: ${twice.length} of its ${written.filter((message) => PREVIOUS_CODE_PHASES.includes(message.phase)).length} started again once, docs/updating.md)`,
			);
			check(
				written.every((message) => (counts.get(message.id) ?? 0) <= 2),
				'no message started more than twice',
			);
		}
		check(foreign.length === 0, 'no execution for a message nobody wrote');

		// --- 4. the saved workflows afterwards ---------------------------------------------------------------
		const savedAfter = await session.request<{
			nodes: Array<{ name: string; parameters: unknown }>;
		}>('GET', `/workflows/${send.id}`);
		const triggersAfter = await session.request<{
			nodes: Array<{ name: string; parameters: unknown }>;
		}>('GET', `/workflows/${triggers.id}`);
		check(
			JSON.stringify(savedAfter.nodes) === JSON.stringify(savedBefore.nodes) &&
				JSON.stringify(triggersAfter.nodes) === JSON.stringify(triggersBefore.nodes),
			'the saved workflows are unchanged (nodes and parameters) after the update',
		);
		const sendAfter = await runSendTemplate();
		// Fields may be added (0.2.0 adds message_kind, template_category); every field 0.1.0 gave keeps its value.
		const added = Object.keys(sendAfter).filter((key) => !(key in sendBefore));
		check(
			Object.entries(sendBefore).every(
				([key, value]) => JSON.stringify(sendAfter[key]) === JSON.stringify(value),
			),
			`the saved Send Template outputs every field of ${PREVIOUS} with the same value on ${NEXT} (${Object.keys(sendBefore).join(', ')}; added: ${added.join(', ') || 'none'})`,
		);
		check((await credentialTest()) === 'OK', `the credential test passes on ${NEXT}`);

		// --- 4b. an update from this release: every message exactly once ---------------------------------------
		// The build under test, re-versioned (scripts/test-release.sh), updates it in place while customers
		// write: what a user's next update will do, now that this release stores the webhook's memory.
		const rehearsal = startCustomers(`before the update to ${REHEARSAL}`);
		await sleep(3000);
		rehearsal.phase = `during the update to ${REHEARSAL}`;
		at = Date.now();
		const rehearsed = await session.request<InstalledPackage>('PATCH', '/community-packages', {
			name: PACKAGE_NAME,
			version: REHEARSAL,
		});
		const rehearsalMs = Date.now() - at;
		check(
			rehearsed.installedVersion === REHEARSAL,
			`PATCH /rest/community-packages updated ${NEXT} to ${REHEARSAL}`,
		);
		checkInstalled(REHEARSAL, 'rehearsal.tgz', `update to ${REHEARSAL}`);
		rehearsal.phase = `after the update to ${REHEARSAL}`;
		await sleep(3000);
		const rehearsalWritten = await rehearsal.stop();
		const rehearsalCounts = await settle(triggers.id, rehearsalWritten);
		process.stdout.write(
			`\n=== test:release: the update from this release (${NEXT} → ${REHEARSAL}) ===\nupdate in place: ${(rehearsalMs / 1000).toFixed(1)} s\ncustomer messages: ${rehearsalWritten.length} written, ${rehearsalCounts.lost.length} lost, ${rehearsalCounts.twice.length} started two or more (${byPhase(rehearsalWritten)})\n`,
		);
		check(
			rehearsalCounts.lost.length === 0 && rehearsalCounts.twice.length === 0,
			`updating from ${NEXT}: every one of ${rehearsalWritten.length} messages started exactly one execution`,
		);
		check(
			rehearsalCounts.foreign.every((id) => written.some((message) => message.id === id)),
			'no execution for a message nobody wrote',
		);

		// --- 5. uninstall, reinstall ----------------------------------------------------------------------------
		await session.request('POST', `/workflows/${triggers.id}/deactivate`, {});
		await session.request('POST', `/workflows/${send.id}/deactivate`, {});
		await session.request('DELETE', `/community-packages?name=${PACKAGE_NAME}`);
		const health = await fetch(`${n8n.url}/healthz/readiness`);
		check(health.ok, 'n8n is healthy after the uninstall');
		check(
			(await session.request<InstalledPackage[]>('GET', '/community-packages')).length === 0,
			'no community package is listed after the uninstall',
		);
		check(
			!(await nodeTypes()).some((name) => OUR_TYPES.includes(name)),
			'the BotSailor nodes are gone',
		);
		at = Date.now();
		const again = await session.request<InstalledPackage>('POST', '/community-packages', {
			name: PACKAGE_NAME,
		});
		const reinstallMs = Date.now() - at;
		check(
			again.installedVersion === NEXT,
			`a reinstall by name alone installs the latest, ${NEXT}`,
		);
		checkInstalled(NEXT, 'next.tgz', 'reinstall');
		await activateWorkflow(session, send.id);
		check(
			// The reinstall is NEXT again: the same output NEXT gave before the uninstall.
			JSON.stringify(await runSendTemplate()) === JSON.stringify(sendAfter),
			`the saved Send Template runs again after the reinstall and outputs what ${NEXT} output before`,
		);

		// --- 6. where n8n fetched from ---------------------------------------------------------------------------
		const gets = registryTarballGets();
		// n8n's installer may fetch a tarball more than once per install (npm pack, then npm install): in order,
		// the previous release, the build under test, its re-versioned copy, the build under test (reinstall).
		const fetched = gets.filter((version, index) => version !== gets[index - 1]);
		check(
			JSON.stringify(fetched) === JSON.stringify([PREVIOUS, NEXT, REHEARSAL, NEXT]) &&
				gets.length >= 4,
			`the local registry served every tarball n8n installed (${gets.join(', ')}); nothing else is reachable in this namespace`,
		);

		const figures = [
			`install ${PREVIOUS} by name: ${(installMs / 1000).toFixed(1)} s`,
			`update ${PREVIOUS} → ${NEXT} in place: ${(updateMs / 1000).toFixed(1)} s; restart ${(restartMs / 1000).toFixed(1)} s`,
			`reinstall after uninstall: ${(reinstallMs / 1000).toFixed(1)} s`,
			`update ${NEXT} → ${REHEARSAL} in place: ${(rehearsalMs / 1000).toFixed(1)} s; ${rehearsalWritten.length} messages, ${rehearsalCounts.lost.length} lost, ${rehearsalCounts.twice.length} duplicated`,
			`customer messages across the update and restart: ${written.length} written, ${counts.size} started an execution, ${lost.length} lost, ${twice.length} duplicated (${byPhase(written)})`,
			`of them started by the poll, because the webhook was missed: ${byPhase(written.filter((message) => triggerOf.get(message.id) === 'poll')) || 'none'}`,
			`test body: ${Math.round((Date.now() - scriptStarted) / 1000)} s`,
		];
		process.stdout.write(
			`\n=== test:release figures (n8n ${paths.n8nVersion}) ===\n${figures.join('\n')}\n`,
		);
	} finally {
		await server?.stop();
		await sim.close();
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(
			`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
		);
		if (server)
			process.stderr.write(
				`--- n8n output (last 4000 characters) ---\n${server.output().slice(-4000)}\n`,
			);
		process.exit(1);
	},
);
