/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error, @n8n/community-nodes/no-hardcoded-secrets -- drives a real n8n (child processes) from plain Node.js for the demo and e2e, not node code; the owner password is a fixed local demo login */
/**
 * A real, pinned n8n for the demo and the end-to-end suite: provisioning (scripts/provision-n8n.sh),
 * this package packed and installed the way n8n installs community packages, credential and
 * workflow import, `n8n execute`, `n8n start`, owner setup and a logged-in REST session.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');
export const PACKAGE_NAME = 'n8n-nodes-botsailor';
/** The id every example's BotSailor node refers to, so imported examples run as they are. */
export const CREDENTIAL_ID = 'BotSailorDemo001';
export const CREDENTIAL_NAME = 'BotSailor account';
/** A fixed owner login for the local demo and the e2e instance (never a real account). */
export const OWNER = {
	email: 'demo@botsailor.example',
	password: 'BotSailor-Demo-1',
	firstName: 'Demo',
	lastName: 'Owner',
};

export interface N8nPaths {
	/** Directory holding the `node` this n8n version accepts (22 for n8n <= 1.94, else 24). */
	nodeBin: string;
	/** Directory holding the pinned `n8n` binary. */
	n8nBin: string;
	/** The installed n8n's version (N8N_VERSION, default 2.41.1), read from its package.json. */
	n8nVersion: string;
}

/**
 * The n8n of N8N_VERSION (default 2.41.1) and the Node it runs on, installed into .cache/ on first use
 * (idempotent, seconds when cached). The test process itself stays on Node 24; only n8n's processes use `nodeBin`.
 */
export function provision(): N8nPaths {
	let n8nBin: string;
	try {
		n8nBin = execFileSync('bash', [join(ROOT, 'scripts', 'provision-n8n.sh')], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
		}).trim();
	} catch (error) {
		// The script's one-line summary (the step, the tool's reason, the fix) says more than "Command failed".
		const failure = join(ROOT, '.cache', `n8n-${installedN8nVersion()}.failure`);
		if (!existsSync(failure)) throw error;
		throw new Error(
			readFileSync(failure, 'utf8')
				.trim()
				.replace(/^provision-n8n: /, ''),
		);
	}
	const n8nVersion = (
		JSON.parse(readFileSync(join(n8nBin, '..', 'n8n', 'package.json'), 'utf8')) as {
			version: string;
		}
	).version;
	const nodeBin = readFileSync(join(ROOT, '.cache', `n8n-${n8nVersion}.node-bin`), 'utf8').trim();
	const paths = { nodeBin, n8nBin, n8nVersion };
	migratedTemplate(paths);
	return paths;
}

/**
 * A user folder whose SQLite database n8n has migrated, once per provisioned n8n (beside it in the cache): a new
 * instance starts from a copy instead of running every migration again (about 6 CPU seconds per fresh folder, some
 * 25 folders per CI run). Only the database is kept: the encryption key is the instance's (N8N_ENCRYPTION_KEY).
 */
function templateFolder(paths: N8nPaths): string {
	return join(paths.n8nBin, '..', '..', '.migrated-user-folder');
}
const DATABASE_FILES = ['database.sqlite', 'database.sqlite-wal', 'database.sqlite-shm'];

function migratedTemplate(paths: N8nPaths): void {
	const template = templateFolder(paths);
	if (existsSync(join(template, '.n8n', 'database.sqlite'))) return;
	const building = `${template}.${process.pid}`;
	rmSync(building, { recursive: true, force: true });
	// Any command opens the database, which runs the migrations; `list:workflow` then prints nothing.
	execFileSync(join(paths.n8nBin, 'n8n'), ['list:workflow'], {
		env: instance(paths, building, 0).env,
		stdio: 'ignore',
		timeout: 300_000,
	});
	try {
		renameSync(building, template);
	} catch {
		rmSync(building, { recursive: true, force: true }); // another process made it first
	}
}

/** Whether `version` is at least `minimum` (both plain x.y.z): the one in test/e2e/versions.js, which jest's config reads too. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS, shared with test/e2e/jest.config.js
export const { versionAtLeast } = require('./versions') as {
	versionAtLeast: (version: string, minimum: string) => boolean;
};

/**
 * A test that only applies from n8n `minimum` on: on an older n8n it is reported as skipped (jest's
 * summary counts it) and the reason is printed, never counted as passed.
 */
export function sinceN8n(minimum: string, reason: string): jest.It {
	const version = installedN8nVersion();
	if (versionAtLeast(version, minimum)) return test;
	process.stdout.write(`SKIPPED on n8n ${version} (needs n8n >= ${minimum}): ${reason}\n`);
	return test.skip;
}

/** The n8n the package is pinned to (the n8n-core its unit tests run in): every e2e file and browser check runs on it. */
export const PINNED_N8N_VERSION = '2.41.1';

/** The version N8N_VERSION names (what provision() installs), without provisioning. */
export function installedN8nVersion(): string {
	return process.env.N8N_VERSION || PINNED_N8N_VERSION;
}

export interface N8nInstance {
	paths: N8nPaths;
	userFolder: string;
	port: number;
	env: NodeJS.ProcessEnv;
	url: string;
}

/** The environment of an isolated n8n: its own user folder, port and encryption key; no telemetry. */
export function instance(
	paths: N8nPaths,
	userFolder: string,
	port: number,
	extra: NodeJS.ProcessEnv = {},
): N8nInstance {
	mkdirSync(userFolder, { recursive: true });
	const template = join(templateFolder(paths), '.n8n');
	const database = join(userFolder, '.n8n', 'database.sqlite');
	if (!extra.DB_TYPE && !existsSync(database) && existsSync(join(template, 'database.sqlite'))) {
		mkdirSync(join(userFolder, '.n8n'), { recursive: true });
		for (const file of DATABASE_FILES)
			if (existsSync(join(template, file)))
				copyFileSync(join(template, file), join(userFolder, '.n8n', file));
	}
	const env: NodeJS.ProcessEnv = {
		...process.env,
		PATH: [paths.nodeBin, paths.n8nBin, process.env.PATH].join(delimiter),
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		// The task runner broker listens too (default 5679): one per instance, so instances can coexist.
		N8N_RUNNERS_BROKER_PORT: String(port + 1),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: 'localhost',
		N8N_ENCRYPTION_KEY: 'botsailor-local-demo-key',
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true',
		// n8n 1.85's `execute` starts no task runner, so with runners on a Code node waits forever there
		// (1.123's does); before 1.123 the Code node runs in n8n's own process, as those versions default to.
		N8N_RUNNERS_ENABLED: versionAtLeast(paths.n8nVersion, '1.123.0') ? 'true' : 'false',
		N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'warn',
		DB_SQLITE_POOL_SIZE: '2',
		...extra,
	};
	// Nothing of a test runner may leak into n8n: NODE_ENV=test silences its logger (and so `execute`'s output).
	env.NODE_ENV = 'production';
	delete env.NODE_OPTIONS;
	for (const key of Object.keys(env)) if (key.startsWith('JEST_')) delete env[key];
	return { paths, userFolder, port, env, url: `http://localhost:${port}` };
}

/** `npm run build` must have run. Returns the tarball's path. */
export function pack(destination = join(ROOT, '.cache', 'pack')): string {
	rmSync(destination, { recursive: true, force: true });
	mkdirSync(destination, { recursive: true });
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
		cwd: ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const [{ filename }] = JSON.parse(out) as Array<{ filename: string }>;
	return join(destination, filename);
}

/**
 * Unpacks the tarball into `<user folder>/.n8n/nodes/node_modules/<name>` with the `package.json` n8n
 * keeps there: the layout n8n's community package installer produces. No `npm install`: the package
 * has no dependencies; n8n-workflow and zod resolve from n8n's own node_modules at runtime.
 */
export function installCommunityPackage(n8n: N8nInstance, tarball: string): string {
	const nodesDir = join(n8n.userFolder, '.n8n', 'nodes');
	const target = join(nodesDir, 'node_modules', PACKAGE_NAME);
	const unpack = join(nodesDir, '.unpack');
	rmSync(target, { recursive: true, force: true });
	rmSync(unpack, { recursive: true, force: true });
	mkdirSync(unpack, { recursive: true });
	mkdirSync(join(nodesDir, 'node_modules'), { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', unpack]);
	renameSync(join(unpack, 'package'), target);
	rmSync(unpack, { recursive: true, force: true });
	const version = (
		JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as { version: string }
	).version;
	writeFileSync(
		join(nodesDir, 'package.json'),
		JSON.stringify(
			{ name: 'installed-nodes', private: true, dependencies: { [PACKAGE_NAME]: version } },
			null,
			2,
		),
	);
	return target;
}

export interface CliResult {
	code: number;
	stdout: string;
	stderr: string;
}

/** Runs an `n8n` CLI command to completion. */
export function cli(n8n: N8nInstance, args: string[], timeoutMs = 180_000): Promise<CliResult> {
	return new Promise((resolvePromise, reject) => {
		const child = spawn(join(n8n.paths.n8nBin, 'n8n'), args, { env: n8n.env, cwd: n8n.userFolder });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(
				new Error(`n8n ${args.join(' ')} timed out after ${timeoutMs} ms\n${stdout}\n${stderr}`),
			);
		}, timeoutMs);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolvePromise({ code: code ?? 1, stdout, stderr });
		});
	});
}

/** Like `cli`, but throws with n8n's own output when the command fails. */
export async function cliOk(
	n8n: N8nInstance,
	args: string[],
	timeoutMs?: number,
): Promise<CliResult> {
	const result = await cli(n8n, args, timeoutMs);
	if (result.code !== 0)
		throw new Error(
			`n8n ${args.join(' ')} exited with ${result.code}\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`,
		);
	return result;
}

export interface CredentialData {
	baseUrl: string;
	apiToken: string;
	apiForm?: 'current' | 'earlier';
}

/** Imports the BotSailor credential that every example uses. */
export async function importCredential(n8n: N8nInstance, data: CredentialData): Promise<void> {
	const file = join(n8n.userFolder, 'botsailor-credential.json');
	writeFileSync(
		file,
		JSON.stringify([
			{
				id: CREDENTIAL_ID,
				name: CREDENTIAL_NAME,
				type: 'botSailorApi',
				data: { apiForm: 'current', ...data },
			},
		]),
	);
	try {
		await cliOk(n8n, ['import:credentials', `--input=${file}`]);
	} finally {
		rmSync(file, { force: true }); // it holds the token in clear
	}
}

export const EXAMPLES_DIR = join(ROOT, 'examples');

export interface Workflow {
	id: string;
	name: string;
	active?: boolean;
	nodes: Array<{
		name: string;
		type: string;
		parameters: Record<string, unknown>;
		[key: string]: unknown;
	}>;
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

export function readWorkflows(dir = EXAMPLES_DIR): Array<{ file: string; workflow: Workflow }> {
	return readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => ({
			file: join(dir, name),
			workflow: JSON.parse(readFileSync(join(dir, name), 'utf8')) as Workflow,
		}));
}

/** Imports every workflow file of a folder (one CLI start for all of them). */
export async function importWorkflows(n8n: N8nInstance, dir = EXAMPLES_DIR): Promise<void> {
	await cliOk(n8n, ['import:workflow', '--separate', `--input=${dir}`]);
}

/** `n8n execute --id --rawOutput`: the parsed run data, or an Error carrying n8n's own text. */
export async function execute(n8n: N8nInstance, id: string): Promise<IRun> {
	// `execute` prints its result through the logger at info level, between other info lines.
	const result = await cli({ ...n8n, env: { ...n8n.env, N8N_LOG_LEVEL: 'info' } }, [
		'execute',
		`--id=${id}`,
		'--rawOutput',
	]);
	const failed = () =>
		new Error(
			`n8n execute --id=${id} failed (exit ${result.code})\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`,
		);
	const lines = result.stdout.split('\n');
	const first = lines.indexOf('{');
	const last = lines.indexOf('}', first);
	if (first < 0 || last < 0) {
		if (result.code !== 0) throw failed();
		throw new Error(`n8n execute --id=${id} printed no JSON\n${result.stdout}\n${result.stderr}`);
	}
	const run = JSON.parse(lines.slice(first, last + 1).join('\n')) as IRun;
	if (result.code !== 0) {
		// n8n 1.123 under load has exited 1 after printing a finished, successful run with nothing on stderr (twice in CI):
		// its own teardown, not the run. The printed run is the verdict; any other non-zero exit fails.
		const succeeded =
			run.status === 'success' && run.finished === true && !run.data.resultData.error;
		if (!succeeded || result.stderr.trim()) throw failed();
		process.stderr.write(
			`n8n execute --id=${id}: exit ${result.code} after a finished, successful run (n8n's teardown)\n`,
		);
	}
	// n8n <= 1.94 prints a finished run as "status": "running" with "finished": true (a failed run exits 1 above).
	if (run.status === 'running' && run.finished === true && !run.data.resultData.error)
		run.status = 'success';
	return run;
}

/** The part of n8n's run data the checks read. */
export interface IRun {
	status: string;
	finished?: boolean;
	data: {
		resultData: {
			runData: Record<
				string,
				Array<{
					data?: {
						main: Array<Array<{
							json: Record<string, unknown>;
							binary?: Record<string, unknown>;
						}> | null>;
					};
				}>
			>;
			error?: unknown;
		};
		/** What n8n saved to run next: a run it never started (marked `crashed` after a stop) has only this. */
		executionData?: {
			nodeExecutionStack?: Array<{
				node: { name: string };
				data: { main: Array<Array<{ json: Record<string, unknown> }> | null> };
			}>;
		};
	};
}

/** The JSON of every item a node produced on its first output (last run of the node). */
export function nodeOutput(
	run: IRun,
	nodeName: string,
	outputIndex = 0,
): Array<Record<string, unknown>> {
	const runs = run.data.resultData.runData[nodeName];
	if (!runs)
		throw new Error(
			`node "${nodeName}" did not run; ran: ${Object.keys(run.data.resultData.runData).join(', ')}`,
		);
	return (runs[runs.length - 1].data?.main[outputIndex] ?? []).map((item) => item.json);
}

export interface Server {
	child: ChildProcess;
	output(): string;
	stop(): Promise<void>;
}

/** `n8n start`, resolved once the editor answers. */
export async function start(n8n: N8nInstance, timeoutMs = 180_000, echo = false): Promise<Server> {
	const child = spawn(join(n8n.paths.n8nBin, 'n8n'), ['start'], {
		env: n8n.env,
		cwd: n8n.userFolder,
		detached: true,
	});
	let output = '';
	const collect = (chunk: Buffer) => {
		output += chunk.toString();
		if (echo) process.stderr.write(chunk);
	};
	child.stdout?.on('data', collect);
	child.stderr?.on('data', collect);
	const exited = new Promise<void>((done) => child.on('exit', () => done()));
	const stop = async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		try {
			process.kill(-child.pid!, 'SIGTERM'); // n8n and its task runner
		} catch {
			return;
		}
		const killer = setTimeout(() => {
			try {
				process.kill(-child.pid!, 'SIGKILL');
			} catch {
				/* already gone */
			}
		}, 15_000);
		await exited;
		clearTimeout(killer);
	};
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (child.exitCode !== null)
			throw new Error(`n8n start exited with ${child.exitCode}\n${output}`);
		try {
			const response = await fetch(`${n8n.url}/healthz/readiness`);
			if (response.ok) break;
		} catch {
			/* not listening yet */
		}
		if (Date.now() > deadline) {
			await stop();
			throw new Error(`n8n did not become ready within ${timeoutMs} ms\n${output}`);
		}
		await new Promise((done) => setTimeout(done, 500));
	}
	return { child, output: () => output, stop };
}

/** A logged-in REST session (cookie + browser id, as the editor sends them). */
export class Session {
	private cookie = '';

	private readonly browserId = 'botsailor-e2e-browser';

	constructor(readonly baseUrl: string) {}

	async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		// A request n8n refuses with 503 "Database is not ready!" is sent again for up to a minute: n8n answers so,
		// before any route runs, while its database check lags on a busy machine: after its editor answers (a CI run's
		// owner set-up) and in the middle of a run (bench row 7). Refused before it is handled, it is safe to repeat.
		const deadline = Date.now() + 60_000;
		for (;;) {
			try {
				return await this.requestOnce<T>(method, path, body);
			} catch (error) {
				const message = (error as Error).message;
				if (!/HTTP 503.*Database is not ready/.test(message)) throw error;
				if (Date.now() > deadline) throw error;
				await new Promise((done) => setTimeout(done, 500));
			}
		}
	}

	private async requestOnce<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.baseUrl}/rest${path}`, {
			method,
			headers: {
				'content-type': 'application/json',
				'browser-id': this.browserId,
				cookie: this.cookie,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = response.headers
			.getSetCookie()
			.find((entry) => entry.startsWith('n8n-auth='));
		if (setCookie) this.cookie = setCookie.split(';')[0];
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} /rest${path} → HTTP ${response.status}: ${text}`);
		const parsed = text ? (JSON.parse(text) as { data?: T }) : {};
		return (parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed) as T;
	}

	/** A GET outside /rest (e.g. /types/nodes.json), with the session cookie. */
	async get<T = unknown>(path: string): Promise<T> {
		const response = await fetch(`${this.baseUrl}${path}`, {
			headers: { 'browser-id': this.browserId, cookie: this.cookie },
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`GET ${path} → HTTP ${response.status}: ${text}`);
		return JSON.parse(text) as T;
	}

	/** Creates the owner account on a fresh instance (idempotent: a second call only logs in). */
	async setupOwner(owner = OWNER): Promise<void> {
		// n8n 1.x answers /healthz/readiness before it mounts the REST routes: 404 for a few seconds.
		const deadline = Date.now() + 60_000;
		for (;;) {
			try {
				await this.request('POST', '/owner/setup', owner);
				break;
			} catch (error) {
				const message = (error as Error).message;
				if (/HTTP 400/.test(message)) break; // the owner exists already
				if (!/HTTP 404/.test(message) || Date.now() > deadline) throw error;
				await new Promise((done) => setTimeout(done, 500));
			}
		}
		await this.login(owner);
	}

	/**
	 * Logs in. n8n 1.x answers /healthz/readiness before it mounts the REST routes (404 for a few seconds), also
	 * after a restart of the same instance: retried on 404 only, for up to a minute (a 503 "Database is not ready!"
	 * is `request`'s).
	 */
	async login(owner = OWNER): Promise<void> {
		const deadline = Date.now() + 60_000;
		for (;;) {
			try {
				await this.request('POST', '/login', {
					emailOrLdapLoginId: owner.email,
					password: owner.password,
				});
				return;
			} catch (error) {
				if (!/HTTP 404/.test((error as Error).message) || Date.now() > deadline) throw error;
				await new Promise((done) => setTimeout(done, 500));
			}
		}
	}
}

export function ensureBuilt(): void {
	if (!existsSync(join(ROOT, 'dist', 'credentials', 'BotSailorApi.credentials.js'))) {
		execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
	}
}

/** A free port whose successor is free too (n8n listens on `port`, its task runner broker on `port + 1`). */
export async function findFreePortPair(): Promise<number> {
	const { createServer } = await import('node:net');
	const free = async (candidate: number) =>
		await new Promise<boolean>((done) => {
			const server = createServer();
			server.once('error', () => done(false));
			server.listen(candidate, '127.0.0.1', () => server.close(() => done(true)));
		});
	for (;;) {
		const port = 20000 + Math.floor(Math.random() * 20000);
		if ((await free(port)) && (await free(port + 1))) return port;
	}
}

export interface OpenAiCredentialData {
	/** The credential's Base URL, e.g. an OpenAI-compatible stand-in's `http://127.0.0.1:<port>/v1`. */
	url: string;
	apiKey: string;
}

/** Imports an `openAiApi` credential (n8n-nodes-base's OpenAI credential: apiKey, Base URL `url`). */
export async function importOpenAiCredential(
	n8n: N8nInstance,
	id: string,
	name: string,
	data: OpenAiCredentialData,
): Promise<void> {
	const file = join(n8n.userFolder, 'openai-credential.json');
	writeFileSync(
		file,
		JSON.stringify([
			{ id, name, type: 'openAiApi', data: { organizationId: '', header: false, ...data } },
		]),
	);
	try {
		await cliOk(n8n, ['import:credentials', `--input=${file}`]);
	} finally {
		rmSync(file, { force: true });
	}
}

/**
 * Activates (publishes) an imported workflow in a running n8n, so its triggers and production webhooks
 * run. n8n <= 1.94 has no POST /workflows/:id/activate (404): there a PATCH sets `active`.
 */
export async function activateWorkflow(session: Session, id: string): Promise<void> {
	await setActive(session, id, true);
}

/**
 * Resolves once a just-activated polling trigger's first poll has read the subscriber list and the simulator has then
 * been quiet for `quietMs`: activation polls once and that poll sets the cursor, so a message added while it runs is
 * taken as old (and the platform's times have whole seconds). `since` is the simulator's request count before the
 * activation. A fixed sleep after activation raced a slow activation on a loaded machine.
 */
export async function afterFirstPoll(
	requests: ReadonlyArray<{ path: string }>,
	since: number,
	quietMs = 3_000,
	timeoutMs = 150_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let count = -1;
	let quietSince = Date.now();
	for (;;) {
		if (requests.length !== count) [count, quietSince] = [requests.length, Date.now()];
		const polled = requests
			.slice(since)
			.some((request) => request.path === '/whatsapp/subscriber/list');
		if (polled && Date.now() - quietSince >= quietMs) return;
		if (Date.now() > deadline)
			throw new Error(`the activated trigger did not poll the platform within ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

export async function deactivateWorkflow(session: Session, id: string): Promise<void> {
	await setActive(session, id, false);
}

/**
 * n8n 2.x checks every node's parameters before it publishes, and a check that throws (rather than finding an issue)
 * refuses with "Error validating node parameters": a resource locator's regexes run in a vm with a 250 ms wall-clock
 * limit, which a loaded machine outlasts (ci12, 2026-12-03: the demo's OpenAI Chat Model, beside three CI lanes). The
 * workflow is fine, so the publish is tried again; a real issue ("Missing or invalid required parameters") is not.
 */
const VALIDATOR_THREW = /Error validating node parameters/;
const PUBLISH_TRIES = 5;

async function setActive(session: Session, id: string, active: boolean): Promise<void> {
	const workflow = await session.request<{ versionId: string }>('GET', `/workflows/${id}`);
	try {
		await triedAgainWhileTheCheckThrows(() =>
			session.request(
				'POST',
				`/workflows/${id}/${active ? 'activate' : 'deactivate'}`,
				active ? { versionId: workflow.versionId } : {},
			),
		);
	} catch (error) {
		// n8n 1.x has no activate/deactivate route: it sets `active` by PATCH.
		if (!/HTTP 404/.test((error as Error).message)) throw error;
		await session.request('PATCH', `/workflows/${id}`, { active, versionId: workflow.versionId });
	}
}

async function triedAgainWhileTheCheckThrows(publish: () => Promise<unknown>): Promise<void> {
	for (let attempt = 1; ; attempt++) {
		try {
			await publish();
			return;
		} catch (error) {
			if (attempt === PUBLISH_TRIES || !VALIDATOR_THREW.test((error as Error).message)) throw error;
			await new Promise((resolve) => setTimeout(resolve, 1_000 * attempt));
		}
	}
}

/** One execution read through the REST API, its run data decoded (the API sends it in "flatted" form). */
export async function readExecution(
	n8n: N8nInstance,
	session: Session,
	executionId: string,
): Promise<IRun & { id: string }> {
	const execution = await session.request<{ status: string; data: string }>(
		'GET',
		`/executions/${executionId}`,
	);
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the host n8n's copy of flatted, resolved at runtime
	const { parse } = require(join(n8n.paths.n8nBin, '..', 'flatted')) as {
		parse: (text: string) => IRun['data'];
	};
	return { id: executionId, status: execution.status, data: parse(execution.data) };
}

/** The newest finished execution of a workflow, or undefined. */
export async function latestExecution(
	n8n: N8nInstance,
	session: Session,
	workflowId: string,
): Promise<(IRun & { id: string }) | undefined> {
	const list = await session.request<{ results: Array<{ id: string; status: string }> }>(
		'GET',
		`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`,
	);
	const finished = list.results.filter(
		(execution) => execution.status !== 'running' && execution.status !== 'new',
	);
	const newest = finished.sort((a, b) => Number(b.id) - Number(a.id))[0];
	return newest ? await readExecution(n8n, session, newest.id) : undefined;
}

export interface ChatReply {
	status: number;
	/** The parsed JSON answer (with the default "last node" response mode: the agent's `{ output }`), or the raw text. */
	body: unknown;
}

/** Sends a message to an active workflow's Chat Trigger (a public one) as n8n's chat widget does. */
export async function sendChatMessage(
	n8n: N8nInstance,
	webhookId: string,
	sessionId: string,
	chatInput: string,
): Promise<ChatReply> {
	const response = await fetch(`${n8n.url}/webhook/${webhookId}/chat`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ action: 'sendMessage', sessionId, chatInput }),
	});
	const text = await response.text();
	let body: unknown = text;
	try {
		body = JSON.parse(text);
	} catch {
		/* not JSON: keep the text */
	}
	return { status: response.status, body };
}

/**
 * Waits until a production webhook is registered (anything but HTTP 404): activation can answer before
 * the webhook serves. Probe with a request that starts no execution (for a Chat Trigger: GET, its chat page).
 */
export async function waitForWebhook(
	n8n: N8nInstance,
	path: string,
	method = 'GET',
	timeoutMs = 60_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const response = await fetch(`${n8n.url}/webhook/${path}`, { method }).catch(() => undefined);
		await response?.body?.cancel();
		if (response && response.status !== 404) return;
		if (Date.now() > deadline)
			throw new Error(`webhook ${method} /webhook/${path} not registered within ${timeoutMs} ms`);
		await new Promise((done) => setTimeout(done, 250));
	}
}

/** `n8n start`, then the owner account set up and signed in: what most e2e files do first. */
export async function startWithOwner(
	n8n: N8nInstance,
): Promise<{ server: Server; session: Session }> {
	const server = await start(n8n);
	const session = new Session(n8n.url);
	// A failed set-up must not leave n8n running: the caller's afterAll never gets this server to stop.
	await session.setupOwner().catch(async (error: unknown) => {
		await server.stop();
		throw error;
	});
	return { server, session };
}
