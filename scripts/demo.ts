/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error -- a command-line script run with tsx (it runs npm and n8n), not node code */
/**
 * `npm run demo`: a real n8n 2.41.1 with this package installed as a community package, the example
 * workflows and a BotSailor credential imported, and an owner login ready. By default the credential
 * points at the built-in API simulator with its demo data; `--base-url`/`--token` (or
 * BOTSAILOR_BASE_URL/BOTSAILOR_API_TOKEN) point it at a real account. Ctrl-C stops everything.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startSimulator, type Simulator } from '../test/simulator/server';
import {
	OWNER,
	ROOT,
	Session,
	importCredential,
	importWorkflows,
	installCommunityPackage,
	instance,
	pack,
	provision,
	start,
	type Server,
} from '../test/e2e/n8n';
import {
	importTriggerWorkflows,
	productionUrl,
	publish,
	triggerWorkflow,
	waitForProductionWebhook,
} from '../test/webhookTrigger/realN8n';

const say = (text: string) => process.stdout.write(`${text}\n`);

/** The demo's own Webhook Trigger workflow: the simulator posts its incoming messages to its production URL. */
const WEBHOOK_DEMO = { id: 'BotSailorDemoHook', webhookId: 'botsailor-demo' };

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

async function checkPort(port: number, what: string, option: string, env: string) {
	if (!Number.isInteger(port) || port < 1 || port > 65535)
		throw new Error(`${option} must be a port number from 1 to 65535, not "${port}"`);
	if (!(await portFree(port)))
		throw new Error(
			`port ${port} (${what}) is already in use: stop what uses it, or choose another port with ${option} <port> (npm run demo -- ${option} ${port + 1}) or ${env}=<port>`,
		);
}

/** What the demo started, so Ctrl-C (or a failure) stops exactly that. */
const running: { simulator?: Simulator; server?: Server; stopping?: boolean } = {};

async function stopAll(code: number) {
	if (running.stopping) return;
	running.stopping = true;
	say('\nStopping n8n and the simulator …');
	await running.server?.stop();
	await running.simulator?.close();
	process.exit(code);
}

async function main() {
	const { values } = parseArgs({
		options: {
			'base-url': { type: 'string', default: process.env.BOTSAILOR_BASE_URL },
			token: { type: 'string', default: process.env.BOTSAILOR_API_TOKEN },
			port: { type: 'string', default: process.env.N8N_PORT ?? '5678' },
			'simulator-port': { type: 'string', default: process.env.SIMULATOR_PORT ?? '5055' },
			'no-build': { type: 'boolean', default: false },
		},
	});
	const real = Boolean(values['base-url']);
	if (real && !values.token) throw new Error('--base-url needs --token (or BOTSAILOR_API_TOKEN)');

	await checkPort(Number(values.port), 'n8n', '--port', 'N8N_PORT');
	if (!real)
		await checkPort(
			Number(values['simulator-port']),
			'the API simulator',
			'--simulator-port',
			'SIMULATOR_PORT',
		);

	const started = Date.now();
	say(
		'1/6 Provisioning n8n 2.41.1 on Node 24 (the first run installs it into .cache/: about 3 GB, 3 to 7 minutes, with progress every 5 s; later runs: a second) …',
	);
	const paths = provision();
	if (!values['no-build']) {
		say('2/6 Building the package …');
		try {
			execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe', encoding: 'utf8' });
		} catch (error) {
			throw new Error(`npm run build failed:\n${(error as { stdout?: string }).stdout ?? ''}`);
		}
	}

	process.on('SIGINT', () => void stopAll(0));
	process.on('SIGTERM', () => void stopAll(0));

	let credential: { baseUrl: string; apiToken: string };
	if (real) {
		credential = { baseUrl: values['base-url']!, apiToken: values.token! };
		say(`3/6 Using the real account at ${credential.baseUrl}`);
	} else {
		running.simulator = await startSimulator({ port: Number(values['simulator-port']) });
		credential = { baseUrl: running.simulator.url, apiToken: running.simulator.token };
		say(`3/6 API simulator with demo data at ${running.simulator.url}`);
	}

	// A fresh n8n user folder each run: the simulator's world is fresh too.
	const userFolder = join(ROOT, '.cache', 'demo');
	rmSync(userFolder, { recursive: true, force: true });
	const n8n = instance(paths, userFolder, Number(values.port));
	say('4/6 Packing the package and installing it as a community package …');
	installCommunityPackage(n8n, pack());
	say('5/6 Importing the credential and the example workflows …');
	await importCredential(n8n, credential);
	await importWorkflows(n8n);
	const simulated = running.simulator;
	if (simulated)
		await importTriggerWorkflows(n8n, [
			{
				...triggerWorkflow({
					...WEBHOOK_DEMO,
					phoneNumberId: simulated.state.bots[0].phone_number_id,
				}),
				name: 'Demo: BotSailor Webhook Trigger (the simulator posts here)',
			},
		]);
	say('6/6 Starting n8n …');
	const server = await start(n8n, 180_000, process.env.N8N_LOG_LEVEL !== undefined);
	running.server = server;
	const session = new Session(n8n.url);
	await session.setupOwner();
	// What a user does by hand on the platform (Bot Settings → Webhook): the simulator posts incoming
	// messages of its first number to the published demo workflow, so the Webhook Trigger answers at once.
	let hookUrl = '';
	if (simulated) {
		await publish(session, WEBHOOK_DEMO.id);
		await waitForProductionWebhook(n8n, WEBHOOK_DEMO.webhookId);
		hookUrl = productionUrl(n8n, WEBHOOK_DEMO.webhookId);
		simulated.state.webhooks.configure(simulated.state.bots[0].phone_number_id, {
			urls: { incoming_message: hookUrl },
		});
	}

	say(`
n8n is ready (${Math.round((Date.now() - started) / 1000)} s).
  Editor:    ${n8n.url}
  Login:     ${OWNER.email} / ${OWNER.password}
  Workflows: the examples/ folder, with the credential "BotSailor account" (${real ? credential.baseUrl : 'the simulator'})`);
	const simulator = running.simulator;
	if (simulator) {
		const numberId = simulator.state.bots[0].phone_number_id;
		say(`  Simulator: ${simulator.url} (token ${simulator.token})
  Make a customer write (to WhatsApp number ${numberId}):
    curl -X POST ${simulator.url}/__control/message -H 'content-type: application/json' -d '{"phone_number":"15550100001","text":"price"}'
  The simulator posts each such message at once to the published workflow "Demo: BotSailor Webhook Trigger"
  (${hookUrl}); polling triggers of published workflows see it within a minute.
  To try a Webhook Trigger node of your own, point the simulator at its Test or Production URL:
    curl -X POST ${simulator.url}/__control/webhooks -H 'content-type: application/json' -d '{"phone_number_id":"${numberId}","urls":{"incoming_message":"<the node's URL>"}}'
  Other events: /__control/subscriber, /__control/order, /__control/message-status, /__control/template-decision`);
	}
	say('Press Ctrl-C to stop.');
	server.child.on('exit', (code) => {
		if (running.stopping) return;
		process.stderr.write(`n8n exited unexpectedly (${code})\n${server.output()}\n`);
		running.server = undefined;
		void stopAll(1);
	});
}

main().catch((error: Error) => {
	process.stderr.write(`demo failed: ${error.message}\n`);
	void stopAll(1);
});
