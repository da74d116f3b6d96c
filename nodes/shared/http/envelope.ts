import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { operationLabel } from '../parameters/operationLabel';
import { decodedListPayload } from './listText';
import { isRecord } from '../parameters/values';
import { jsonFromText } from '../parameters/jsonStrings';

/** The HTTP response as n8n's helpers return it with `returnFullResponse`. */
export interface RawResponse {
	statusCode?: number;
	headers?: Record<string, unknown>;
	body: unknown;
}

/** Where an operation's payload sits in the envelope. */
export type PayloadShape = 'message' | 'data' | 'confirmation';

const CREDENTIAL_HINT = 'Check the Base URL and the API token of the BotSailor credential.';

function isSuccessStatus(status: unknown): boolean {
	return status === '1' || status === 1 || status === true || status === 'true';
}

/**
 * The JSON object at the start of a text, or after PHP's diagnostics: a PHP platform prints a notice, warning or
 * deprecation ahead of the body when its display_errors is on ("<br />\n<b>Notice</b>: … on line 12<br />\n{…}" or
 * "PHP Warning: …\n{…}"). SPEC-GAP: the spec shows clean JSON only (docs/spec-gaps.md).
 */
function parseJson(text: string): unknown {
	const parsed = jsonFromText(text);
	if (parsed !== undefined) return parsed;
	// Only past a diagnostic: anything else that is not JSON stays unreadable.
	const diagnostic =
		/^\s*(<br\s*\/?>\s*)?(<b>)?\s*(PHP\s+)?(Notice|Warning|Deprecated|Strict Standards)\b/i;
	if (!diagnostic.test(text)) return undefined;
	// From each brace on: one inside the notice is not yet the body.
	for (let start = text.indexOf('{'), tries = 0; start >= 0 && tries < 50; tries++) {
		const value = jsonFromText(text.slice(start));
		if (isRecord(value) && 'status' in value) return value;
		start = text.indexOf('{', start + 1);
	}
	return undefined;
}

function asEnvelope(body: unknown): IDataObject | undefined {
	let value = body;
	if (Buffer.isBuffer(value)) value = value.toString('utf8');
	if (typeof value === 'string') value = parseJson(value);
	return isRecord(value) ? value : undefined;
}

function looksLikeHtml(body: unknown): boolean {
	const text = Buffer.isBuffer(body) ? body.toString('utf8') : String(body ?? '');
	return /^\s*<(!doctype|html|head|body)/i.test(text);
}

/**
 * Keys of third-party secrets that API data may carry: the spec says the Meta access token inside a
 * template's template_json is hidden, yet deployments have been seen returning it. (Not `password`:
 * User → Create With Login Link outputs the generated password on purpose.)
 */
const SECRET_KEY = /^(access|refresh|bearer|auth|api)_?token$|^(app|client)_?secret$/i;

/**
 * API data as every reader gets it: every secret key removed, also inside strings that hold JSON
 * (such as template_json), and an email the platform sends as the text "null" made null.
 */
export function withoutSecrets(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(withoutSecrets);
	if (value && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value)
				.filter(([key]) => !SECRET_KEY.test(key))
				.map(([key, entry]) => [
					key,
					key === 'email' && entry === 'null' ? null : withoutSecrets(entry),
				]),
		);
	}
	if (typeof value === 'string' && /^\s*[[{]/.test(value) && /token|secret/i.test(value)) {
		const parsed = jsonFromText(value);
		if (parsed === undefined) return value;
		const cleaned = JSON.stringify(withoutSecrets(parsed));
		return cleaned === JSON.stringify(parsed) ? value : cleaned;
	}
	return value;
}

/**
 * Every form in which a secret can travel in a text: as is, URL-encoded (either way of encoding a space), as a
 * JSON string's content (with or without escaped slashes), and a JSON string of a JSON string.
 */
function encodingsOf(secret: string): string[] {
	const json = JSON.stringify(secret).slice(1, -1);
	const forms = [
		secret,
		encodeURIComponent(secret),
		encodeURIComponent(secret).replace(/%20/g, '+'),
		json,
		json.replace(/\//g, '\\/'),
		JSON.stringify(json).slice(1, -1),
	];
	// Longest first, so a form that contains another is replaced whole.
	return [...new Set(forms)].filter((form) => form.length > 0).sort((a, b) => b.length - a.length);
}

/** The forms of the secrets to remove, longest first, computed once per text or per answer. */
function formsOf(secret?: string | readonly string[]): string[] {
	const secrets = (typeof secret === 'string' ? [secret] : (secret ?? [])).filter(
		(value) => value.length > 0,
	);
	return [...new Set(secrets.flatMap(encodingsOf))].sort((a, b) => b.length - a.length);
}

function redactForms(text: string, forms: readonly string[]): string {
	let result = text;
	for (const form of forms) {
		if (result.length < form.length) continue;
		if (result.includes(form)) result = result.split(form).join('***');
		// URL encoding's hex digits may come in either case (%7C, %7c).
		if (form.includes('%') && result.toLowerCase().includes(form.toLowerCase()))
			result = result.replace(new RegExp(form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '***');
	}
	return result;
}

/** Removes every occurrence of the secrets, in every encoding (encodingsOf), so no API text can echo one back. */
export function redact(text: string, secret?: string | readonly string[]): string {
	return redactForms(text, formsOf(secret));
}

/** API data with every occurrence of the secrets removed from its strings and keys, by value (see redact). */
export function redactDeep<T>(value: T, secret?: string | readonly string[]): T {
	const forms = formsOf(secret);
	if (forms.length === 0) return value;
	const walk = (entry: unknown): unknown => {
		if (typeof entry === 'string') return redactForms(entry, forms);
		if (Array.isArray(entry)) return entry.map(walk);
		if (isRecord(entry))
			return Object.fromEntries(
				Object.entries(entry).map(([key, inner]) => [redactForms(key, forms), walk(inner)]),
			);
		return entry;
	};
	return walk(value) as T;
}

function apiText(envelope: IDataObject): string | undefined {
	const text = envelope.message ?? envelope.mesasge ?? envelope.error;
	if (typeof text === 'string' && text.trim() !== '') return text;
	if (text && typeof text === 'object') return JSON.stringify(text);
	return undefined;
}

/** What a 404 means here: the Base URL leads somewhere without the API (a path from the browser, another site). */
const NOT_FOUND_HINT =
	'No API answers at this address (HTTP 404). The Base URL must be only your platform’s address, e.g. https://botsailor.com or wa.youragency.com, without a path such as /dashboard copied from the browser’s address bar.';

/** A header of a response, whatever the case of its name. */
function headerOf(response: RawResponse, name: string): string | undefined {
	const entry = Object.entries(response.headers ?? {}).find(([key]) => key.toLowerCase() === name);
	return entry === undefined || entry[1] === undefined || entry[1] === null
		? undefined
		: String(entry[1]);
}

/**
 * A redirect answer (never followed: a client that follows it sends the form body, API token included, to the new
 * address): names the target, without its query (which may carry anything) or a user name and password.
 */
function redirectFailure(response: RawResponse): Failure {
	const statusCode = response.statusCode ?? 300;
	const location = headerOf(response, 'location');
	let target = 'another address';
	let origin: string | undefined;
	if (location) {
		try {
			const url = new URL(location, 'http://relative.invalid');
			origin = url.host === 'relative.invalid' ? undefined : url.origin;
			target = origin ? `${origin}${url.pathname}` : url.pathname;
		} catch {
			target = 'an address that cannot be read';
		}
	}
	const login = /login|signin|sign-in/i.test(target);
	return {
		message: `The platform answered with a redirect to ${target} (HTTP ${statusCode}); the node does not follow redirects`,
		description: login
			? `A redirect to a login page usually means a missing or refused API token, or a Base URL that is not the platform’s address. ${CREDENTIAL_HINT} Nothing was sent to ${target}.`
			: `Put the final address in the Base URL${origin ? ` (${origin} if that is your platform)` : ''}: the common cases are http:// that moved to https://, and a platform that moved to another domain. A redirect is not followed, so that the form body with the API token never goes to another address.`,
		httpCode: statusCode,
		answer: 'redirect',
	};
}

function hintFor(statusCode: number): string {
	if (statusCode === 401 || statusCode === 403)
		return `The platform refused the API token. ${CREDENTIAL_HINT}`;
	if (statusCode === 429)
		return 'The platform is limiting the request rate. Retry later or send fewer items at once.';
	if (statusCode >= 500)
		return 'The platform had an internal error. Retry later; if it persists, contact its support.';
	if (statusCode >= 400) return `The platform rejected the request (HTTP ${statusCode}).`;
	return 'The platform reported that the request failed.';
}

/** Builds the one error type every failed call ends in: the API's own text, never the token. */
export function apiError(
	node: INode,
	details: Failure & { itemIndex?: number },
	secret?: string,
): NodeApiError {
	const message = redact(details.message, secret);
	// The API's own text stays the message; the description says which operation failed.
	const label = operationLabel(node);
	const description = redact(
		label ? `BotSailor ${label} failed. ${details.description}` : details.description,
		secret,
	);
	const error = new NodeApiError(node, { message, description } as JsonObject, {
		message,
		description,
		httpCode: String(details.httpCode),
		itemIndex: details.itemIndex,
	});
	if (details.retryAfterMs !== undefined)
		error.context = { ...error.context, retryAfterMs: details.retryAfterMs };
	// What kind of answer it was tells the delivery policy (delivery.ts) whether the platform may have acted.
	if (details.answer !== undefined) error.context = { ...error.context, answer: details.answer };
	return error;
}

/** A Retry-After header (seconds or an HTTP date) in milliseconds from now. */
function retryAfterMs(headers: RawResponse['headers']): number | undefined {
	const value = headers?.['retry-after'];
	if (value === undefined || value === null || value === '') return undefined;
	const text = String(value).trim();
	if (/^\d+$/.test(text)) return Number(text) * 1000;
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Why a call failed: the API's text, our hint, the HTTP status, and when the platform asked to be retried. */
export interface Failure {
	message: string;
	description: string;
	httpCode: number;
	retryAfterMs?: number;
	/**
	 * An answer that is no API envelope: `unreadable` (a success status with a body that cannot be read: truncated,
	 * empty, garbled), `page` (a web page), `redirect` (HTTP 3xx, never followed: see transport.ts).
	 */
	answer?: 'unreadable' | 'page' | 'redirect';
}

/** What a response says: the successful envelope, or why the call failed. */
export type Reading = { envelope: IDataObject } | { failure: Failure };

/**
 * Reads a response without any side effect: a successful envelope (with `mesasge` renamed to
 * `message`), or the failure of `status` "0"/false, HTTP errors and non-JSON bodies, in the API's text.
 */
export function readResponse(response: RawResponse): Reading {
	const statusCode = response.statusCode ?? 200;
	if (statusCode >= 300 && statusCode < 400) return { failure: redirectFailure(response) };
	// Secrets of third parties that API data carries are dropped here, before any reader sees them.
	const envelope = withoutSecrets(asEnvelope(response.body)) as IDataObject | undefined;
	if (!envelope) {
		const page = looksLikeHtml(response.body);
		const empty =
			String(
				Buffer.isBuffer(response.body) ? response.body.toString('utf8') : (response.body ?? ''),
			).trim() === '';
		const message = page
			? `The platform answered with a web page instead of an API response (HTTP ${statusCode})`
			: empty
				? `The platform answered with an empty body (HTTP ${statusCode})`
				: `The platform answered with a body that is not valid JSON (HTTP ${statusCode})`;
		const description =
			statusCode === 404
				? NOT_FOUND_HINT
				: statusCode >= 400
					? hintFor(statusCode)
					: page
						? `This usually means a wrong Base URL or a missing API token. ${CREDENTIAL_HINT}`
						: 'The platform took the request but its answer cannot be read (cut off, empty or garbled).';
		return {
			failure: {
				message,
				description,
				httpCode: statusCode,
				retryAfterMs: retryAfterMs(response.headers),
				answer: page ? 'page' : statusCode < 300 ? 'unreadable' : undefined,
			},
		};
	}
	if (statusCode >= 400 || !isSuccessStatus(envelope.status)) {
		const message = apiText(envelope) ?? `The request failed (HTTP ${statusCode})`;
		return {
			failure: {
				message,
				description: hintFor(statusCode),
				httpCode: statusCode,
				retryAfterMs: retryAfterMs(response.headers),
			},
		};
	}
	if ('mesasge' in envelope) {
		const { mesasge, ...rest } = envelope;
		return { envelope: { ...rest, message: rest.message ?? mesasge } };
	}
	return { envelope };
}

/** One page of a paginated list: its records and the next page the API announced. */
export interface Page {
	records: IDataObject[];
	/** The next page number the API announced; absent on the last page. */
	nextOffset?: unknown;
}

/**
 * The records of a list answer, for every reader (outputs, dropdowns, the trigger): an array, an
 * object of records keyed by id, or a single record (some deployments answer a list of one that way),
 * each also as JSON text (listText.ts).
 * Undefined when the payload is no list at all (a text).
 */
export function listRecords(
	envelope: IDataObject,
	key: 'message' | 'data' = 'message',
): IDataObject[] | undefined {
	const sent = envelope[key];
	const payload = decodedListPayload(sent);
	if (payload === undefined || payload === null || payload === '') return [];
	// An empty list sent as JSON text of an object ("{}", PHP's empty keyed array) is no record.
	if (typeof sent === 'string' && isRecord(payload) && Object.keys(payload).length === 0) return [];
	if (Array.isArray(payload))
		return payload.map((entry) => (isRecord(entry) ? entry : { value: entry }));
	if (!isRecord(payload)) return undefined;
	const values = Object.values(payload);
	const records = values.filter(isRecord);
	return values.length > 0 && records.length === values.length ? records : [payload];
}

/** The records an operation outputs: list → one per element, object → one, text → a confirmation. */
export function payloadRecords(
	envelope: IDataObject,
	shape: PayloadShape = 'message',
): IDataObject[] {
	if (shape !== 'confirmation') {
		const payload = decodedListPayload(envelope[shape]);
		if (Array.isArray(payload) || isRecord(payload)) return listRecords(envelope, shape) ?? [];
	}
	const confirmation: IDataObject = { success: true, ...envelope };
	delete confirmation.status;
	return [confirmation];
}
