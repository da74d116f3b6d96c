import { createHash, timingSafeEqual } from 'crypto';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { isRecord, recordOf } from '../../shared/parameters/values';
import { jsonFromText } from '../../shared/parameters/jsonStrings';

/**
 * The checks a delivery passes before anything starts: the secret, then the body. Each failure is an
 * HTTP answer with a JSON body saying what was wrong; none starts the workflow.
 */

/** The query parameter that carries the node's Secret (the platform cannot add headers or sign). */
export const SECRET_PARAMETER = 'secret';

/**
 * Larger bodies are refused with 413. The platform's flat events are a few hundred bytes; custom
 * fields and flow data stay far below this. (n8n itself reads bodies up to N8N_PAYLOAD_SIZE_MAX, 16 MB
 * by default, before the node runs: this limit is about what the node accepts, not about memory.)
 */
export const MAX_BODY_BYTES = 256 * 1024;

export interface Refusal {
	status: number;
	message: string;
}

function digest(value: string): Buffer {
	return createHash('sha256').update(value, 'utf8').digest();
}

/** Compares in constant time (of the digests), so the answer time says nothing about the secret. */
export function secretMatches(given: string, expected: string): boolean {
	return timingSafeEqual(digest(given), digest(expected));
}

function queryValue(query: unknown, name: string): string {
	const value = recordOf(query)[name];
	if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : '';
	return typeof value === 'string' ? value : '';
}

/** Whether the node has a Secret, so that a request checkSecret passed was checked. */
export function hasSecret(context: IWebhookFunctions): boolean {
	return String(context.getNodeParameter('secret', '') ?? '') !== '';
}

/** 401 when the node has a Secret and the URL's `?secret=` is missing or different. */
export function checkSecret(context: IWebhookFunctions): Refusal | undefined {
	if (!hasSecret(context)) return undefined;
	const expected = String(context.getNodeParameter('secret', '') ?? '');
	const given = queryValue(context.getQueryData(), SECRET_PARAMETER);
	if (given !== '' && secretMatches(given, expected)) return undefined;
	return {
		status: 401,
		message:
			given === ''
				? "The URL has no secret: add ?secret=<the node's Secret> to it"
				: 'The secret in the URL is wrong',
	};
}

const isObject = (value: unknown): value is IDataObject =>
	isRecord(value) && !Buffer.isBuffer(value);

/** The media type of the request, lower case, without parameters. */
function contentTypeOf(context: IWebhookFunctions): string {
	const header = context.getHeaderData()['content-type'];
	return String(Array.isArray(header) ? header[0] : (header ?? ''))
		.split(';')[0]
		.trim()
		.toLowerCase();
}

function bodySize(context: IWebhookFunctions): number {
	const request = context.getRequestObject() as unknown as { rawBody?: Buffer };
	const length = Number(context.getHeaderData()['content-length']);
	return Math.max(
		Number.isFinite(length) ? length : 0,
		Buffer.isBuffer(request.rawBody) ? request.rawBody.length : 0,
	);
}

/** The bytes of the request as text: n8n's rawBody, or the body when n8n made it a text (text/plain). */
function rawText(context: IWebhookFunctions, body: unknown): string {
	const request = context.getRequestObject() as unknown as { rawBody?: Buffer };
	if (Buffer.isBuffer(request.rawBody)) return request.rawBody.toString('utf8');
	if (typeof body === 'string') return body;
	return Buffer.isBuffer(body) ? body.toString('utf8') : '';
}

/** A text read as JSON (an object), else as form fields; undefined when it is neither. */
export function parseText(raw: string): IDataObject | string | undefined {
	const trimmed = raw.replace(/^\uFEFF/, '').trim();
	if (trimmed === '') return undefined;
	if (trimmed.startsWith('{') || trimmed.startsWith('[') || trimmed.startsWith('"')) {
		const parsed = jsonFromText(trimmed);
		if (parsed === undefined) return undefined;
		return isObject(parsed) ? parsed : 'not an object';
	}
	// Form fields: name=value pairs joined by &, nothing else (a plain sentence is not a form).
	if (!/^[^\s=&]+=[^\s&]*(&[^\s=&]+=[^\s&]*)*$/.test(trimmed)) return undefined;
	const fields: IDataObject = {};
	for (const [key, value] of new URLSearchParams(trimmed)) fields[key] = value;
	return fields;
}

/**
 * The flat body as an object, or why it is refused: 413 when larger than MAX_BODY_BYTES, 400 when it
 * is not an object or empty, 415 when it cannot be read at all. Nobody has recorded which Content-Type
 * the platform sends (spec/webhooks.md), so the header decides nothing: what n8n parsed (JSON, form,
 * multipart fields) is taken, and otherwise the raw bytes are read as JSON, then as form fields.
 * (Invalid JSON sent as application/json never reaches the node: n8n answers it with 422.)
 */
export function readBody(context: IWebhookFunctions): { body: IDataObject } | Refusal {
	if (bodySize(context) > MAX_BODY_BYTES)
		return { status: 413, message: `The body is larger than ${MAX_BODY_BYTES / 1024} KB` };
	const type = contentTypeOf(context);
	let body: unknown = context.getBodyData();
	if (type === 'multipart/form-data' && isObject(body) && isObject(body.data)) body = body.data;
	// A JSON array or string that n8n parsed is read, and is no event.
	const parsedJson = type === 'application/json' && body !== undefined && !isObject(body);
	// Whatever the header said: n8n leaves a body of another type (or none) as {} with the bytes in rawBody.
	if (!parsedJson && !Array.isArray(body) && (!isObject(body) || Object.keys(body).length === 0)) {
		const raw = rawText(context, body);
		const parsed = parseText(raw);
		if (parsed === undefined) {
			if (raw.trim() === '' && isObject(body)) return { status: 400, message: 'The body is empty' };
			context.logger.warn(
				`BotSailor Webhook Trigger: refused a body it cannot read (Content-Type ${type || 'none'}, ${raw.length} bytes)`,
			);
			return {
				status: 415,
				message: `The body cannot be read as JSON or form data (Content-Type ${type || 'none'}); send the event as a JSON object or as form fields`,
			};
		}
		body = parsed;
	}
	if (!isObject(body))
		return { status: 400, message: 'The body must be a JSON object or form fields' };
	if (Object.keys(body).length === 0) return { status: 400, message: 'The body is empty' };
	return { body };
}
