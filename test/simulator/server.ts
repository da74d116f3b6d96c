/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test infrastructure runs in plain Node.js, not inside n8n */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Faults, PROCESSING_FAULTS } from './faults';
import type { Reply, Route, UploadedFile } from './route';
import { allRoutes } from './routes';
import { seedState, type SeedOptions } from './seed';
import type { SimState } from './state';
import { controlRoutes } from './control';
import { serveMedia } from './media';
import { serveModel } from './model';
import { servePhone } from './phone';

/** A recognisable test token, so a leak into any output cannot hide. Not a real secret. */
export const SIMULATOR_TEST_CREDENTIAL = 'SIMTOKEN-4f2a9c7e-do-not-leak';

/** One request as the simulator received it, for tests to assert on. */
export interface RecordedRequest {
	method: string;
	/** Path under /api/v1, e.g. `/user/myInfo`. */
	path: string;
	/** The full URL path and query string as received (to check that no token sits in a URL). */
	url: string;
	query: Record<string, string>;
	/** Form, JSON or multipart fields, without apiToken. */
	body: Record<string, unknown>;
	files: Record<string, Omit<UploadedFile, 'bytes'>>;
	contentType: string;
	/** Where the token was found, as the API reads it. */
	tokenIn: Array<'query' | 'body' | 'bearer'>;
	/**
	 * Where the simulator's token occurs in what actually arrived, byte for byte: the request line's URL,
	 * each header (by name) and the raw body, with the number of occurrences. Tests assert on this, not on
	 * the parsed fields (from which apiToken is removed).
	 */
	tokenOnWire: string[];
	headers: http.IncomingHttpHeaders;
}

/** Every place of a raw request where `token` occurs: 'url', 'header:<name>', 'body×<count>'. */
function tokenPlaces(token: string, url: string, rawHeaders: string[], body: Buffer): string[] {
	const places: string[] = [];
	if (!token) return places;
	if (url.includes(token) || decodeURIComponent(url).includes(token)) places.push('url');
	for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
		if (rawHeaders[index + 1].includes(token))
			places.push(`header:${rawHeaders[index].toLowerCase()}`);
	}
	const occurrences = body.toString('latin1').split(token).length - 1;
	if (occurrences > 0) places.push(`body×${occurrences}`);
	return places;
}

export interface SimulatorOptions {
	token?: string;
	port?: number;
	host?: string;
	seed?: SeedOptions;
}

export interface Simulator {
	/** The server root, e.g. http://127.0.0.1:5050 (what a user types as Base URL). */
	url: string;
	token: string;
	state: SimState;
	requests: RecordedRequest[];
	faults: Faults;
	/** Forgets the recorded requests. */
	clearRequests(): void;
	/** Replaces the world with a fresh seed, clears the faults and requests, and accepts connections again if refusing. */
	reset(seed?: SeedOptions): void;
	/**
	 * Refuses TCP connections (clients get ECONNREFUSED) for `ms` milliseconds, then listens again on the same port.
	 * Effective on return: the listening socket is closed at once. Connections already open finish their current request
	 * and are then closed (`Connection: close`), so no kept-alive socket slips a request in; idle ones are closed at once.
	 * Calling it again while refusing restarts the window with the new `ms`.
	 * SPEC-GAP: the spec says nothing about refused connections; this models a reverse proxy/CDN (or the platform's
	 * web server) restarting in front of the platform. Only a time window is offered: a refused connection never reaches
	 * the process (the kernel answers it), so "the next N connection attempts" cannot be counted.
	 */
	refuseConnections(ms: number): void;
	/** Resolves when the simulator accepts connections (at once unless refusing); rejects if it could not listen again. */
	whenAccepting(): Promise<void>;
	close(): Promise<void>;
}

const LOGIN_PAGE =
	'<!DOCTYPE html><html><head><title>Login</title></head><body><form action="/login"><input name="email"></form></body></html>';

async function readBody(request: http.IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

interface Parsed {
	fields: Record<string, unknown>;
	files: Record<string, UploadedFile>;
	malformed?: string;
}

async function parseRequest(request: http.IncomingMessage, raw: Buffer, url: URL): Promise<Parsed> {
	const fields: Record<string, unknown> = Object.fromEntries(url.searchParams.entries());
	const files: Record<string, UploadedFile> = {};
	const contentType = String(request.headers['content-type'] ?? '');
	if (raw.length === 0) return { fields, files };
	if (contentType.includes('application/json')) {
		try {
			Object.assign(fields, JSON.parse(raw.toString('utf8')));
		} catch {
			return { fields, files, malformed: 'The request body is not valid JSON.' };
		}
	} else if (contentType.includes('multipart/form-data')) {
		const form = await new Request('http://simulator/', {
			method: 'POST',
			headers: { 'content-type': contentType },
			body: raw,
		}).formData();
		for (const [name, value] of form.entries()) {
			if (typeof value === 'string') fields[name] = value;
			else {
				const bytes = Buffer.from(await value.arrayBuffer());
				files[name] = {
					name: value.name,
					type: value.type,
					size: bytes.length,
					sha256: createHash('sha256').update(bytes).digest('hex'),
					bytes,
				};
			}
		}
	} else {
		Object.assign(fields, Object.fromEntries(new URLSearchParams(raw.toString('utf8')).entries()));
	}
	return { fields, files };
}

/** What the simulator answers: a status, a body (JSON unless a string with another content type) and extra headers. */
interface Answer {
	status: number;
	body: unknown;
	contentType?: string;
	headers?: Record<string, string>;
}

const REDIRECT_TO_LOGIN: Answer = {
	status: 302,
	body: '<html><body>Redirecting to /login</body></html>',
	contentType: 'text/html',
	headers: { location: '/login' },
};

/**
 * nginx's default error page for a gateway failure, e.g. "504 Gateway Time-out".
 * SPEC-GAP: the spec says nothing about gateways; this is what a reverse proxy/CDN in front of the platform shows.
 */
function gatewayPage(title: string): string {
	return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

/** Retry-After for a 503/429 fault that asks for one. */
function retryAfter(seconds: number | undefined): Record<string, string> {
	return seconds === undefined ? {} : { 'retry-after': String(seconds) };
}

/** The request as the API part of the handler needs it, after the token has been taken out of the fields. */
interface Received {
	method: string;
	path: string;
	contentType: string;
	parsed: Parsed;
	fields: Record<string, unknown>;
	presented: string | undefined;
}

/** Explains the first problem with an endpoint's parameters the way a PHP API would: one sentence. */
function parameterProblem(route: Route, fields: Record<string, unknown>): string | undefined {
	const known = Object.keys(route.params.shape);
	const unknown = Object.keys(fields).filter(
		(key) => !known.includes(key) && !route.extraParams?.test(key),
	);
	if (unknown.length) return `Unknown parameter: ${unknown.join(', ')}.`;
	const result = route.params.safeParse(fields);
	if (result.success) return undefined;
	const issue = result.error.issues[0];
	const field = issue.path.join('.');
	if (fields[String(issue.path[0])] === undefined) return `The ${field} field is required.`;
	return `The ${field} field is invalid: ${issue.message}.`;
}

/**
 * A list of one record answered as the record itself, as some deployments do.
 * SPEC-GAP: the spec shows lists as arrays; state.listOfOneAsObject models the deployments that do not.
 */
function listOfOneAsObject(body: unknown): unknown {
	const envelope = body as { message?: unknown };
	return Array.isArray(envelope?.message) && envelope.message.length === 1
		? { ...envelope, message: envelope.message[0] }
		: body;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
	const token = options.token ?? SIMULATOR_TEST_CREDENTIAL;
	const faults = new Faults();
	const requests: RecordedRequest[] = [];
	const routes = new Map(allRoutes.map((route) => [route.path, route]));
	let state = seedState(options.seed);

	/** Refused connections: the timer that listens again, and who waits for it. */
	const refusal: {
		timer?: NodeJS.Timeout;
		accepting: Promise<void>;
		resume(): void;
		fail(error: Error): void;
	} = { accepting: Promise.resolve(), resume: () => {}, fail: () => {} };
	let closed = false;

	/** The in-flight slot of each API request (Faults.enter), given back once its answer is written. */
	const slots = new WeakMap<http.ServerResponse, () => void>();

	/** Writes an answer; while refusing connections, closes the connection after it so that no kept-alive socket is reused. */
	function send(
		response: http.ServerResponse,
		status: number,
		body: unknown,
		contentType = 'application/json',
		headers: Record<string, string> = {},
	) {
		const text = typeof body === 'string' ? body : JSON.stringify(body);
		if (refusal.timer) response.shouldKeepAlive = false;
		response.writeHead(status, {
			...headers,
			'content-type': contentType,
			'content-length': Buffer.byteLength(text),
		});
		response.end(text);
		slots.get(response)?.();
	}
	const respond = (response: http.ServerResponse, answer: Answer) =>
		send(response, answer.status, answer.body, answer.contentType, answer.headers);

	/**
	 * Everything after the fault checks: the token, the route, its parameters, then the route's handler, which changes
	 * the state (a send is recorded in state.messages) and builds the reply. Used for the normal answer and for the
	 * processThen* faults, which throw that reply away.
	 */
	function processApiRequest({
		method,
		path,
		contentType,
		parsed,
		fields,
		presented,
	}: Received): Answer {
		if (!presented) return REDIRECT_TO_LOGIN;
		// SPEC-GAP: the answer to a missing or wrong apiToken is not shown; this is Laravel's (HTTP 401, 'Unauthenticated.').
		if (presented !== token)
			return { status: 401, body: { status: '0', message: 'Unauthenticated.' } };
		const route = routes.get(path);
		if (!route)
			return {
				status: 404,
				body: '<!DOCTYPE html><html><body><h1>404 Not Found</h1></body></html>',
				contentType: 'text/html',
			};
		if (!(route.methods ?? ['GET', 'POST']).includes(method as 'GET' | 'POST')) {
			return {
				status: 405,
				body: '<!DOCTYPE html><html><body><h1>405 Method Not Allowed</h1></body></html>',
				contentType: 'text/html',
			};
		}
		if (parsed.malformed) return { status: 200, body: { status: '0', message: parsed.malformed } };
		if (contentType.includes('application/json') && !route.json)
			return { status: 200, body: { status: '0', message: 'JSON bodies are not accepted here.' } };
		if (contentType.includes('multipart/form-data') && !route.multipart)
			return {
				status: 200,
				body: { status: '0', message: 'Multipart bodies are not accepted here.' },
			};
		const problem = parameterProblem(route, fields);
		if (problem) return { status: 200, body: { status: '0', message: problem } };
		const reply = route.handle({
			params: route.params.parse(fields),
			files: parsed.files,
			state,
			method,
		});
		const { httpStatus, body } = (
			'body' in reply && typeof reply.body === 'object' ? reply : { body: reply }
		) as Reply;
		return {
			status: httpStatus ?? 200,
			body: state.listOfOneAsObject ? listOfOneAsObject(body) : body,
		};
	}

	const server = http.createServer(async (request, response) => {
		const url = new URL(request.url ?? '/', 'http://simulator');
		// An API request is in flight from its arrival (before its body is read) until it is answered or the client goes away.
		const slot = url.pathname.startsWith('/api/v1/') ? faults.enter() : undefined;
		if (slot) {
			slots.set(response, slot.done);
			response.once('close', slot.done);
		}
		try {
			state.sync();
			if (servePhone(url.pathname, response)) return; // the customer's phone page (phone.ts): no token
			if (url.pathname === '/login') return send(response, 200, LOGIN_PAGE, 'text/html');
			if (serveMedia(state, url.pathname, response)) return; // media links (media.ts): public files, no token
			const raw = await readBody(request);
			// The demo's chat model stand-in (model.ts): not BotSailor's API, no token.
			if (serveModel(request.method ?? 'GET', url.pathname, raw, response)) return;
			if (url.pathname.startsWith('/__control/')) {
				const handler = controlRoutes[url.pathname.slice('/__control/'.length)];
				if (!handler) return send(response, 404, { error: 'unknown control action' });
				const input = raw.length ? JSON.parse(raw.toString('utf8')) : {};
				return send(response, 200, {
					ok: true,
					result:
						handler({
							state,
							faults,
							requests,
							input,
							reset: (seed?: SeedOptions) => {
								state.statuses.stop();
								state = seedState(seed);
							},
							refuseConnections,
						}) ?? null,
				});
			}
			if (!url.pathname.startsWith('/api/v1/'))
				return send(response, 404, '<html><body>Not Found</body></html>', 'text/html');
			const path = url.pathname.slice('/api/v1'.length).replace(/\/+$/, '');
			const parsed = await parseRequest(request, raw, url);
			const bearer = /^Bearer\s+(.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
			const tokenIn: RecordedRequest['tokenIn'] = [];
			if (url.searchParams.has('apiToken')) tokenIn.push('query');
			if (raw.length && parsed.fields.apiToken !== undefined && !url.searchParams.has('apiToken'))
				tokenIn.push('body');
			if (bearer) tokenIn.push('bearer');
			const presented = (parsed.fields.apiToken as string | undefined) ?? bearer;
			const fields = { ...parsed.fields };
			delete fields.apiToken;
			requests.push({
				method: request.method ?? 'GET',
				path,
				url: request.url ?? '',
				query: Object.fromEntries(url.searchParams.entries()),
				body: fields,
				files: Object.fromEntries(
					Object.entries(parsed.files).map(([name, file]) => [
						name,
						{ name: file.name, type: file.type, size: file.size, sha256: file.sha256 },
					]),
				),
				contentType: String(request.headers['content-type'] ?? ''),
				tokenIn,
				headers: request.headers,
				tokenOnWire: tokenPlaces(token, request.url ?? '', request.rawHeaders, raw),
			});
			const received: Received = {
				method: (request.method ?? 'GET').toUpperCase(),
				path,
				contentType: String(request.headers['content-type'] ?? ''),
				parsed,
				fields,
				presented,
			};

			// Over the concurrency cap: refused at once, before any latency or fault, like a rate limiter in front of the platform.
			if (slot?.overCapacity) {
				faults.overCapacity++;
				return send(response, 429, { status: '0', message: 'Too Many Requests' });
			}
			const fault = faults.take(path);
			const processesFirst = fault !== undefined && PROCESSING_FAULTS.includes(fault.kind);
			const wait = () => new Promise((resolve) => setTimeout(resolve, fault?.latencyMs));
			if (fault?.latencyMs && !processesFirst) await wait();
			if (fault?.kind === 'drop') return request.socket.destroy();
			if (fault?.kind === 'timeout') return; // never answers; the client's timeout fires
			if (fault?.kind === 'rate429') {
				return send(
					response,
					429,
					{ status: '0', message: 'Too Many Requests' },
					undefined,
					retryAfter(fault.retryAfterSeconds),
				);
			}
			if (fault?.kind === 'unavailable503') {
				return send(
					response,
					503,
					'<!DOCTYPE html><html><body><h1>503 Service Unavailable</h1></body></html>',
					'text/html',
					retryAfter(fault.retryAfterSeconds),
				);
			}
			if (fault?.kind === 'html500')
				return send(
					response,
					500,
					'<!DOCTYPE html><html><body><h1>500 Internal Server Error</h1></body></html>',
					'text/html',
				);
			if (fault?.kind === 'malformed')
				return send(response, 200, '{"status":"1","message":[{"id":1,', 'application/json');
			if (fault?.kind === 'status0')
				return send(response, 200, {
					status: '0',
					message: fault.message ?? 'Something went wrong.',
				});
			if (fault?.kind === 'answer') return send(response, 200, fault.body ?? {});
			if (fault?.kind === 'unauthorized')
				return send(response, 401, { status: '0', message: 'Unauthenticated.' });
			if (fault?.kind === 'redirect') return respond(response, REDIRECT_TO_LOGIN);
			// SPEC-GAP: a moved domain or a CDN in front of the platform; the target is another host (a closed port).
			if (fault?.kind === 'redirectOffsite')
				return respond(response, {
					status: 307,
					body: '',
					contentType: 'text/html',
					headers: { location: 'http://127.0.0.1:9/moved' },
				});
			// SPEC-GAP (see FaultKind): a gateway in front of the platform loses the answer after the platform acted. Over the
			// concurrency cap such a request was answered 429 above without being processed, like any other.
			if (processesFirst) {
				processApiRequest(received); // done, state changed; its answer is lost
				if (fault.latencyMs) await wait();
				if (fault.kind === 'processThenDrop') return request.socket.destroy();
				// SPEC-GAP: PHP (or a proxy) cuts the body after the platform acted: HTTP 200, then half the JSON or nothing.
				if (fault.kind === 'processThenTruncated')
					return send(
						response,
						200,
						'{"status":"1","message":"Message sent succ',
						'application/json',
					);
				if (fault.kind === 'processThenEmpty') return send(response, 200, '', 'application/json');
				return send(
					response,
					fault.kind === 'processThen504' ? 504 : 502,
					gatewayPage(fault.kind === 'processThen504' ? '504 Gateway Time-out' : '502 Bad Gateway'),
					'text/html',
				);
			}
			return respond(response, processApiRequest(received));
		} catch (error) {
			return send(
				response,
				500,
				`<html><body>Simulator error: ${(error as Error).message}</body></html>`,
				'text/html',
			);
		}
	});
	server.keepAliveTimeout = 1000;

	const listen = (port: number, host: string) =>
		new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(port, host, () => {
				server.off('error', reject);
				resolve();
			});
		});
	await listen(options.port ?? 0, options.host ?? '127.0.0.1');
	const address = server.address() as AddressInfo;

	/** Listens again on the same address and port, ending a refusal window. */
	function stopRefusing() {
		if (!refusal.timer) return;
		clearTimeout(refusal.timer);
		refusal.timer = undefined;
		if (closed)
			return refusal.fail(new Error('the simulator was closed while refusing connections'));
		listen(address.port, address.address).then(refusal.resume, refusal.fail);
	}

	function refuseConnections(ms: number) {
		if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
			throw new Error(`refuseConnections needs a number of milliseconds >= 0, got ${String(ms)}`);
		if (closed) throw new Error('the simulator is closed');
		if (refusal.timer) clearTimeout(refusal.timer);
		else {
			// Closes the listening socket at once (new connections are refused by the kernel) and the idle kept-alive
			// sockets; requests in flight finish, and send() closes their connections after answering.
			server.close();
			refusal.accepting = new Promise<void>((resolve, reject) => {
				refusal.resume = resolve;
				refusal.fail = reject;
			});
			refusal.accepting.catch(() => {}); // reported to whoever awaits whenAccepting(), not as an unhandled rejection
		}
		refusal.timer = setTimeout(stopRefusing, ms);
	}

	return {
		url: `http://${address.address}:${address.port}`,
		token,
		get state() {
			return state;
		},
		requests,
		faults,
		clearRequests: () => void requests.splice(0),
		reset: (seed) => {
			state.statuses.stop();
			state = seedState(seed);
			faults.clear();
			faults.resetReport();
			requests.splice(0);
			stopRefusing();
		},
		refuseConnections,
		whenAccepting: () => refusal.accepting,
		close: () =>
			new Promise<void>((resolve) => {
				closed = true;
				state.statuses.stop();
				stopRefusing();
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
