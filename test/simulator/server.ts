/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test infrastructure runs in plain Node.js, not inside n8n */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Faults } from './faults';
import type { Reply, Route, UploadedFile } from './route';
import { allRoutes } from './routes';
import { seedState, type SeedOptions } from './seed';
import type { SimState } from './state';
import { controlRoutes } from './control';

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
	/** Where the token was found. */
	tokenIn: Array<'query' | 'body' | 'bearer'>;
	headers: http.IncomingHttpHeaders;
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
	/** Replaces the world with a fresh seed. */
	reset(seed?: SeedOptions): void;
	close(): Promise<void>;
}

const LOGIN_PAGE = '<!DOCTYPE html><html><head><title>Login</title></head><body><form action="/login"><input name="email"></form></body></html>';

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
		const form = await new Request('http://simulator/', { method: 'POST', headers: { 'content-type': contentType }, body: raw }).formData();
		for (const [name, value] of form.entries()) {
			if (typeof value === 'string') fields[name] = value;
			else {
				const bytes = Buffer.from(await value.arrayBuffer());
				files[name] = { name: value.name, type: value.type, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), bytes };
			}
		}
	} else {
		Object.assign(fields, Object.fromEntries(new URLSearchParams(raw.toString('utf8')).entries()));
	}
	return { fields, files };
}

function send(response: http.ServerResponse, status: number, body: unknown, contentType = 'application/json') {
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	response.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
	response.end(text);
}

/** Explains the first problem with an endpoint's parameters the way a PHP API would: one sentence. */
function parameterProblem(route: Route, fields: Record<string, unknown>): string | undefined {
	const known = Object.keys(route.params.shape);
	const unknown = Object.keys(fields).filter((key) => !known.includes(key) && !route.extraParams?.test(key));
	if (unknown.length) return `Unknown parameter: ${unknown.join(', ')}.`;
	const result = route.params.safeParse(fields);
	if (result.success) return undefined;
	const issue = result.error.issues[0];
	const field = issue.path.join('.');
	if (fields[String(issue.path[0])] === undefined) return `The ${field} field is required.`;
	return `The ${field} field is invalid: ${issue.message}.`;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
	const token = options.token ?? SIMULATOR_TEST_CREDENTIAL;
	const faults = new Faults();
	const requests: RecordedRequest[] = [];
	const routes = new Map(allRoutes.map((route) => [route.path, route]));
	let state = seedState(options.seed);

	const server = http.createServer(async (request, response) => {
		const url = new URL(request.url ?? '/', 'http://simulator');
		try {
			if (url.pathname === '/login') return send(response, 200, LOGIN_PAGE, 'text/html');
			const raw = await readBody(request);
			if (url.pathname.startsWith('/__control/')) {
				const handler = controlRoutes[url.pathname.slice('/__control/'.length)];
				if (!handler) return send(response, 404, { error: 'unknown control action' });
				const input = raw.length ? JSON.parse(raw.toString('utf8')) : {};
				return send(response, 200, { ok: true, result: handler({ state, faults, requests, input, reset: (seed?: SeedOptions) => (state = seedState(seed)) }) ?? null });
			}
			if (!url.pathname.startsWith('/api/v1/')) return send(response, 404, '<html><body>Not Found</body></html>', 'text/html');
			const path = url.pathname.slice('/api/v1'.length).replace(/\/+$/, '');
			const parsed = await parseRequest(request, raw, url);
			const bearer = /^Bearer\s+(.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
			const tokenIn: RecordedRequest['tokenIn'] = [];
			if (url.searchParams.has('apiToken')) tokenIn.push('query');
			if (raw.length && parsed.fields.apiToken !== undefined && !url.searchParams.has('apiToken')) tokenIn.push('body');
			if (bearer) tokenIn.push('bearer');
			const presented = (parsed.fields.apiToken as string | undefined) ?? bearer;
			const fields = { ...parsed.fields };
			delete fields.apiToken;
			requests.push({
				method: request.method ?? 'GET', path, url: request.url ?? '', query: Object.fromEntries(url.searchParams.entries()), body: fields,
				files: Object.fromEntries(Object.entries(parsed.files).map(([name, file]) => [name, { name: file.name, type: file.type, size: file.size, sha256: file.sha256 }])),
				contentType: String(request.headers['content-type'] ?? ''), tokenIn, headers: request.headers,
			});

			const release = faults.enter();
			try {
				const fault = faults.take(path);
				if (fault?.latencyMs) await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
				if (fault?.kind === 'drop') return request.socket.destroy();
				if (fault?.kind === 'timeout') return; // never answers; the client's timeout fires
				if (fault?.kind === 'rate429' || release.overCapacity) return send(response, 429, { status: '0', message: 'Too Many Requests' });
				if (fault?.kind === 'unavailable503') return send(response, 503, '<!DOCTYPE html><html><body><h1>503 Service Unavailable</h1></body></html>', 'text/html');
				if (fault?.kind === 'html500') return send(response, 500, '<!DOCTYPE html><html><body><h1>500 Internal Server Error</h1></body></html>', 'text/html');
				if (fault?.kind === 'malformed') return send(response, 200, '{"status":"1","message":[{"id":1,', 'application/json');
				if (fault?.kind === 'status0') return send(response, 200, { status: '0', message: fault.message ?? 'Something went wrong.' });
				if (fault?.kind === 'unauthorized') return send(response, 401, { status: '0', message: 'Unauthenticated.' });
				if (fault?.kind === 'redirect') {
					response.writeHead(302, { location: '/login', 'content-type': 'text/html' });
					return response.end('<html><body>Redirecting to /login</body></html>');
				}

				if (!presented) {
					response.writeHead(302, { location: '/login', 'content-type': 'text/html' });
					return response.end('<html><body>Redirecting to /login</body></html>');
				}
				if (presented !== token) return send(response, 401, { status: '0', message: 'Unauthenticated.' });

				const route = routes.get(path);
				if (!route) return send(response, 404, '<!DOCTYPE html><html><body><h1>404 Not Found</h1></body></html>', 'text/html');
				const method = (request.method ?? 'GET').toUpperCase();
				if (!(route.methods ?? ['GET', 'POST']).includes(method as 'GET' | 'POST')) {
					return send(response, 405, '<!DOCTYPE html><html><body><h1>405 Method Not Allowed</h1></body></html>', 'text/html');
				}
				if (parsed.malformed) return send(response, 200, { status: '0', message: parsed.malformed });
				const contentType = String(request.headers['content-type'] ?? '');
				if (contentType.includes('application/json') && !route.json) return send(response, 200, { status: '0', message: 'JSON bodies are not accepted here.' });
				if (contentType.includes('multipart/form-data') && !route.multipart) return send(response, 200, { status: '0', message: 'Multipart bodies are not accepted here.' });
				const problem = parameterProblem(route, fields);
				if (problem) return send(response, 200, { status: '0', message: problem });
				const reply = route.handle({ params: route.params.parse(fields), files: parsed.files, state, method });
				const { httpStatus, body } = ('body' in reply && typeof reply.body === 'object' ? reply : { body: reply }) as Reply;
				return send(response, httpStatus ?? 200, body);
			} finally {
				release.done();
			}
		} catch (error) {
			return send(response, 500, `<html><body>Simulator error: ${(error as Error).message}</body></html>`, 'text/html');
		}
	});
	server.keepAliveTimeout = 1000;

	await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
	const address = server.address() as AddressInfo;
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
			state = seedState(seed);
			faults.clear();
			requests.splice(0);
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
