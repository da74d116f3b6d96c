/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- raw servers that answer the hostile ways, in plain Node.js */
/**
 * Hostile answers (issue 34): a raw HTTP server inside the test answers every way a PHP platform and the proxies in
 * front of it can, against the node in n8n's engine. Each send case runs on both drivers (the bulk path and the
 * declarative path) and under Retry On Fail and Continue On Fail.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { INodeType } from 'n8n-workflow';
import { sendTextNode, sendTextParameters } from '../../bench/sendTextNode';
import { redact, redactDeep } from '../../nodes/shared/http/envelope';
import { DELIVERY_DEFAULTS } from '../../nodes/BotSailor/sending/delivery';
import { runNode, type RunResult } from '../harness/harness';
import { NUMBER, numberById } from '../harness/params';

/** A token with every character that encodings change: |, /, +, space, quote, backslash, & and =. */
const TOKEN = '41|Hostile/Token+with "quote" \\ & =end';
const OK = { status: '1', message: 'Message sent successfully.', wa_message_id: 'wamid.HOSTILE1' };

interface Seen {
	method: string;
	url: string;
	body: string;
}

interface RawServer {
	url: string;
	requests: Seen[];
	/** TCP connections opened to it, requests or not (a TLS handshake against it is one). */
	connections(): number;
	close(): Promise<void>;
}

/** A raw server: every request recorded (whole body), then answered by `answer`. */
async function rawServer(
	answer: (request: Seen, response: ServerResponse, index: number) => void,
): Promise<RawServer> {
	const requests: Seen[] = [];
	let connections = 0;
	const server: Server = createServer((request: IncomingMessage, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const seen = {
				method: request.method ?? '',
				url: request.url ?? '',
				body: Buffer.concat(chunks).toString('utf8'),
			};
			requests.push(seen);
			answer(seen, response, requests.length - 1);
		});
	});
	server.on('connection', () => connections++);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		connections: () => connections,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

const servers: RawServer[] = [];
async function serve(
	answer: (request: Seen, response: ServerResponse, index: number) => void,
): Promise<RawServer> {
	const server = await rawServer(answer);
	servers.push(server);
	return server;
}
afterEach(async () => {
	await Promise.all(servers.splice(0).map(async (server) => await server.close()));
});

function text(response: ServerResponse, status: number, body: string, headers = {}) {
	response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
	response.end(body);
}

const bulk = sendTextNode({ baseDelayMs: 1 });
const declarative = sendTextNode(false);
const DRIVERS: Array<[string, INodeType]> = [
	['bulk path', bulk],
	['declarative path', declarative],
];
const MODES = [
	['plain', {}],
	['Retry On Fail', { retryOnFail: { maxTries: 3, waitBetweenTries: 0 } }],
	['Continue On Fail', { continueOnFail: true }],
] as const;

function sendText(
	nodeType: INodeType,
	baseUrl: string,
	extra: {
		continueOnFail?: boolean;
		retryOnFail?: { maxTries: number; waitBetweenTries?: number };
		items?: number;
		parameters?: Record<string, unknown>;
		apiToken?: string;
	} = {},
): Promise<RunResult> {
	return runNode({
		nodeType,
		credentials: { baseUrl, apiToken: extra.apiToken ?? TOKEN, apiForm: 'current' },
		items: Array.from({ length: extra.items ?? 1 }, (_, index) => ({
			json: { phone: `1999000${String(index).padStart(4, '0')}`, text: `Hello ${index}` },
		})),
		continueOnFail: extra.continueOnFail,
		retryOnFail: extra.retryOnFail,
		parameters: { ...sendTextParameters(NUMBER), ...extra.parameters } as never,
	});
}

/** The failure of a run: the execution's error, or the first error item under Continue On Fail. */
function failureOf(result: RunResult) {
	return result.error ?? result.items.find((item) => item.error)?.error;
}

/** Every form of the token (envelope.ts redact) that must not appear in a text. */
function tokenForms(token: string): string[] {
	const json = JSON.stringify(token).slice(1, -1);
	return [
		token,
		encodeURIComponent(token),
		encodeURIComponent(token).replace(/%20/g, '+'),
		json,
		JSON.stringify(json).slice(1, -1),
	];
}
/** The forms of the token in a value: its JSON, and each of its strings (errors' non-enumerable ones too). */
function leaksToken(value: unknown, token = TOKEN): string[] {
	let serialized = '';
	try {
		serialized = JSON.stringify(value) ?? '';
	} catch {
		// Circular (an error and its request): its strings are read one by one below.
	}
	const texts = [serialized, ...stringsIn(value)];
	return tokenForms(token).filter((form) => texts.some((text) => text.includes(form)));
}

/** Every string in a value, keys included, through errors' own (non-enumerable) properties and causes. */
function stringsIn(value: unknown, seen = new WeakSet<object>(), depth = 0): string[] {
	if (typeof value === 'string') return [value];
	if (value === null || typeof value !== 'object' || depth > 12 || seen.has(value)) return [];
	seen.add(value);
	if (Buffer.isBuffer(value)) return [value.toString('utf8')];
	return Object.getOwnPropertyNames(value).flatMap((key) => {
		let inner: unknown;
		try {
			inner = (value as Record<string, unknown>)[key];
		} catch {
			inner = undefined;
		}
		return [key, ...stringsIn(inner, seen, depth + 1)];
	});
}

interface LogLine {
	source: string;
	args: unknown[];
}

const LEVELS = ['error', 'warn', 'info', 'debug'] as const;

/**
 * Records what is logged while the file runs, whatever N8N_LOG_LEVEL says: n8n-core's Logger (every instance, scoped
 * ones too), which is a node's `this.logger` and, as in n8n, where n8n-workflow's LoggerProxy writes (the engine logs
 * through it, a failed execution with its whole error); and the console.
 */
function recordLogs(): LogLine[] {
	const lines: LogLine[] = [];
	const record =
		(source: string) =>
		(...args: unknown[]) => {
			lines.push({ source, args });
		};
	/* eslint-disable @typescript-eslint/no-require-imports -- the copies n8n-core itself resolves (its own @n8n/di and @n8n/backend-common) */
	const resolve = (name: string) => require.resolve(name, { paths: [require.resolve('n8n-core')] });
	const { Container } = require(resolve('@n8n/di')) as typeof import('@n8n/di');
	const { Logger } = require(resolve('@n8n/backend-common')) as {
		Logger: { new (): object; prototype: Record<(typeof LEVELS)[number], () => void> };
	};
	/* eslint-enable @typescript-eslint/no-require-imports */
	for (const level of LEVELS)
		jest.spyOn(Logger.prototype, level).mockImplementation(record(`n8n logger (${level})`));
	// The root logger, made now as n8n's start-up makes it: its constructor points LoggerProxy at it.
	Container.get(Logger);
	// Recorded, not printed: nothing in these runs should print.
	for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const)
		jest.spyOn(console, method).mockImplementation(record(`console.${method}`));
	return lines;
}

/** The forms of the token found in log lines (every string of every argument, errors' causes included). */
function tokenInLogs(lines: LogLine[], token = TOKEN): string[] {
	return leaksToken(
		lines.map((line) => line.args),
		token,
	);
}

const logs = recordLogs();
// Whatever a test does, nothing it made n8n or the node log holds the token (point 6 asserts it explicitly too).
afterEach(() => {
	const leaked = [...tokenInLogs(logs), ...tokenInLogs(logs, 's3cr3t-pass')];
	logs.splice(0);
	expect(leaked).toEqual([]);
});

describe('1. a processed send whose answer cannot be read is never sent again', () => {
	const UNREADABLE: Array<[string, string]> = [
		['truncated JSON', '{"status":"1","message":"Message sent succ'],
		['an empty body', ''],
		[
			'a PHP notice, then truncated JSON',
			'<br />\n<b>Notice</b>:  Undefined index: x in /var/www/app.php on line 12<br />\n{"status":"1","mess',
		],
	];
	for (const [driver, nodeType] of DRIVERS)
		for (const [answer, body] of UNREADABLE)
			for (const [mode, extra] of MODES)
				it(`HTTP 200 with ${answer} (${driver}, ${mode}): "may have been delivered", one request`, async () => {
					const server = await serve((_request, response) => text(response, 200, body));
					const result = await sendText(nodeType, server.url, extra);
					expect(server.requests).toHaveLength(1);
					const failure = failureOf(result);
					expect(failure?.message).toMatch(
						/^The message may have been delivered: The platform answered with (an empty body|a body that is not valid JSON) \(HTTP 200\)$/,
					);
					expect(failure?.description).toMatch(/did not send it again/);
					if ('continueOnFail' in extra) {
						expect(result.error).toBeUndefined();
						expect(result.items[0].pairedItem).toEqual({ item: 0 });
					} else expect(result.error).toBeDefined();
				});

	it.each([
		[
			'a PHP notice (HTML display_errors)',
			'<br />\n<b>Notice</b>:  Undefined variable: id in /var/www/html/api.php on line 88<br />\n',
		],
		[
			'a PHP warning (CLI style)',
			'PHP Warning:  Cannot modify header information - headers already sent {x} in /app.php on line 3\n',
		],
		[
			'a deprecation',
			'Deprecated: Function create_function() is deprecated in /app.php on line 9\n',
		],
	])('reads the complete JSON after %s (both paths)', async (_name, notice) => {
		for (const [, nodeType] of DRIVERS) {
			const server = await serve((_request, response) =>
				text(response, 200, `${notice}${JSON.stringify(OK)}`),
			);
			const result = await sendText(nodeType, server.url);
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({
				success: true,
				wa_message_id: 'wamid.HOSTILE1',
			});
			expect(server.requests).toHaveLength(1);
		}
	});

	it('does not read JSON after anything but a PHP diagnostic (a web page stays a web page)', async () => {
		const server = await serve((_request, response) =>
			text(response, 200, `<html><body>Welcome</body></html>${JSON.stringify(OK)}`),
		);
		const result = await sendText(bulk, server.url);
		expect(result.error?.message).toMatch(/web page/);
	});
});

describe('2. a stopped run separates delivered, may have been delivered, not sent', () => {
	it.each([
		['plain', undefined],
		['Retry On Fail', { maxTries: 3, waitBetweenTries: 0 }],
	])('%s: the report lists each outcome once', async (_mode, retryOnFail) => {
		// Item 0 delivered, item 1 answered unreadably; items 2–3 never start (concurrency 1, stop at the first failure).
		const server = await serve((request, response) => {
			if (request.body.includes('Hello+1') || request.body.includes('Hello%201'))
				return text(response, 200, '{"status":"1","mes');
			text(response, 200, JSON.stringify(OK));
		});
		const result = await sendText(sendTextNode({ concurrency: 1 }), server.url, {
			items: 4,
			retryOnFail,
		});
		expect(result.error?.message).toMatch(/^The message may have been delivered/);
		const description = String(result.error?.description);
		expect(description).toMatch(
			/Delivered: 1 of 4 items \(0: wamid\.HOSTILE1\)\. May have been delivered: item 1 \(check the conversation before sending again\)\. Not sent: items 2–3 \(not attempted\)\.$/,
		);
		// Issue 34 point 4: Retry On Fail does not repeat the summary once per try.
		expect(description.match(/Delivered:/g)).toHaveLength(1);
		// Each item went out at most once, whatever Retry On Fail did.
		expect(server.requests).toHaveLength(2);
	});
});

describe('3. a failure that proves nothing left is "not sent", with a hint at the Base URL', () => {
	/** An HTTPS server whose certificate (self-signed, for CN=localhost) no client trusts: a bad certificate. */
	let selfSigned: { url: string; requests: number; connections: number; close(): Promise<void> };
	beforeAll(async () => {
		const dir = mkdtempSync(join(tmpdir(), 'hostile-cert-'));
		execFileSync(
			'openssl',
			[
				'req',
				'-x509',
				'-newkey',
				'rsa:2048',
				'-nodes',
				'-days',
				'1',
				'-subj',
				'/CN=localhost',
				'-keyout',
				join(dir, 'key.pem'),
				'-out',
				join(dir, 'cert.pem'),
			],
			{ stdio: 'ignore' },
		);
		const pems = {
			key: readFileSync(join(dir, 'key.pem')),
			cert: readFileSync(join(dir, 'cert.pem')),
		};
		rmSync(dir, { recursive: true, force: true });
		const server = createHttpsServer(pems, (_request, response) => {
			selfSigned.requests++;
			text(response, 200, JSON.stringify(OK));
		});
		server.on('connection', () => selfSigned.connections++);
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		selfSigned = {
			url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
			requests: 0,
			connections: 0,
			close: async () => {
				server.closeAllConnections();
				await new Promise<void>((resolve) => server.close(() => resolve()));
			},
		};
	});
	afterAll(async () => await selfSigned.close());

	/** Where the node is pointed, and what reached a server there (nothing to count where no server is). */
	interface Target {
		baseUrl: string;
		host: string;
		requests?: () => number;
		/** TCP connections made: one per attempt. */
		connections?: () => number;
	}
	interface NothingLeft {
		target(): Promise<Target>;
		message(target: Target): string | RegExp;
		/** What to check or type (connectionHint in failures.ts). */
		hint(target: Target): string | RegExp;
		/** Whether the node's own delivery policy tries again: refused (the platform may come up); never TLS, a certificate or DNS. */
		retried: boolean;
	}
	const failed = 'Not sent: The connection to the platform failed:';
	const NOTHING_LEFT: Array<[string, NothingLeft]> = [
		[
			'a Base URL without a scheme against a plain-http server (TLS handshake, EPROTO)',
			{
				target: async () => {
					const server = await serve((_request, response) =>
						text(response, 200, JSON.stringify(OK)),
					);
					const host = server.url.replace('http://', '');
					return {
						baseUrl: host,
						host,
						requests: () => server.requests.length,
						connections: server.connections,
					};
				},
				message: ({ host }) =>
					`${failed} ${host} did not answer in HTTPS (the TLS handshake failed)`,
				hint: ({ host }) => `type http://${host} in the Base URL`,
				retried: false,
			},
		],
		[
			'a certificate not valid for the host (self-signed)',
			{
				target: async () => {
					const [requests, connections] = [selfSigned.requests, selfSigned.connections];
					return {
						baseUrl: selfSigned.url,
						host: selfSigned.url.replace('https://', ''),
						requests: () => selfSigned.requests - requests,
						connections: () => selfSigned.connections - connections,
					};
				},
				message: ({ host }) =>
					new RegExp(
						`^${failed} the HTTPS certificate of ${host.replace(/\./g, '\\.')} is not valid \\((DEPTH_ZERO_SELF_SIGNED_CERT|ERR_TLS_CERT_ALTNAME_INVALID)\\)$`,
					),
				hint: () =>
					'Check that the Base URL is your platform’s own address; for a self-signed certificate you trust, turn on Options → Ignore SSL Issues.',
				retried: false,
			},
		],
		[
			'an unknown host (DNS, ENOTFOUND)',
			{
				target: async () => ({
					baseUrl: 'https://no-such-platform.invalid',
					host: 'no-such-platform.invalid',
				}),
				message: ({ host }) => `${failed} the host ${host} was not found`,
				hint: ({ host }) =>
					`The host ${host} of the Base URL was not found (DNS), so nothing was sent. Check its spelling`,
				retried: false,
			},
		],
		[
			'nothing listening (connection refused, ECONNREFUSED)',
			{
				target: async () => {
					const server = await rawServer(() => undefined);
					await server.close();
					return { baseUrl: server.url, host: server.url.replace('http://', '') };
				},
				message: ({ host }) =>
					`${failed} ${host} refused the connection (all ${DELIVERY_DEFAULTS.retries + 1} attempts)`,
				hint: ({ host }) =>
					`Nothing answers at ${host} (connection refused), so nothing was sent. Check the Base URL (and its port)`,
				retried: true,
			},
		],
	];

	/**
	 * The delivery policy's backoff cut to a few milliseconds while `run` runs (on the declarative path it is 250 ms,
	 * doubling, 6 retries: 8 to 16 s): what is tested is what is tried and reported, not how long it waits. The
	 * policy sleeps with n8n-workflow's `sleep`, which is @n8n/utils' (n8n-workflow re-exports it by a getter).
	 */
	async function withShortBackoff<T>(run: () => Promise<T>): Promise<T> {
		/* eslint-disable @typescript-eslint/no-require-imports -- the module n8n-workflow's sleep comes from */
		const utils = require(
			require.resolve('@n8n/utils/sleep', { paths: [require.resolve('n8n-workflow')] }),
		) as { sleep: (ms: number) => Promise<void> };
		/* eslint-enable @typescript-eslint/no-require-imports */
		const original = utils.sleep;
		const spy = jest
			.spyOn(utils, 'sleep')
			.mockImplementation(async (ms: number) => await original(Math.min(ms, 5)));
		try {
			return await run();
		} finally {
			spy.mockRestore();
		}
	}

	for (const [driver, nodeType] of DRIVERS)
		for (const [failure, setup] of NOTHING_LEFT)
			for (const [mode, extra] of MODES)
				it(`${failure} (${driver}, ${mode}): "Not sent", with what to check in the Base URL`, async () => {
					const target = await setup.target();
					const result = await withShortBackoff(
						async () => await sendText(nodeType, target.baseUrl, extra),
					);
					const error = failureOf(result);
					const message = setup.message(target);
					if (typeof message === 'string') expect(error?.message).toBe(message);
					else expect(error?.message).toMatch(message);
					const description = String(error?.description);
					expect(description).toMatch(/ Nothing was delivered\. /);
					const hint = setup.hint(target);
					expect(description).toContain(hint);
					// Once, whatever Retry On Fail did; on the bulk path, the run's report once too.
					expect(description.split(hint).length - 1).toBe(1);
					expect(description.match(/Delivered: /g) ?? []).toHaveLength(
						nodeType === bulk && !('continueOnFail' in extra) ? 1 : 0,
					);
					// Nothing left: never "may have been delivered", in the error or anywhere in the execution.
					expect(JSON.stringify(result.run)).not.toMatch(/may have been delivered/i);
					expect(target.requests?.() ?? 0).toBe(0);
					// One attempt per run of the node; Retry On Fail runs it again (nothing left, so it may).
					if (target.connections)
						expect(target.connections()).toBe(
							'retryOnFail' in extra ? extra.retryOnFail.maxTries : 1,
						);
					if ('continueOnFail' in extra) {
						expect(result.error).toBeUndefined();
						expect(result.items).toHaveLength(1);
						expect(result.items[0].json.error).toBe(error?.message);
						expect(result.items[0].pairedItem).toEqual({ item: 0 });
					} else expect(result.error).toBeDefined();
				});
});

describe('4. Retry-After: a floor and a ceiling, whatever it says', () => {
	/** Each path with the floor of its first retry's wait: half its first backoff delay (retry.ts retryWait's equal jitter). */
	const PATHS: Array<[string, INodeType, number]> = [
		['bulk path', sendTextNode({ baseDelayMs: 80 }), 40],
		['declarative path', declarative, DELIVERY_DEFAULTS.baseDelayMs / 2],
	];
	const tooManyRequests = '{"status":"0","message":"Too Many Requests"}';
	/** Retry-After values and the least wait they must give: the floor (`undefined`), or the value itself. */
	const WAITED: Array<[string, number | undefined]> = [
		['0', undefined],
		['-5', undefined],
		['soon', undefined],
		['1.5e3', undefined],
		['Thu, 01 Jan 1970 00:00:00 GMT', undefined],
		['1', 1_000],
	];
	for (const [driver, nodeType, floorMs] of PATHS)
		for (const [value, leastMs] of WAITED)
			for (const [mode, extra] of MODES)
				it(`Retry-After "${value}" (${driver}, ${mode}): waits at least ${leastMs === undefined ? 'the backoff floor' : 'that long'}, then delivers once`, async () => {
					const arrivals: number[] = [];
					const server = await serve((_request, response, index) => {
						arrivals.push(Date.now());
						if (index === 0) return text(response, 429, tooManyRequests, { 'Retry-After': value });
						text(response, 200, JSON.stringify(OK));
					});
					const result = await sendText(nodeType, server.url, extra);
					expect(result.error).toBeUndefined();
					expect(result.items).toHaveLength(1);
					expect(result.items[0].json).toMatchObject({
						success: true,
						wa_message_id: 'wamid.HOSTILE1',
					});
					expect(result.items[0].pairedItem).toEqual({ item: 0 });
					expect(server.requests).toHaveLength(2);
					expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual((leastMs ?? floorMs) - 5);
				});

	/** Retry-After values past the ceiling (the longest wait, 30 s): the item fails as not sent at once. */
	const PAST_CEILING = [String(DELIVERY_DEFAULTS.maxDelayMs / 1000 + 1), '99999999999'];
	for (const [driver, nodeType] of PATHS)
		for (const value of PAST_CEILING)
			for (const [mode, extra] of MODES)
				it(`Retry-After "${value}" (${driver}, ${mode}): not waited for, "Not sent" naming it, the report once`, async () => {
					const server = await serve((_request, response) =>
						text(response, 429, tooManyRequests, { 'Retry-After': value }),
					);
					const started = Date.now();
					const result = await sendText(nodeType, server.url, extra);
					const elapsed = Date.now() - started;
					const failure = failureOf(result);
					expect(failure?.message).toBe(
						`Not sent: the platform answered HTTP 429 Too Many Requests (the platform’s rate limit) and asked to wait ${value} s (Retry-After), longer than the node waits`,
					);
					const description = String(failure?.description);
					expect(description).toMatch(/Nothing was delivered \(the platform refused before acting/);
					// Once per failure, not once per try of Retry On Fail: the hint, and on the bulk path the run's report.
					expect(description.match(/Lower Max Sends in Flight/g)).toHaveLength(1);
					expect(description.match(/Delivered: /g) ?? []).toHaveLength(
						nodeType !== declarative && !('continueOnFail' in extra) ? 1 : 0,
					);
					expect(JSON.stringify(result.run)).not.toMatch(/may have been delivered/i);
					// One request per run of the node (not sent: Retry On Fail may send it again), none waited for.
					const tries = 'retryOnFail' in extra ? extra.retryOnFail.maxTries : 1;
					expect(server.requests).toHaveLength(tries);
					// Not waited for: a wait would take at least the longest one the node accepts (Retry-After past it);
					// no tighter ceiling, which a loaded machine (and n8n's 1 s between Retry On Fail's tries) outlasts.
					expect(elapsed).toBeLessThan(DELIVERY_DEFAULTS.maxDelayMs);
					if ('continueOnFail' in extra) {
						expect(result.error).toBeUndefined();
						expect(result.items[0].json.error).toBe(failure?.message);
						expect(result.items[0].pairedItem).toEqual({ item: 0 });
					} else expect(result.error).toBeDefined();
				});
});

describe('5. no request follows a redirect: the token never leaves for another host', () => {
	for (const status of [301, 302, 303, 307, 308])
		for (const [driver, nodeType] of DRIVERS)
			it(`HTTP ${status} to another host (${driver}): an error naming the target; the other host gets nothing`, async () => {
				const elsewhere = await serve((_request, response) =>
					text(response, 200, JSON.stringify({ ...OK, wa_message_id: 'wamid.FOREIGN' })),
				);
				const platform = await serve((_request, response) => {
					response.writeHead(status, { Location: `${elsewhere.url}/api/v1/whatsapp/send?x=1` });
					response.end();
				});
				for (const [, extra] of MODES) {
					const result = await sendText(nodeType, platform.url, extra);
					const failure = failureOf(result);
					expect(failure?.message).toMatch(
						new RegExp(
							`redirect to ${elsewhere.url.replace(/[.]/g, '\\.')}/api/v1/whatsapp/send \\(HTTP ${status}\\)`,
						),
					);
					expect(failure?.description).toMatch(/Put the final address in the Base URL/);
					expect(JSON.stringify(result.items)).not.toContain('wamid.FOREIGN');
				}
				expect(elsewhere.requests).toHaveLength(0);
				// Not repeated by the node; Retry On Fail may send it again (it was not sent): 1 + 3 + 1.
				expect(platform.requests).toHaveLength(5);
			});

	it('a read (User → Get Me) does not follow a 307 either', async () => {
		const elsewhere = await serve((_request, response) =>
			text(response, 200, '{"status":"1","message":{}}'),
		);
		const platform = await serve((_request, response) => {
			response.writeHead(307, { Location: `${elsewhere.url}/api/v1/user/myInfo` });
			response.end();
		});
		const result = await runNode({
			parameters: { resource: 'user', operation: 'getMe' },
			credentials: { baseUrl: platform.url, apiToken: TOKEN, apiForm: 'current' },
		});
		expect(result.error?.message).toMatch(/redirect to .*\/api\/v1\/user\/myInfo \(HTTP 307\)/);
		expect(elsewhere.requests).toHaveLength(0);
	});
});

describe('6. the token never appears, however the platform echoes it', () => {
	const echo = {
		status: '1',
		message: 'Message sent successfully.',
		wa_message_id: 'wamid.ECHO',
		note: `Sent with token ${TOKEN}.`,
		debug_request: `POST /api/v1/whatsapp/send?apiToken=${encodeURIComponent(TOKEN)}`,
		lower_hex: `apiToken=${encodeURIComponent(TOKEN).toLowerCase()}`,
		form: `apiToken=${encodeURIComponent(TOKEN).replace(/%20/g, '+')}&phone_number=1`,
		payload: JSON.stringify({ token_used: TOKEN }),
		nested: { deeper: [TOKEN] },
		[TOKEN]: 'a key',
	};
	/** What n8n and the node logged in this test: something (the recording works), and never the token. */
	function expectLogsWithoutToken() {
		expect(logs.some((line) => line.source.startsWith('n8n logger'))).toBe(true);
		expect(tokenInLogs(logs)).toEqual([]);
	}

	for (const [driver, nodeType] of DRIVERS)
		for (const [mode, extra] of MODES)
			it(`a success echoing it (${driver}, ${mode}): not in output items, run data or log lines, in any encoding`, async () => {
				const server = await serve((_request, response) =>
					text(response, 200, JSON.stringify(echo)),
				);
				const result = await sendText(nodeType, server.url, extra);
				expect(result.error).toBeUndefined();
				expect(result.items[0].json).toMatchObject({
					wa_message_id: 'wamid.ECHO',
					note: 'Sent with token ***.',
					lower_hex: 'apiToken=***',
				});
				expect(result.items[0].pairedItem).toEqual({ item: 0 });
				expect(leaksToken(result.items)).toEqual([]);
				expect(leaksToken(result.run)).toEqual([]);
				expectLogsWithoutToken();
				// The token did go where the API reads it.
				expect(server.requests[0].body).toContain(
					`apiToken=${encodeURIComponent(TOKEN).replace(/%20/g, '+')}`,
				);
			});

	/** Failures whose answer carries the token, one per outcome: refused, may have been delivered, not sent. */
	const ECHOING_FAILURES: Array<[string, (response: ServerResponse) => void, RegExp]> = [
		[
			'a refusal (`status: "0"`, URL-encoded)',
			(response) =>
				text(
					response,
					200,
					JSON.stringify({ status: '0', message: `Bad token ${encodeURIComponent(TOKEN)}` }),
				),
			/^Bad token \*\*\*$/,
		],
		[
			'HTTP 500, a PHP error page printing it',
			(response) =>
				text(response, 500, `<b>Fatal error</b>: bad token ${TOKEN} in /app.php`, {
					'Content-Type': 'text/html',
				}),
			/^The message may have been delivered: /,
		],
		[
			'HTTP 200 cut off after echoing it (JSON-escaped)',
			(response) =>
				text(response, 200, `{"status":"1","token":${JSON.stringify(TOKEN)},"message":"Sent`),
			/^The message may have been delivered: /,
		],
		[
			'HTTP 429 past the ceiling, naming it (form-encoded)',
			(response) =>
				text(
					response,
					429,
					JSON.stringify({
						status: '0',
						message: `Too many requests for apiToken=${encodeURIComponent(TOKEN).replace(/%20/g, '+')}`,
					}),
					{ 'Retry-After': '99999' },
				),
			/^Not sent: /,
		],
	];
	for (const [driver, nodeType] of DRIVERS)
		for (const [answer, respond, message] of ECHOING_FAILURES)
			for (const [mode, extra] of MODES)
				it(`${answer} (${driver}, ${mode}): not in the error, run data or log lines`, async () => {
					const server = await serve((_request, response) => respond(response));
					const result = await sendText(nodeType, server.url, extra);
					const failure = failureOf(result);
					expect(failure?.message).toMatch(message);
					expect(leaksToken(failure)).toEqual([]);
					expect(leaksToken(result.items)).toEqual([]);
					expect(leaksToken(result.run)).toEqual([]);
					expectLogsWithoutToken();
					if ('continueOnFail' in extra) expect(result.items[0].pairedItem).toEqual({ item: 0 });
					// A stopped run is logged with its whole error: the line that would carry the token.
					else
						expect(logs.map((line) => line.args[0])).toContain(
							'Workflow execution finished with error',
						);
				});

	it('in a read (User → Get Me)', async () => {
		const server = await serve((_request, response) =>
			text(response, 200, JSON.stringify({ status: '1', message: { name: 'x', api_key: TOKEN } })),
		);
		const read = await runNode({
			parameters: { resource: 'user', operation: 'getMe' },
			credentials: { baseUrl: server.url, apiToken: TOKEN, apiForm: 'current' },
		});
		expect(read.error).toBeUndefined();
		expect(leaksToken(read.run)).toEqual([]);
		expectLogsWithoutToken();
	});

	it('redact and redactDeep: raw, URL-encoded (%20 and +, either hex case), JSON-escaped, doubly JSON-escaped', () => {
		const forms = tokenForms(TOKEN);
		for (const form of [...forms, encodeURIComponent(TOKEN).toLowerCase()])
			expect(redact(`before ${form} after`, TOKEN)).toBe('before *** after');
		expect(redactDeep({ [TOKEN]: [TOKEN, 1, null] }, TOKEN)).toEqual({ '***': ['***', 1, null] });
	});

	it('the log check finds the token in every form, inside an error’s cause', () => {
		for (const form of tokenForms(TOKEN)) {
			const cause = Object.assign(new Error('request failed'), { config: { data: `x=${form}` } });
			const line = {
				source: 'n8n logger (debug)',
				args: ['failed', { error: new Error('x', { cause }) }],
			};
			expect(tokenInLogs([line])).toContain(form);
		}
	});
});

describe('7 and 8. the Base URL is checked before any request, and its secrets are never shown', () => {
	it.each([
		['with a user and password', 'https://admin:s3cr3t-pass@HOST', /user name or password/],
		['with a query', 'http://HOST/?page=1', /contains a query \(\?…\)/],
		['with a fragment', 'http://HOST/#/dashboard', /contains a fragment \(#…\)/],
		[
			'with another scheme',
			'ftp://HOST',
			/starts with ftp:\/\/, which is not http:\/\/ or https:\/\//,
		],
		[
			'with an API endpoint',
			'http://HOST/api/v1/whatsapp/send',
			/contains the API path \/api\/v1\/whatsapp\/send/,
		],
	])(
		'%s: an error naming the field and the fix, nothing sent (both paths)',
		async (_name, template, problem) => {
			for (const [, nodeType] of DRIVERS) {
				const server = await serve((_request, response) => text(response, 200, JSON.stringify(OK)));
				const baseUrl = template.replace('HOST', server.url.replace('http://', ''));
				for (const [, extra] of MODES) {
					const result = await sendText(nodeType, baseUrl, extra);
					const failure = failureOf(result);
					expect(failure?.message).toMatch(/^Base URL: /);
					expect(failure?.message).toMatch(problem);
					expect(failure?.message).toMatch(
						/Type only your platform’s address, e\.g\. https:\/\/botsailor\.com/,
					);
					expect(JSON.stringify(result.run)).not.toContain('s3cr3t-pass');
				}
				expect(server.requests).toHaveLength(0);
			}
		},
	);

	it('trims the token and the Base URL', async () => {
		const server = await serve((_request, response) => text(response, 200, JSON.stringify(OK)));
		const result = await sendText(bulk, `  ${server.url}/ \n`, { apiToken: `  ${TOKEN}\n` });
		expect(result.error).toBeUndefined();
		expect(server.requests[0].body).toContain(
			`apiToken=${encodeURIComponent(TOKEN).replace(/%20/g, '+')}&`.slice(0, -1),
		);
		expect(server.requests[0].body).not.toMatch(/apiToken=(\+|%20|%0A)/);
	});

	it('a path copied from the address bar (/dashboard): the 404 says what to type', async () => {
		const server = await serve((_request, response) => {
			response.writeHead(404, { 'Content-Type': 'text/html' });
			response.end('<!DOCTYPE html><html><body>404 Not Found</body></html>');
		});
		for (const [, nodeType] of DRIVERS) {
			const result = await sendText(nodeType, `${server.url}/dashboard`, { continueOnFail: true });
			const failure = result.items[0].error;
			expect(failure?.message).toBe(
				'The platform answered with a web page instead of an API response (HTTP 404)',
			);
			expect(failure?.description).toContain(
				`The Base URL has the path /dashboard, under which the platform has no API: if it was copied from the browser’s address bar, type only ${server.url}.`,
			);
		}
	});
});

describe('9. WhatsApp limits are refused before any request, naming the field', () => {
	const buttons = (titles: string[]) => ({
		resource: 'message',
		operation: 'sendButtons',
		phoneNumberId: numberById,
		phoneNumber: '={{ $json.phone }}',
		message: 'Pick one',
		buttons: { button: titles.map((title) => ({ title })) },
		additionalFields: {},
	});
	it.each([
		[
			'Send Text, 4,097 characters',
			{ message: 'x'.repeat(4097) },
			'Message is too long for WhatsApp: 4097 characters, at most 4096',
		],
		[
			'Send Text, a megabyte',
			{ message: 'x'.repeat(1_048_576) },
			'Message is too long for WhatsApp: 1048576 characters, at most 4096',
		],
		[
			'Send Text, 4,097 emoji',
			{ message: '😀'.repeat(4097) },
			'Message is too long for WhatsApp: 4097 characters, at most 4096',
		],
		[
			'Send Buttons, a 21-character title',
			buttons(['x'.repeat(21)]),
			'Button 1 Title is too long for WhatsApp: 21 characters, at most 20',
		],
		[
			'Send Buttons, a 1,025-character body',
			{ ...buttons(['Yes']), message: 'x'.repeat(1025) },
			'Message is too long for WhatsApp: 1025 characters, at most 1024',
		],
		[
			'Send Buttons, a 61-character header',
			{ ...buttons(['Yes']), additionalFields: { headerText: 'h'.repeat(61) } },
			'Header Text is too long for WhatsApp: 61 characters, at most 60',
		],
		[
			'Send Buttons, a 61-character footer',
			{ ...buttons(['Yes']), additionalFields: { footerText: 'f'.repeat(61) } },
			'Footer Text is too long for WhatsApp: 61 characters, at most 60',
		],
	])('%s', async (_name, parameters, message) => {
		for (const [, nodeType] of DRIVERS)
			for (const [, extra] of MODES) {
				const server = await serve((_request, response) => text(response, 200, JSON.stringify(OK)));
				const result = await sendText(nodeType, server.url, { ...extra, parameters });
				const failure = failureOf(result);
				expect(failure?.message).toBe(message);
				expect(failure?.description).toMatch(/Nothing was sent to the platform\.$/);
				expect(server.requests).toHaveLength(0);
			}
	});

	it('4,096 characters of text and 20-character titles are sent', async () => {
		const server = await serve((_request, response) => text(response, 200, JSON.stringify(OK)));
		const result = await sendText(bulk, server.url, { parameters: { message: 'x'.repeat(4096) } });
		expect(result.error).toBeUndefined();
		const titles = await sendText(bulk, server.url, {
			parameters: buttons(['y'.repeat(20), 'Yes']),
		});
		expect(titles.error).toBeUndefined();
		expect(server.requests).toHaveLength(2);
	});

	it('a Send Media caption over 1,024 characters', async () => {
		const server = await serve((_request, response) => text(response, 200, JSON.stringify(OK)));
		const result = await sendText(bulk, server.url, {
			parameters: {
				resource: 'message',
				operation: 'sendMedia',
				phoneNumberId: numberById,
				phoneNumber: '={{ $json.phone }}',
				source: 'url',
				mediaUrl: 'https://example.com/menu.jpg',
				additionalFields: { caption: 'c'.repeat(1025) },
			},
		});
		expect(result.error?.message).toBe(
			'Caption is too long for WhatsApp: 1025 characters, at most 1024',
		);
		expect(server.requests).toHaveLength(0);
	});
});

describe('10. Options → Timeout is a deadline for the whole request', () => {
	/** Headers at once, then one byte every 100 ms, never ending: n8n's idle timeout never fires. */
	function trickle(_request: Seen, response: ServerResponse) {
		response.writeHead(200, { 'Content-Type': 'application/json' });
		response.write('{');
		const timer = setInterval(() => {
			if (response.destroyed || response.writableEnded) return clearInterval(timer);
			response.write(' ');
		}, 100);
		response.on('close', () => clearInterval(timer));
	}
	for (const [driver, nodeType] of DRIVERS)
		for (const [mode, extra] of MODES)
			it(`a server trickling a byte at a time is cut at the deadline (${driver}, ${mode})`, async () => {
				const server = await serve(trickle);
				// Without the deadline it never ends (n8n's timeout is an idle timeout): jest's own timeout would fail it.
				const result = await sendText(nodeType, server.url, {
					...extra,
					parameters: { requestOptions: { timeout: 800 } },
				});
				const failure = failureOf(result);
				expect(failure?.message).toBe(
					'The message may have been delivered: The connection to the platform timed out: no complete answer within 0.8 s',
				);
				// Sent at most once; on a loaded machine the deadline can cut it before the server has recorded it.
				expect(server.requests.length).toBeLessThanOrEqual(1);
			});
});
