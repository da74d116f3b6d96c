import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

/** The credential type of every node of the package; its fields' meaning lives here, read by the nodes and by the credential itself. */
export const CREDENTIAL_TYPE = 'botSailorApi';

const BASE_URL_EXAMPLE =
	'Type only your platform’s address, e.g. https://botsailor.com or wa.youragency.com';

/**
 * A Base URL mistake, thrown by apiBaseUrl (so by the credential's authenticate, before any request). Its message
 * names the field, says what is wrong and what to type; it never repeats a user name or password written into the URL.
 */
export class BaseUrlError extends Error {
	constructor(problem: string) {
		super(`Base URL: ${problem}. ${BASE_URL_EXAMPLE}.`);
		this.name = 'BaseUrlError';
	}
}

/** The parts of a Base URL, trimmed, without a trailing slash or /api/v1; a missing scheme is https. */
function parsedBaseUrl(baseUrl: unknown): URL {
	let text = String(baseUrl ?? '').trim();
	if (text === '') throw new BaseUrlError('it is empty');
	const scheme = /^([a-z][a-z\d+.-]*):\/\//i.exec(text)?.[1];
	if (scheme === undefined) {
		// "host:port" and "//host" are a host without a scheme too.
		if (/^[a-z][a-z\d+.-]*:(?!\d)/i.test(text))
			throw new BaseUrlError(`"${text.split(':')[0]}:" is not http:// or https://`);
		text = `https://${text.replace(/^\/+/, '')}`;
	} else if (!/^https?$/i.test(scheme)) {
		throw new BaseUrlError(`it starts with ${scheme}://, which is not http:// or https://`);
	}
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	if (!url) throw new BaseUrlError('it is not a web address');
	if (url.username || url.password)
		throw new BaseUrlError(
			'it contains a user name or password (user:password@); the API token is what signs in, remove them',
		);
	if (url.search) throw new BaseUrlError('it contains a query (?…), remove it and what follows');
	if (url.hash) throw new BaseUrlError('it contains a fragment (#…), remove it and what follows');
	const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/i, '');
	// An endpoint copied from the API documentation: the node adds /api/v1/… itself.
	const endpoint = /\/api(\/v\d+)?(\/.*)?$/i.exec(path);
	if (endpoint)
		throw new BaseUrlError(
			`it contains the API path ${endpoint[0]}, which the node adds itself; remove it`,
		);
	url.pathname = path;
	return url;
}

/**
 * Accepts `https://host`, `https://host/`, `https://host/api/v1/` and a bare `host` alike: a Base URL without a
 * scheme is taken as `https://` (an explicit `http://` is kept). A path is kept (a platform may live under one).
 * Throws BaseUrlError for what cannot be a platform's address: another scheme, a user name or password, a query,
 * a fragment, an API endpoint path.
 */
export function apiBaseUrl(baseUrl: unknown): string {
	const url = parsedBaseUrl(baseUrl);
	return `${url.origin}${url.pathname.replace(/\/+$/, '')}/api/v1`;
}

/** The Base URL problem, in words, or undefined when the Base URL is usable. */
export function baseUrlProblem(baseUrl: unknown): string | undefined {
	try {
		apiBaseUrl(baseUrl);
		return undefined;
	} catch (error) {
		return (error as Error).message;
	}
}

/** The hint that a failure of a path, a page or a host gives about the Base URL, with the address to type instead. */
export function baseUrlHint(baseUrl: unknown, failure: 'notFound' | 'page'): string | undefined {
	let url: URL;
	try {
		url = parsedBaseUrl(baseUrl);
	} catch {
		return undefined;
	}
	if (url.pathname === '' || url.pathname === '/') return undefined;
	return `The Base URL has the path ${url.pathname}${failure === 'notFound' ? ', under which the platform has no API' : ''}: if it was copied from the browser’s address bar, type only ${url.origin}.`;
}

/**
 * The default of Max Sends in Flight: the most requests one n8n process sends to the account at once (the pace,
 * pace.ts, starts at 6 and adapts under it). 24 in flight at a 300 ms round trip is 80 messages a second,
 * WhatsApp's default throughput per business number: more would only queue on the platform.
 */
export const DEFAULT_SENDS_IN_FLIGHT = 24;
/** The highest Max Sends in Flight accepted. */
export const MAX_SENDS_IN_FLIGHT = 200;

/**
 * The credential's Max Sends in Flight as a whole number from 1 to MAX_SENDS_IN_FLIGHT; anything else (an older
 * credential without the field, an empty or invalid value) is the default.
 */
export function sendsInFlight(credentials: ICredentialDataDecryptedObject | undefined): number {
	const value = Number(credentials?.maxSendsInFlight);
	return Number.isInteger(value) && value >= 1 && value <= MAX_SENDS_IN_FLIGHT
		? value
		: DEFAULT_SENDS_IN_FLIGHT;
}

/**
 * The default of Rate Limit Wait Budget: the most time one run of the node spends waiting on the platform's rate limit
 * (HTTP 429 and 503, their Retry-After and the backoff between tries, summed over the run's sends). Once it is used up
 * the run stops waiting: what is left is "Not sent" with the reason, so a run against a platform that answers nothing
 * but 429 ends in about this long, not items × retries × Retry-After.
 */
export const DEFAULT_RATE_LIMIT_BUDGET_SECONDS = 300;

/** The credential's Rate Limit Wait Budget in ms (0 and up; anything else, an older credential included, the default). */
export function rateLimitBudgetMs(credentials: ICredentialDataDecryptedObject | undefined): number {
	const raw = credentials?.rateLimitBudgetSeconds;
	const value = raw === undefined || raw === '' || raw === null ? Number.NaN : Number(raw);
	return (Number.isFinite(value) && value >= 0 ? value : DEFAULT_RATE_LIMIT_BUDGET_SECONDS) * 1000;
}

function isJsonRequest(options: IHttpRequestOptions): boolean {
	const contentType = Object.entries(options.headers ?? {}).find(
		([name]) => name.toLowerCase() === 'content-type',
	)?.[1];
	return String(contentType ?? '').includes('application/json');
}

/**
 * The credential's authenticate (and the credential test's request): the Base URL as baseURL, the token where the
 * API reads it, and never into a URL unless the request is a GET.
 */
export function authenticatedRequest(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): IHttpRequestOptions {
	// Trimmed: a token copied with a space or a line break around it is the same token.
	const apiToken = String(credentials.apiToken ?? '').trim();
	const options: IHttpRequestOptions = {
		...requestOptions,
		baseURL: apiBaseUrl(credentials.baseUrl),
		headers: { ...(requestOptions.headers ?? {}) },
	};
	const method = (options.method ?? 'GET').toUpperCase();
	const body = options.body;

	if (body instanceof FormData) {
		body.set('apiToken', apiToken);
		options.headers!.Authorization = `Bearer ${apiToken}`;
	} else if (method === 'GET' || method === 'HEAD') {
		options.qs = { ...(options.qs ?? {}), apiToken };
	} else {
		const fields = body && typeof body === 'object' ? body : {};
		options.body = { ...fields, apiToken };
		if (isJsonRequest(options)) options.headers!.Authorization = `Bearer ${apiToken}`;
	}
	return options;
}
