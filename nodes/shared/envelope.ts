import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { operationLabel } from './operationLabel';
import { decodedListPayload } from './listText';
import { isRecord } from './values';

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

function asEnvelope(body: unknown): IDataObject | undefined {
	let value = body;
	if (Buffer.isBuffer(value)) value = value.toString('utf8');
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value);
		} catch {
			return undefined;
		}
	}
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
		try {
			const parsed: unknown = JSON.parse(value);
			const cleaned = JSON.stringify(withoutSecrets(parsed));
			return cleaned === JSON.stringify(parsed) ? value : cleaned;
		} catch {
			return value;
		}
	}
	return value;
}

/** Removes every occurrence of the secret, so no API text can echo the token back to the user. */
export function redact(text: string, secret?: string): string {
	return secret ? text.split(secret).join('***') : text;
}

function apiText(envelope: IDataObject): string | undefined {
	const text = envelope.message ?? envelope.mesasge ?? envelope.error;
	if (typeof text === 'string' && text.trim() !== '') return text;
	if (text && typeof text === 'object') return JSON.stringify(text);
	return undefined;
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
}

/** What a response says: the successful envelope, or why the call failed. */
export type Reading = { envelope: IDataObject } | { failure: Failure };

/**
 * Reads a response without any side effect: a successful envelope (with `mesasge` renamed to
 * `message`), or the failure of `status` "0"/false, HTTP errors and non-JSON bodies, in the API's text.
 */
export function readResponse(response: RawResponse): Reading {
	const statusCode = response.statusCode ?? 200;
	// Secrets of third parties that API data carries are dropped here, before any reader sees them.
	const envelope = withoutSecrets(asEnvelope(response.body)) as IDataObject | undefined;
	if (!envelope) {
		const message = looksLikeHtml(response.body)
			? `The platform answered with a web page instead of an API response (HTTP ${statusCode})`
			: `The platform answered with a body that is not valid JSON (HTTP ${statusCode})`;
		const description =
			statusCode >= 400
				? hintFor(statusCode)
				: `This usually means a wrong Base URL or a missing API token. ${CREDENTIAL_HINT}`;
		return {
			failure: {
				message,
				description,
				httpCode: statusCode,
				retryAfterMs: retryAfterMs(response.headers),
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

/** Like readResponse, but a failure throws the NodeApiError (the secret, when known, redacted). */
export function readEnvelope(
	node: INode,
	response: RawResponse,
	secret?: string,
	itemIndex?: number,
): IDataObject {
	const reading = readResponse(response);
	if ('failure' in reading) throw apiError(node, { ...reading.failure, itemIndex }, secret);
	return reading.envelope;
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
