/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error -- a command-line script run with tsx (it runs npm and n8n), not node code */
/**
 * `npm run demo`: a real n8n 2.41.1 with this package installed as a community package, the example
 * workflows and a BotSailor credential imported, and an owner login ready. By default the credential
 * points at the built-in API simulator with its demo data (real clock, 24-hour window enforced, a customer's
 * phone page at <simulator>/phone; the AI receptionist published on its second number and the AI-draft approval
 * on its third, both through its model stand-in); `--base-url`/`--token` (or BOTSAILOR_BASE_URL/BOTSAILOR_API_TOKEN)
 * point it at a real account, tested first like the credential test. The n8n user folder (.cache/demo/port-<port>) is kept
 * between runs; `--reset` starts clean. Ctrl-C stops everything.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
	existsSync,
	mkdirSync,
	readFileSync,
	readdirSync,
	rmSync,
	rmdirSync,
	unlinkSync,
	writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startSimulator, type Simulator } from '../test/simulator/server';
import { restoreState, stateSaver } from '../test/simulator/persist';
import {
	DEMO_SEED,
	DRAFT_NUMBER,
	prepareDemoWorld,
	type DemoCustomer,
} from '../test/simulator/demoWorld';
import { phoneSubscribers } from '../test/simulator/phone';
import {
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	EXAMPLES_DIR,
	OWNER,
	PACKAGE_NAME,
	ROOT,
	Session,
	importCredential,
	importOpenAiCredential,
	installCommunityPackage,
	instance,
	pack,
	provision,
	start,
	cliOk,
	type N8nInstance,
	type OpenAiCredentialData,
	type Server,
} from '../test/e2e/n8n';
import {
	productionUrl,
	publish,
	triggerWorkflow,
	waitForProductionWebhook,
} from '../test/webhookTrigger/realN8n';

const say = (text: string) => process.stdout.write(`${text}\n`);
/** The step the demo is at: a failure's last line names it. */
let current = 'checking the ports and the demo folder';
const sayStep = (text: string) => {
	current = text.replace(/ \(.*$| …$/, '');
	say(text);
};

/** The demo's own Webhook Trigger workflow: the simulator posts its incoming messages to its production URL. */
const WEBHOOK_DEMO = { id: 'BotSailorDemoHook', webhookId: 'botsailor-demo' };

/**
 * The AI receptionist example (examples/ai-receptionist.json), published in the demo on the simulator's second
 * WhatsApp number: the platform posts a number's incoming messages to one URL, and the first number's URL belongs to
 * the demo workflow above, whose trigger also takes the chat answers of the order-approval example. So the first
 * number keeps its instant reply and its chat answers, and the second one shows the receptionist (its 10 s wait for
 * a burst, the model, the reply guards) without the two workflows answering the same message.
 */
const RECEPTIONIST = { id: 'bsExAiReceptionist', file: 'ai-receptionist.json' };
/**
 * The AI-draft approval example (examples/ai-draft-approval.json), published on the demo's third number (its own
 * incoming-message URL, for the same reason): a customer writes there, the manager approves the draft in the chat.
 */
const DRAFT = { id: 'bsExAiDraftApproval', file: 'ai-draft-approval.json' };
/** The OpenAI credential of the simulator's model stand-in (test/simulator/model.ts): any key works there. */
const MODEL_CREDENTIAL = { id: 'BotSailorDemoAi1', name: 'Demo model stand-in (no API key)' };

/**
 * Every demo's n8n user folder: one per editor port (`.cache/demo/port-5678`), kept between runs, so a second demo on
 * other ports never writes into the first one's folder. A lock file (the demo's pid) marks a folder in use.
 */
const DEMOS_DIR = join(ROOT, '.cache', 'demo');

/** Whether nothing listens on the port (on any address, as n8n binds), so a clash is named before minutes of work. */
async function portFree(port: number): Promise<boolean> {
	const probe = (host?: string) =>
		new Promise<boolean>((resolve) => {
			const server = createServer();
			server.once('error', () => resolve(false));
			server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
		});
	return (await probe()) && (await probe('127.0.0.1'));
}

function checkPortNumber(port: number, option: string) {
	if (!Number.isInteger(port) || port < 1 || port > 65534)
		throw new Error(`${option} must be a port number from 1 to 65534, not "${port}"`);
}

/**
 * The ports a demo binds: n8n's editor, its task runner broker (N8N_RUNNERS_BROKER_PORT, the editor port + 1: n8n's
 * default 5679 is shared by every instance, so each demo gets its own) and the simulator's. All are checked before
 * anything is touched; a clash names the port and suggests a set that is free as a whole.
 */
async function checkPorts(port: number, simulatorPort: number | undefined) {
	const wanted = [
		{ port, what: 'the n8n editor (--port)' },
		{ port: port + 1, what: "n8n's task runner broker, N8N_RUNNERS_BROKER_PORT: --port + 1" },
		...(simulatorPort === undefined
			? []
			: [{ port: simulatorPort, what: 'the API simulator (--simulator-port)' }]),
	];
	if (simulatorPort !== undefined && (simulatorPort === port || simulatorPort === port + 1))
		throw new Error(
			`--simulator-port ${simulatorPort} is one of n8n's ports (${port} and its task runner broker ${port + 1}); choose another`,
		);
	const busy = [];
	for (const entry of wanted) if (!(await portFree(entry.port))) busy.push(entry);
	if (!busy.length) return;
	let suggestion = port + 2;
	while (!((await portFree(suggestion)) && (await portFree(suggestion + 1)))) suggestion += 2;
	let simulatorSuggestion = simulatorPort;
	if (simulatorPort !== undefined)
		for (
			simulatorSuggestion = simulatorPort;
			!(await portFree(simulatorSuggestion!)) ||
			simulatorSuggestion === suggestion ||
			simulatorSuggestion === suggestion + 1;
			simulatorSuggestion!++
		);
	throw new Error(
		`${busy.map((entry) => `port ${entry.port} (${entry.what})`).join(' and ')} ${busy.length > 1 ? 'are' : 'is'} already in use, perhaps by another demo; nothing was changed. ` +
			`These ports are free: npm run demo -- --port ${suggestion}${simulatorSuggestion === undefined ? '' : ` --simulator-port ${simulatorSuggestion}`}`,
	);
}

/** Whether a process with this pid runs. */
function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** Takes the demo folder's lock (its pid file), refusing when a running demo holds it. Returns how to release it. */
function lockFolder(folder: string): () => void {
	mkdirSync(folder, { recursive: true });
	const file = join(folder, 'demo.pid');
	for (;;) {
		try {
			writeFileSync(file, String(process.pid), { flag: 'wx' });
			return () => {
				try {
					if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
					rmdirSync(folder); // only when empty: a demo that stopped before n8n leaves nothing behind
				} catch {
					/* gone already */
				}
			};
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			const pid = Number(readFileSync(file, 'utf8'));
			if (Number.isInteger(pid) && pid > 0 && alive(pid))
				throw new Error(
					`another demo (pid ${pid}) is using ${folder}; nothing was changed. Stop it first (Ctrl-C in its terminal), or start this one on other ports (npm run demo -- --port <port>)`,
				);
			rmSync(file, { force: true }); // left by a demo that did not stop cleanly
		}
	}
}

/** What the demo started, so Ctrl-C (or a failure) stops exactly that. */
const running: {
	simulator?: Simulator;
	server?: Server;
	stopping?: boolean;
	unlock?: () => void;
	/** Writes the simulator's world to the demo folder when it changed. */
	saveWorld?: () => boolean;
} = {};

/** Keeps the simulator's world in `file`: every 5 s when it changed, and when the demo stops. */
function keepWorld(simulator: Simulator, file: string) {
	running.saveWorld = stateSaver(() => simulator.state, file);
	setInterval(() => running.saveWorld?.(), 5000).unref();
}

/** Stops what runs; `last`, a failure's summary, comes after everything else the demo prints. */
async function stopAll(code: number, last?: string) {
	if (running.stopping) return;
	running.stopping = true;
	if (running.server || running.simulator) say('\nStopping n8n and the simulator …');
	await running.server?.stop();
	running.saveWorld?.();
	await running.simulator?.close();
	running.unlock?.();
	if (last) process.stderr.write(`${last}\n`);
	process.exit(code);
}

/** n8n's own last lines, for a failure. */
function lastLines(output: string, count = 30): string {
	const lines = output.trimEnd().split('\n');
	return lines.slice(-count).join('\n');
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * What the demo imports into n8n: the credential, the examples and the demo's webhook workflow, each imported again
 * only when it changed since the last run (a manifest of hashes in the demo folder; no secret in it), so later starts
 * skip n8n's CLI. The examples are upgraded in place when the package's files change; examples the user edited keep
 * their edits until then; the user's own workflows are never touched (they have other ids).
 */
async function importChanged(
	n8n: N8nInstance,
	folder: string,
	credential: { baseUrl: string; apiToken: string },
	extraWorkflows: Record<string, object>,
	model?: OpenAiCredentialData,
): Promise<{ credential: boolean; workflows: string[] }> {
	const manifestFile = join(folder, 'botsailor-demo-imported.json');
	const manifest = existsSync(manifestFile)
		? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, string>)
		: {};
	const wanted: Record<string, string> = {};
	for (const name of readdirSync(EXAMPLES_DIR)
		.filter((entry) => entry.endsWith('.json'))
		.sort())
		wanted[name] = readFileSync(join(EXAMPLES_DIR, name), 'utf8');
	for (const [name, workflow] of Object.entries(extraWorkflows))
		wanted[name] = JSON.stringify(workflow);
	const credentialHash = sha256(JSON.stringify(credential));
	const credentialChanged = manifest['credential'] !== credentialHash;
	if (credentialChanged) {
		await importCredential(n8n, credential);
		manifest['credential'] = credentialHash;
		writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
	}
	const modelHash = model && sha256(JSON.stringify(model));
	if (model && manifest['model-credential'] !== modelHash) {
		await importOpenAiCredential(n8n, MODEL_CREDENTIAL.id, MODEL_CREDENTIAL.name, model);
		manifest['model-credential'] = modelHash!;
		writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
	}
	const changed = Object.keys(wanted).filter((name) => manifest[name] !== sha256(wanted[name]));
	if (changed.length) {
		const staging = join(folder, 'workflows-to-import');
		rmSync(staging, { recursive: true, force: true });
		mkdirSync(staging, { recursive: true });
		for (const name of changed) writeFileSync(join(staging, name), wanted[name]);
		await cliOk(n8n, ['import:workflow', '--separate', `--input=${staging}`]);
		rmSync(staging, { recursive: true, force: true });
		for (const name of changed) manifest[name] = sha256(wanted[name]);
		writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
	}
	return { credential: credentialChanged, workflows: changed };
}

/**
 * The demo's webhook workflow: a customer's message → a reply from n8n (the phone page shows it). Its trigger is set
 * up as the docs ask for Send and Wait answers in the chat (a Secret, Send and Wait Answers → Take Them), so a tap on
 * a question's button resumes the waiting execution instead of getting a reply.
 */
function replyWorkflow(phoneNumberId: string, secret: string) {
	const base = triggerWorkflow({ ...WEBHOOK_DEMO, phoneNumberId, secret });
	const trigger = {
		...base.nodes[0],
		typeVersion: 1.1,
		parameters: { ...base.nodes[0].parameters, sendAndWaitAnswers: 'take' },
	};
	return {
		...base,
		name: 'Demo: BotSailor Webhook Trigger (the simulator posts here)',
		nodes: [
			trigger,
			{
				id: `${WEBHOOK_DEMO.id}-reply`,
				name: 'Reply',
				type: `${PACKAGE_NAME}.botSailor`,
				typeVersion: 1,
				position: [240, 0],
				parameters: {
					resource: 'message',
					operation: 'sendText',
					phoneNumberId: { __rl: true, mode: 'id', value: '={{ $json.phone_number_id }}' },
					phoneNumber: '={{ $json.phone_number }}',
					message:
						"=Hi {{ $json.subscriber_name.split(' ')[0] }}, thanks for your message “{{ $json.text }}”. This reply comes from the n8n workflow “Demo: BotSailor Webhook Trigger”.",
				},
				credentials: { botSailorApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
			},
		],
		connections: { [trigger.name]: { main: [[{ node: 'Reply', type: 'main', index: 0 }]] } },
	};
}

/** A real account: the credential test (the one n8n runs from the credential's panel), before n8n starts. */
async function testAccount(baseUrl: string, apiToken: string): Promise<void> {
	const [{ CredentialTestContext }, { testBotSailorApi }] = await Promise.all([
		import('n8n-core'),
		import('../nodes/shared/http/credentialTest'),
	]);
	const result = await testBotSailorApi.call(new CredentialTestContext(), {
		id: 'demo',
		name: CREDENTIAL_NAME,
		type: 'botSailorApi',
		data: { baseUrl, apiToken, apiForm: 'current' },
	});
	if (result.status !== 'OK')
		throw new Error(
			`the credential test failed for --base-url ${baseUrl}: ${result.message} (nothing was started)`,
		);
}

/** The example nodes that name the simulator's WhatsApp number, which a real account does not have. */
function nodesNeedingANumber(simulatorNumber: string): string[] {
	const found: string[] = [];
	for (const name of readdirSync(EXAMPLES_DIR).filter((entry) => entry.endsWith('.json'))) {
		const workflow = JSON.parse(readFileSync(join(EXAMPLES_DIR, name), 'utf8')) as {
			name: string;
			nodes: Array<{ name: string; parameters: unknown }>;
		};
		for (const node of workflow.nodes)
			if (JSON.stringify(node.parameters).includes(simulatorNumber))
				found.push(`"${workflow.name}" → ${node.name}`);
	}
	return found;
}

/** The demo trigger's Secret: made once per demo folder (kept in it), so the imported workflow stays the same. */
function demoSecret(userFolder: string): string {
	const file = join(userFolder, 'botsailor-demo-secret');
	if (!existsSync(file)) {
		mkdirSync(userFolder, { recursive: true });
		writeFileSync(file, randomBytes(18).toString('base64url'), { mode: 0o600 });
	}
	return readFileSync(file, 'utf8').trim();
}

/**
 * An AI example as the demo imports it: moved to another of the simulator's WhatsApp numbers (the examples' number,
 * label included, replaced in every node) and its OpenAI Chat Model given the stand-in's credential.
 */
function onDemoNumber(file: string, bot: { phone_number_id: string; label: string }) {
	const shipped = readFileSync(join(EXAMPLES_DIR, file), 'utf8');
	const workflow = JSON.parse(
		shipped
			.replaceAll('+1 555 010 2000 (Sunrise Bakery)', bot.label)
			.replaceAll('104382179270221', bot.phone_number_id),
	) as { nodes: Array<{ type: string; credentials?: object }> };
	for (const node of workflow.nodes)
		if (node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi')
			node.credentials = { openAiApi: MODEL_CREDENTIAL };
	return workflow;
}

/**
 * What a user does by hand on the platform (Bot Settings → Webhook), from a workflow as saved in n8n (not as
 * imported): its Webhook Trigger's number, production URL and Secret, so a Secret the user changed holds after a
 * restart. Publishes the workflow; returns the URL, or undefined when the workflow or its trigger is gone or disabled.
 */
async function pointSimulatorAt(
	session: Session,
	n8n: N8nInstance,
	simulator: Simulator,
	workflowId: string,
): Promise<string | undefined> {
	const saved = await session
		.request<{
			nodes: Array<{
				type: string;
				webhookId?: string;
				disabled?: boolean;
				parameters: Record<string, unknown>;
			}>;
		}>('GET', `/workflows/${workflowId}`)
		.catch(() => undefined);
	const trigger = saved?.nodes.find(
		(node) => node.type === `${PACKAGE_NAME}.botSailorWebhookTrigger` && !node.disabled,
	);
	if (!trigger?.webhookId) return undefined;
	await publish(session, workflowId);
	await waitForProductionWebhook(n8n, trigger.webhookId);
	const numberId = String(
		(trigger.parameters.phoneNumberId as { value?: unknown } | undefined)?.value ??
			simulator.state.bots[0].phone_number_id,
	);
	const secret = typeof trigger.parameters.secret === 'string' ? trigger.parameters.secret : '';
	const url = productionUrl(n8n, trigger.webhookId, secret || undefined);
	simulator.state.webhooks.configure(numberId, { urls: { incoming_message: url } });
	return url;
}

function customerLine(customer: DemoCustomer): string {
	const when = !Number.isFinite(customer.hoursAgo)
		? 'never wrote'
		: customer.hoursAgo < 1
			? `wrote ${Math.round(customer.hoursAgo * 60)} minutes ago`
			: `wrote ${customer.hoursAgo} hours ago`;
	return `${customer.name} (${customer.phone_number}, ${when})`;
}

async function main() {
	const { values } = parseArgs({
		options: {
			'base-url': { type: 'string', default: process.env.BOTSAILOR_BASE_URL },
			token: { type: 'string', default: process.env.BOTSAILOR_API_TOKEN },
			port: { type: 'string', default: process.env.N8N_PORT ?? '5678' },
			'simulator-port': { type: 'string', default: process.env.SIMULATOR_PORT ?? '5055' },
			'no-build': { type: 'boolean', default: false },
			reset: { type: 'boolean', default: false },
		},
	});
	const real = Boolean(values['base-url']);
	if (real && !values.token) throw new Error('--base-url needs --token (or BOTSAILOR_API_TOKEN)');
	const port = Number(values.port);
	const simulatorPort = real ? undefined : Number(values['simulator-port']);
	checkPortNumber(port, '--port');
	if (simulatorPort !== undefined) checkPortNumber(simulatorPort, '--simulator-port');

	// Nothing is touched before these checks: the ports, then the folder's lock.
	await checkPorts(port, simulatorPort);
	const folder = join(DEMOS_DIR, `port-${port}`);
	running.unlock = lockFolder(folder);
	process.on('SIGINT', () => void stopAll(0));
	process.on('SIGTERM', () => void stopAll(0));
	if (real) {
		current = 'testing the account';
		say(`Testing the account at ${values['base-url']} (the credential test) …`);
		await testAccount(values['base-url']!, values.token!);
		say('  Connection successful!');
	}

	const started = Date.now();
	sayStep(
		'1/6 Provisioning n8n 2.41.1 on Node 24 (the first run installs it: about 3 GB, 3 to 20 minutes, with progress every 5 s; later runs: a second) …',
	);
	const paths = provision();
	if (!values['no-build']) {
		sayStep('2/6 Building the package …');
		try {
			// Only when the sources changed since the last build (scripts/build-if-stale.sh): later starts are quicker.
			execFileSync('bash', [join(ROOT, 'scripts', 'build-if-stale.sh')], {
				cwd: ROOT,
				stdio: 'pipe',
				encoding: 'utf8',
			});
		} catch (error) {
			throw new Error(
				`npm run build failed (its output is above); run npm run build to see it again\n${(error as { stderr?: string }).stderr ?? ''}`,
			);
		}
	}

	let credential: { baseUrl: string; apiToken: string };
	let customers: ReturnType<typeof prepareDemoWorld> | undefined;
	if (real) {
		credential = { baseUrl: values['base-url']!, apiToken: values.token! };
		sayStep(`3/6 Using the real account at ${credential.baseUrl}`);
	} else {
		current = '3/6 Starting the API simulator';
		// The simulator's world is kept beside n8n's folder, so conversations survive a restart as executions do.
		const stateFile = join(folder, 'simulator-state.json');
		if (values.reset && existsSync(stateFile)) {
			rmSync(stateFile);
			say(`--reset: deleted the simulator's conversations ${stateFile}`);
		}
		running.simulator = await startSimulator({ port: simulatorPort, seed: DEMO_SEED });
		const keptWorld = restoreState(running.simulator.state, stateFile);
		customers = prepareDemoWorld(running.simulator.state, { kept: keptWorld });
		keepWorld(running.simulator, stateFile);
		credential = { baseUrl: running.simulator.url, apiToken: running.simulator.token };
		say(
			`3/6 API simulator with demo data at ${running.simulator.url} (real clock, 24-hour window enforced; ${keptWorld ? `the conversations of the last run, from ${stateFile}` : 'a fresh world'})`,
		);
	}

	// The user folder is kept between runs (the user's workflows, executions and settings); --reset starts clean.
	const userFolder = join(folder, 'n8n');
	if (values.reset) {
		if (!existsSync(userFolder))
			say(`--reset: no earlier demo folder at ${userFolder}: starting clean`);
	}
	if (values.reset && existsSync(userFolder)) {
		rmSync(userFolder, { recursive: true, force: true });
		say(
			`--reset: deleted the demo's n8n folder ${userFolder} (workflows, executions, credentials): starting clean`,
		);
	}
	const kept = existsSync(join(userFolder, '.n8n', 'database.sqlite'));
	if (!kept) rmSync(join(userFolder, 'botsailor-demo-imported.json'), { force: true });
	const n8n = instance(paths, userFolder, port);
	sayStep('4/6 Packing the package and installing it as a community package …');
	installCommunityPackage(n8n, pack(join(folder, 'pack')));
	sayStep(
		kept
			? '5/6 Updating the credential and the examples that changed (your workflows are kept) …'
			: '5/6 Importing the credential and the example workflows …',
	);
	const simulated = running.simulator;
	const aiLine = simulated?.state.bots[1];
	const draftLine = simulated?.state.bot(DRAFT_NUMBER.phone_number_id);
	const labelOf = (bot: { display_phone_number: string; whatsapp_business_name: string }) =>
		`${bot.display_phone_number} (${bot.whatsapp_business_name})`;
	const imported = await importChanged(
		n8n,
		userFolder,
		credential,
		simulated && aiLine && draftLine
			? {
					'demo-webhook.json': replyWorkflow(
						simulated.state.bots[0].phone_number_id,
						demoSecret(userFolder),
					),
					[RECEPTIONIST.file]: onDemoNumber(RECEPTIONIST.file, {
						phone_number_id: aiLine.phone_number_id,
						label: labelOf(aiLine),
					}),
					[DRAFT.file]: onDemoNumber(DRAFT.file, {
						phone_number_id: draftLine.phone_number_id,
						label: labelOf(draftLine),
					}),
				}
			: {},
		// The stand-in needs no key; n8n's OpenAI client refuses an empty one.
		simulated && { url: `${simulated.url}/openai/v1`, apiKey: 'no-key-needed' },
	);
	sayStep('6/6 Starting n8n …');
	let server: Server;
	try {
		server = await start(n8n, 180_000, process.env.N8N_LOG_LEVEL !== undefined);
	} catch (error) {
		const [first, ...rest] = (error as Error).message.split('\n');
		throw new Error(`${first} (n8n's last lines are above)\n${lastLines(rest.join('\n'))}`);
	}
	running.server = server;
	const session = new Session(n8n.url);
	await session.setupOwner();
	// The simulator posts incoming messages to the published demo workflow, so the Webhook Trigger answers at once,
	// the second number's to the published AI receptionist and the third's to the published AI-draft approval.
	const hookUrl = simulated && (await pointSimulatorAt(session, n8n, simulated, WEBHOOK_DEMO.id));
	const receptionistUrl =
		simulated && (await pointSimulatorAt(session, n8n, simulated, RECEPTIONIST.id));
	const draftUrl = simulated && (await pointSimulatorAt(session, n8n, simulated, DRAFT.id));

	say(`
n8n is ready (${Math.round((Date.now() - started) / 1000)} s).
  Editor:    ${n8n.url}
  Login:     ${OWNER.email} / ${OWNER.password}
  Workflows: the examples/ folder (${kept ? (imported.workflows.length ? `updated: ${imported.workflows.join(', ')}` : 'unchanged') : 'imported'}), with the credential "${CREDENTIAL_NAME}" (${real ? credential.baseUrl : 'the simulator'})
  Kept:      ${userFolder} keeps your workflows between runs (npm run demo -- --reset starts clean)`);
	if (real) {
		const nodes = nodesNeedingANumber('104382179270221');
		if (nodes.length)
			say(
				`  Pick your WhatsApp number (the examples name the simulator's) in: ${nodes.join('; ')}`,
			);
	}
	const simulator = running.simulator;
	if (simulator && customers) {
		const numberId = simulator.state.bots[0].phone_number_id;
		const aiNumber = simulator.state.bots[1];
		// Two of its customers the phone page lists (its 40 most recent conversations).
		const aiSubscribers = phoneSubscribers(simulator.state, { limit: 40 })
			.filter((entry) => entry.phone_number_id === aiNumber.phone_number_id)
			.slice(0, 2);
		const aiPhone = aiSubscribers[0]?.phone_number ?? '<their number>';
		const { manager, customers: draftPeople } = customers.draft;
		const draftCustomers = draftPeople
			.map((entry) => `${entry.name} (${entry.phone_number})`)
			.join(' or ');
		// The question is free-form: in a world kept for a day, the manager's window may have closed.
		const windowNote = manager.insideWindow
			? ''
			: `\n  ${manager.name} last wrote to that number ${manager.hoursAgo} hours ago, so WhatsApp's 24-hour window is closed and the question\n  cannot reach them: write anything as ${manager.name} on the phone page first.`;
		const aiCustomers = aiSubscribers
			.map((entry) => `${entry.name} (${entry.phone_number})`)
			.join(', ');
		say(`  Customer's phone: ${simulator.url}/phone  (write as a customer, tap buttons, see what they received)
  24-hour window (${numberId}): open for ${customers.inside.map(customerLine).join(', ')};
                  closed for ${customers.outside.map(customerLine).join(', ')} and the other customers
  Simulator: ${simulator.url} (API; the credential holds its token)
  Make a customer write from a terminal (to WhatsApp number ${numberId}):
    curl -X POST ${simulator.url}/__control/message -H 'content-type: application/json' -d '{"phone_number":"15550100001","text":"price"}'
  The simulator posts each such message at once to the published workflow "Demo: BotSailor Webhook Trigger"
  (${hookUrl ? hookUrl.replace(/\?secret=.*/, '?secret=…') : 'not found: its trigger was deleted or disabled, so the simulator posts nowhere'}), which replies; polling triggers of published workflows see it within a minute.
  AI receptionist (${aiNumber.display_phone_number}, ${aiNumber.phone_number_id}): its customers, e.g. ${aiCustomers}, are answered by the
  published example "AI receptionist" (${receptionistUrl ? 'after its 10 s wait for more messages' : 'not found: its trigger was deleted or disabled, so the simulator posts nowhere'}) through the simulator's model
  stand-in (${simulator.url}/openai/v1, credential "${MODEL_CREDENTIAL.name}": a short shop FAQ, no API key).
  A person of the team takes over (the receptionist then stays quiet):
    curl -X POST ${simulator.url}/__control/message -H 'content-type: application/json' -d '{"phone_number_id":"${aiNumber.phone_number_id}","phone_number":"${aiPhone}","sender":"agent","text":"Hi, Sam here from the shop."}'
  AI draft, a person approves (${DRAFT_NUMBER.display_phone_number}, ${DRAFT_NUMBER.phone_number_id}): on the phone page, write to that number as
  ${draftCustomers}; the published example "…an AI drafts the reply, the manager approves…"${draftUrl ? '' : ' (not found: its trigger was deleted or disabled, so the simulator posts nowhere)'}
  drafts a reply through the stand-in and asks the manager ${manager.name} (+${manager.phone_number}) in the chat: open that chat of the
  number, tap Approve, Edit (then write the corrected text) or Decline; the customer receives exactly the approved or corrected text.${windowNote}
  To try a Webhook Trigger node of your own, point the simulator at its Test or Production URL:
    curl -X POST ${simulator.url}/__control/webhooks -H 'content-type: application/json' -d '{"phone_number_id":"${numberId}","urls":{"incoming_message":"<the node's URL>"}}'
  Other events: /__control/subscriber, /__control/order, /__control/message-status, /__control/template-decision`);
	}
	say('Press Ctrl-C to stop.');
	server.child.on('exit', (code) => {
		if (running.stopping) return;
		process.stderr.write(
			`n8n exited unexpectedly (${code}); its last lines:\n${lastLines(server.output())}\n`,
		);
		running.server = undefined;
		void stopAll(1);
	});
}

// The failure's detail first, then one last line: the step, the reason, what to try (the provisioning's own summary).
main().catch((error: Error) => {
	const [first, ...detail] = error.message.split('\n');
	if (detail.length) process.stderr.write(`${detail.join('\n')}\n`);
	void stopAll(1, `demo failed at ${current}: ${first}`);
});
