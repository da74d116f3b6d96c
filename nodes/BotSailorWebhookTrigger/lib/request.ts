import { createHash, timingSafeEqual } from 'crypto';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { isRecord, recordOf } from '../../shared/values';

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

const ACCEPTED_TYPES = [
	'application/json',
	'application/x-www-form-urlencoded',
	'multipart/form-data',
];

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

/** 401 when the node has a Secret and the URL's `?secret=` is missing or different. */
export function checkSecret(context: IWebhookFunctions): Refusal | undefined {
	const expected = String(context.getNodeParameter('secret', '') ?? '');
	if (expected === '') return undefined;
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

/**
 * The flat body as an object, or why it is refused: 413 when larger than MAX_BODY_BYTES, 415 when it
 * is neither JSON nor form data, 400 when it is not an object or empty. (Invalid JSON never reaches the
 * node: n8n answers it with 422 "Failed to parse request body".) Multipart bodies: their fields.
 */
export function readBody(context: IWebhookFunctions): { body: IDataObject } | Refusal {
	if (bodySize(context) > MAX_BODY_BYTES)
		return { status: 413, message: `The body is larger than ${MAX_BODY_BYTES / 1024} KB` };
	const type = contentTypeOf(context);
	if (!ACCEPTED_TYPES.includes(type)) {
		return {
			status: 415,
			message: `Send the event as JSON or form data (Content-Type ${ACCEPTED_TYPES.join(', ')}), not ${type || 'no Content-Type'}`,
		};
	}
	let body: unknown = context.getBodyData();
	if (type === 'multipart/form-data' && isObject(body) && isObject(body.data)) body = body.data;
	if (!isObject(body))
		return { status: 400, message: 'The body must be a JSON object or form fields' };
	if (Object.keys(body).length === 0) return { status: 400, message: 'The body is empty' };
	return { body };
}
