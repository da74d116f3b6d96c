import type {
	FunctionsBase,
	ICredentialsDecrypted,
	IAllExecuteFunctions,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import { apiBaseUrl, CREDENTIAL_TYPE } from './credential';
import { apiError, readResponse, type RawResponse } from './envelope';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** Any n8n context that can make authenticated requests: execute, poll, load options, pagination. */
export type RequestContext = IAllExecuteFunctions;

export async function apiToken(context: Pick<FunctionsBase, 'getCredentials'>): Promise<string> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	return String(credentials.apiToken ?? '');
}

/** Connection failures before the request left: nothing reached the platform. */
const NEVER_CONNECTED = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$/;

/**
 * Network failures (refused, reset, timeout) as a NodeApiError that carries no request data; its
 * `context.connection` keeps the error code, so the delivery policy can tell "never connected" from "answer lost".
 */
export function transportError(
	context: Pick<RequestContext, 'getNode'>,
	error: Error & { code?: string },
	secret: string,
	itemIndex?: number,
) {
	const code = error.code ?? 'UNKNOWN';
	const reason = code === 'ECONNABORTED' || /timeout/i.test(error.message) ? 'timed out' : 'failed';
	const failure = apiError(
		context.getNode(),
		{
			message: `The connection to the platform ${reason}: ${error.message}`,
			description: NEVER_CONNECTED.test(code)
				? 'The request did not reach the platform. Check the Base URL and the network, then retry.'
				: 'The request may or may not have reached the platform. Check the Base URL and the network.',
			httpCode: 0,
			itemIndex,
		},
		secret,
	);
	failure.context = { ...failure.context, connection: code };
	return failure;
}

/**
 * A failed call of n8n's request helper as the error to report. Our own errors (envelope,
 * validation) pass through; a network failure, which n8n wraps around the AxiosError whose
 * `config` holds the request body and headers (token inside), becomes our transport error.
 */
export function reportedFailure(
	context: Pick<RequestContext, 'getNode'>,
	failure: unknown,
	secret: string,
	itemIndex?: number,
): unknown {
	const cause = (failure as { cause?: Error & { isAxiosError?: boolean } }).cause;
	if (failure instanceof NodeOperationError) return failure;
	if (failure instanceof NodeApiError && cause?.isAxiosError !== true) return failure;
	return transportError(
		context,
		cause?.isAxiosError === true ? cause : (failure as Error),
		secret,
		itemIndex,
	);
}

/**
 * The envelope of a response, or the NodeApiError of its failure. The token is read (to redact it
 * from the API's text) only when there is a failure: decrypting credentials costs time per item.
 */
export async function envelopeOf(
	this: RequestContext,
	response: RawResponse,
	itemIndex?: number,
): Promise<IDataObject> {
	const reading = readResponse(response);
	if ('failure' in reading)
		throw apiError(this.getNode(), { ...reading.failure, itemIndex }, await apiToken(this));
	return reading.envelope;
}

/**
 * The endpoints that only read (spec: lists, gets, statuses). Repeating one sends nothing to a customer
 * and changes nothing, so every read retries what is safe to retry (retryRead). Anything not listed, a
 * send above all, goes out once: sends follow their own at-most-once policy (delivery.ts).
 * Not listed although named like reads: /user/addon/assign/credits (also sets the AI tokens),
 * /user/get/direct-login-url* (creates a login, or a user), /ai/get_response (spends AI tokens).
 */
export const READ_PATHS: ReadonlySet<string> = new Set([
	'/user/myInfo',
	'/user/usage/log',
	'/user/list',
	'/user/team-member/list',
	'/user/package/list',
	'/user/module/list',
	'/user/addon/list',
	'/user/addon/assign/list',
	'/user/transaction/list',
	'/whatsapp/get/conversation',
	'/whatsapp/get/post-back-list',
	'/whatsapp/get/message-status',
	'/whatsapp/get/bot-flow-list',
	'/whatsapp/template/list',
	'/whatsapp/template/status',
	'/whatsapp/subscriber/get',
	'/whatsapp/subscriber/list',
	'/whatsapp/subscriber/custom-fields/list',
	'/whatsapp/subscriber/sequence/list',
	'/whatsapp/subscriber/chat/get-notes',
	'/whatsapp/subscriber/crm/get',
	'/label/list',
	'/whatsapp/label/list',
	'/whatsapp/catalog/list',
	'/whatsapp/catalog/order/list',
]);

/** Whether a request URL (relative, or absolute with /api/v1) is one of READ_PATHS. */
export function isReadPath(url: unknown): boolean {
	const path = String(url ?? '')
		.replace(/^[a-z][a-z\d+.-]*:\/\/[^/]+/i, '')
		.split(/[?#]/)[0]
		.replace(/^\/api\/v1(?=\/)/i, '')
		.replace(/\/+$/, '');
	return READ_PATHS.has(path);
}

/**
 * How reads retry: at most `retries` more attempts, backing off from `baseDelayMs` (doubling, with
 * jitter, up to `maxDelayMs`; the platform's Retry-After when it sends one), and never past `budgetMs`
 * from the first attempt: a poll or a dropdown that the platform keeps refusing fails within it.
 */
export const READ_RETRY = Object.freeze({
	retries: 6,
	baseDelayMs: 250,
	maxDelayMs: 4_000,
	budgetMs: 20_000,
});

/** HTTP answers to a read that are worth repeating: rate limited, or a gateway or server that is momentarily away. */
const READ_RETRY_STATUS = new Set([429, 502, 503, 504]);
/** Connections that failed or dropped (a timeout is not repeated: it has used the time already). */
const READ_RETRY_CONNECTION =
	/^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ECONNRESET|EPIPE)$/;

/** Whether a failed read may be repeated (see READ_RETRY_STATUS and READ_RETRY_CONNECTION). */
export function isRetryableRead(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const connection = error.context?.connection;
	if (typeof connection === 'string') return READ_RETRY_CONNECTION.test(connection);
	return READ_RETRY_STATUS.has(Number(error.httpCode));
}

/**
 * Runs a read, repeating it under READ_RETRY while it fails in a way worth repeating. The last failure
 * is thrown as it was, its description saying how often and how long the platform refused.
 */
export async function retryRead<T>(
	attempt: () => Promise<T>,
	settings: typeof READ_RETRY = READ_RETRY,
): Promise<T> {
	const started = Date.now();
	for (let tries = 0; ; tries++) {
		let error: unknown;
		try {
			return await attempt();
		} catch (caught) {
			error = caught;
		}
		if (!isRetryableRead(error)) throw error;
		const failure = error as NodeApiError;
		const retryAfterMs = Number(failure.context?.retryAfterMs);
		const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** tries);
		const wait = Number.isFinite(retryAfterMs)
			? retryAfterMs
			: Math.round(ceiling / 2 + (ceiling / 2) * Math.random());
		const elapsed = Date.now() - started;
		if (tries >= settings.retries || elapsed + wait > settings.budgetMs) {
			if (tries > 0) {
				failure.description =
					`${failure.description ?? ''} The platform refused this read ${tries + 1} times in ${Math.round(elapsed / 100) / 10} s; it was not retried further.`.trim();
				failure.context = { ...failure.context, attempts: tries + 1 };
			}
			throw failure;
		}
		await sleep(wait);
	}
}

/**
 * Sends one request with the credential and reads the envelope.
 * HTTP status errors are read from the body (they carry the API's text), never thrown raw.
 * A read (READ_PATHS) is repeated while it fails in a way worth repeating (retryRead); other requests go out once.
 */
export async function sendRequest(
	this: RequestContext,
	options: IHttpRequestOptions,
	itemIndex?: number,
	credentials?: ICredentialsDecrypted,
): Promise<IDataObject> {
	const secret = async () =>
		credentials ? String(credentials.data?.apiToken ?? '') : await apiToken(this);
	const once = async () => {
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				{ ...options, returnFullResponse: true, ignoreHttpStatusErrors: true },
				// The run's credential, when the caller decrypted it once for many requests.
				credentials ? { credentialsDecrypted: credentials } : undefined,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			throw reportedFailure(this, error, await secret(), itemIndex);
		}
		const reading = readResponse(response);
		if ('failure' in reading)
			throw apiError(this.getNode(), { ...reading.failure, itemIndex }, await secret());
		return reading.envelope;
	};
	return isReadPath(options.url) ? await retryRead(once) : await once();
}

/** A programmatic POST of form fields to a path under /api/v1 (trigger, dropdowns, multi-step operations). */
export async function botSailorRequest(
	this: RequestContext,
	path: string,
	fields: IDataObject = {},
	itemIndex?: number,
): Promise<IDataObject> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	return await sendRequest.call(
		this,
		{
			method: 'POST',
			baseURL: apiBaseUrl(credentials.baseUrl),
			url: path,
			headers: { 'Content-Type': FORM_CONTENT_TYPE },
			body: fields,
			timeout: 60_000,
		},
		itemIndex,
	);
}

/** Whether the credential targets a deployment on the earlier form of the interface. */
export async function usesEarlierForm(
	context: Pick<FunctionsBase, 'getCredentials'>,
): Promise<boolean> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	return credentials.apiForm === 'earlier';
}
