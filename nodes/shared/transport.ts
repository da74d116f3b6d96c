import type {
	FunctionsBase,
	ICredentialsDecrypted,
	IAllExecuteFunctions,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import { baseUrlHint, CREDENTIAL_TYPE } from './credential';
import { apiError, readResponse, redactDeep, type RawResponse } from './envelope';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** Any n8n context that can make authenticated requests: execute, poll, load options, pagination. */
export type RequestContext = IAllExecuteFunctions;

export async function apiToken(context: Pick<FunctionsBase, 'getCredentials'>): Promise<string> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	return String(credentials.apiToken ?? '').trim();
}

/**
 * What a connection failure says about the request, by its error code: whether it proves that nothing reached the
 * platform (`sent: false`), whether trying again can help, and what to change. The delivery policy (delivery.ts) and
 * the read retries below both read this one table.
 *
 * | Code                                   | Sent | Retry | Cause                                                  |
 * |----------------------------------------|------|-------|--------------------------------------------------------|
 * | EPROTO, ERR_SSL_*                      | no   | no    | TLS handshake failed: https:// against a plain server  |
 * | CERT_*, *_SELF_SIGNED_*, ERR_TLS_CERT_* | no   | no    | certificate not valid for the host                     |
 * | ENOTFOUND                              | no   | no    | host unknown (DNS)                                     |
 * | ECONNREFUSED, EAI_AGAIN, E*UNREACH     | no   | yes   | nothing answers, DNS or network momentarily away       |
 * | deadline (Options → Timeout)           | ?    | no    | no complete answer in time                             |
 * | ECONNRESET, timeout, anything else     | ?    | no    | the request may have left; the answer was lost         |
 */
export interface ConnectionVerdict {
	sent: 'no' | 'maybe';
	retry: boolean;
	cause: 'tls' | 'certificate' | 'dns' | 'refused' | 'network' | 'deadline' | 'lost';
}

const CERTIFICATE =
	/^(CERT_|ERR_TLS_CERT|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(VERIFY|GET_ISSUER|DECRYPT)|ERR_TLS_)/;

/** The verdict on a connection failure's code (see ConnectionVerdict); `deadline` is the code of our own deadline. */
export function connectionVerdict(code: string, message = ''): ConnectionVerdict {
	if (code === 'DEADLINE') return { sent: 'maybe', retry: false, cause: 'deadline' };
	if (CERTIFICATE.test(code)) return { sent: 'no', retry: false, cause: 'certificate' };
	if (
		code === 'EPROTO' ||
		/^ERR_SSL_/.test(code) ||
		/wrong version number|packet length too long/i.test(message)
	)
		return { sent: 'no', retry: false, cause: 'tls' };
	if (code === 'ENOTFOUND') return { sent: 'no', retry: false, cause: 'dns' };
	if (code === 'ECONNREFUSED') return { sent: 'no', retry: true, cause: 'refused' };
	if (/^(EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$/.test(code))
		return { sent: 'no', retry: true, cause: 'network' };
	return { sent: 'maybe', retry: false, cause: 'lost' };
}

/** The address a failed request went to (origin only: never a user name, password, path or query). */
function targetOf(error: { config?: { url?: string; baseURL?: string } }): URL | undefined {
	try {
		return new URL(String(error.config?.url ?? ''), error.config?.baseURL);
	} catch {
		return undefined;
	}
}

/** What to do about a connection failure that proves nothing left, naming the host and what to type in the Base URL. */
function connectionHint(verdict: ConnectionVerdict, target: URL | undefined, code: string): string {
	const host = target?.host ?? 'the Base URL’s host';
	switch (verdict.cause) {
		case 'tls':
			return `${host} did not answer in HTTPS (the TLS handshake failed), so nothing was sent. A Base URL without http:// or https:// is taken as https://: if your platform is served over plain http, type http://${target?.host ?? '<host>'} in the Base URL.`;
		case 'certificate':
			return `The HTTPS certificate of ${host} is not valid for it (${code}), so nothing was sent. Check that the Base URL is your platform’s own address; for a self-signed certificate you trust, turn on Options → Ignore SSL Issues.`;
		case 'dns':
			return `The host ${host} of the Base URL was not found (DNS), so nothing was sent. Check its spelling: type the address you open your dashboard at, e.g. https://botsailor.com or wa.youragency.com.`;
		case 'refused':
			return `Nothing answers at ${host} (connection refused), so nothing was sent. Check the Base URL (and its port), or retry once the platform is up.`;
		case 'network':
			return `${host} could not be reached (${code}), so nothing was sent. Check the network and the Base URL, then retry.`;
		case 'deadline':
			return 'No complete answer came within Options → Timeout; the request may or may not have reached the platform. Raise Options → Timeout if the platform is slow.';
		default:
			return 'The request may or may not have reached the platform. Check the Base URL and the network.';
	}
}

/**
 * Network failures (refused, reset, timeout, TLS) as a NodeApiError that carries no request data; its
 * `context.connection` keeps the error code and `context.sent` the verdict (connectionVerdict), so the delivery policy
 * can tell "nothing left" from "answer lost". `deadlineMs`: the request was aborted by our whole-request deadline.
 */
export function transportError(
	context: Pick<RequestContext, 'getNode'>,
	error: Error & { code?: string; config?: { url?: string; baseURL?: string } },
	secret: string,
	itemIndex?: number,
	deadlineMs?: number,
) {
	const code = deadlineMs !== undefined ? 'DEADLINE' : (error.code ?? 'UNKNOWN');
	const verdict = connectionVerdict(code, error.message);
	const target = targetOf(error);
	const host = target?.host ?? 'the platform';
	// In words, not codes: n8n replaces a message that names a common code (ECONNREFUSED, ENOTFOUND…) with its own text.
	const reasons: Record<ConnectionVerdict['cause'], string> = {
		tls: `failed: ${host} did not answer in HTTPS (the TLS handshake failed)`,
		certificate: `failed: the HTTPS certificate of ${host} is not valid (${code})`,
		dns: `failed: the host ${host} was not found`,
		refused: `failed: ${host} refused the connection`,
		network: `failed: ${host} could not be reached`,
		deadline: `timed out: no complete answer within ${Math.round((deadlineMs ?? 0) / 100) / 10} s`,
		lost:
			code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(error.message)
				? 'timed out while waiting for the answer'
				: code === 'ECONNRESET' || /socket hang up/i.test(error.message)
					? 'failed: the connection was closed before the answer came'
					: `failed: ${error.message}`,
	};
	const reason = reasons[verdict.cause];
	const failure = apiError(
		context.getNode(),
		{
			message: `The connection to the platform ${reason}`,
			description: connectionHint(verdict, target, code),
			httpCode: 0,
			itemIndex,
		},
		secret,
	);
	failure.context = {
		...failure.context,
		connection: code,
		sent: verdict.sent,
		retry: verdict.retry,
	};
	return failure;
}

/**
 * A whole-request deadline (Options → Timeout): n8n's `timeout` only limits the silence between two packets, so a
 * server that trickles a byte a second would hold the request (and a send slot) as long as it likes. The request is
 * aborted at the deadline, and the execution's cancel signal aborts it too.
 */
export function withDeadline<O extends Pick<IHttpRequestOptions, 'timeout' | 'abortSignal'>>(
	context: object,
	options: O,
	fallbackMs = 300_000,
): { options: O; deadlineMs: number; expired: () => boolean } {
	const deadlineMs = Number(options.timeout) > 0 ? Number(options.timeout) : fallbackMs;
	const deadline = AbortSignal.timeout(deadlineMs);
	const cancel = (
		context as { getExecutionCancelSignal?: () => AbortSignal | undefined }
	).getExecutionCancelSignal?.();
	const combined = (other: unknown) =>
		other instanceof AbortSignal && other !== deadline
			? AbortSignal.any([deadline, other])
			: deadline;
	let signal = combined(options.abortSignal ?? cancel);
	const deadlined = { ...options, timeout: deadlineMs };
	// n8n's request helper sets the execution's cancel signal in place of any other: both abort the request.
	Object.defineProperty(deadlined, 'abortSignal', {
		enumerable: true,
		configurable: true,
		get: () => signal,
		set: (other: unknown) => {
			signal = combined(other);
		},
	});
	return { options: deadlined, deadlineMs, expired: () => deadline.aborted };
}

/** A Base URL mistake that the credential's authenticate refused (credential.ts), whatever n8n wrapped it in. */
function baseUrlMistake(failure: unknown): Error | undefined {
	for (
		let error = failure as { name?: string; cause?: unknown } | undefined, depth = 0;
		error && depth < 4;
		depth++
	) {
		if (error.name === 'BaseUrlError') return error as Error;
		error = error.cause as typeof error;
	}
	return undefined;
}

/**
 * A failed call of n8n's request helper as the error to report. Our own errors (envelope,
 * validation) pass through; a Base URL mistake becomes a NodeOperationError naming the field (nothing was sent); a
 * network failure, which n8n wraps around the AxiosError whose `config` holds the request body and headers (token
 * inside), becomes our transport error.
 */
export function reportedFailure(
	context: Pick<RequestContext, 'getNode'>,
	failure: unknown,
	secret: string,
	itemIndex?: number,
	deadline?: { deadlineMs: number; expired: () => boolean },
): unknown {
	const mistake = baseUrlMistake(failure);
	if (mistake)
		return new NodeOperationError(context.getNode(), mistake.message, {
			description:
				'Fix the Base URL in the BotSailor credential. Nothing was sent to the platform.',
			itemIndex,
		});
	const cause = (failure as { cause?: Error & { isAxiosError?: boolean } }).cause;
	if (failure instanceof NodeOperationError) return failure;
	if (failure instanceof NodeApiError && cause?.isAxiosError !== true) return failure;
	return transportError(
		context,
		cause?.isAxiosError === true ? cause : (failure as Error),
		secret,
		itemIndex,
		deadline?.expired() ? deadline.deadlineMs : undefined,
	);
}

/**
 * Adds the Base URL hint to a failure whose answer says the address is wrong (a 404, a web page), when the Base URL
 * has a path: "/dashboard" copied from the browser is the usual mistake.
 */
export function withBaseUrlHint(failure: unknown, baseUrl: unknown): unknown {
	if (!(failure instanceof NodeApiError)) return failure;
	const notFound = Number(failure.httpCode) === 404;
	const page = failure.context?.answer === 'page';
	if (!notFound && !page) return failure;
	const hint = baseUrlHint(baseUrl, notFound ? 'notFound' : 'page');
	if (hint && !String(failure.description ?? '').includes(hint))
		failure.description = `${failure.description ?? ''} ${hint}`.trim();
	return failure;
}

/**
 * The envelope of a response, or the NodeApiError of its failure, the token redacted from either by value.
 */
export async function envelopeOf(
	this: RequestContext,
	response: RawResponse,
	itemIndex?: number,
): Promise<IDataObject> {
	const reading = readResponse(response);
	const secret = await apiToken(this);
	if ('failure' in reading) {
		const credentials = await this.getCredentials(CREDENTIAL_TYPE);
		throw withBaseUrlHint(
			apiError(this.getNode(), { ...reading.failure, itemIndex }, secret),
			credentials.baseUrl,
		);
	}
	// Whatever the platform echoes, the token leaves in no output (by value, in every encoding: envelope.ts redact).
	return redactDeep(reading.envelope, secret);
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
/** Whether a failed read may be repeated: READ_RETRY_STATUS, a connection worth retrying (connectionVerdict), a drop. */
export function isRetryableRead(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const connection = error.context?.connection;
	// A dropped connection is worth repeating for a read (it changes nothing); a timeout has used the time already.
	if (typeof connection === 'string')
		return connectionVerdict(connection).retry || /^(ECONNRESET|EPIPE)$/.test(connection);
	return READ_RETRY_STATUS.has(Number(error.httpCode));
}

/**
 * The wait before another try: the platform's Retry-After when it gave one, held between the backoff's own floor
 * (so a Retry-After of 0 does not hammer the platform) and `maxDelayMs`; undefined when the platform asked for longer
 * than that (the caller gives up). A negative or unreadable Retry-After is no Retry-After (envelope.ts reads it).
 */
export function retryWait(
	failure: unknown,
	tries: number,
	settings: { baseDelayMs: number; maxDelayMs: number },
	random = Math.random,
): number | undefined {
	const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** tries);
	const backoff = Math.round(ceiling / 2 + (ceiling / 2) * random());
	const retryAfterMs =
		failure instanceof NodeApiError ? Number(failure.context?.retryAfterMs) : Number.NaN;
	if (!Number.isFinite(retryAfterMs) || retryAfterMs < 0) return backoff;
	if (retryAfterMs > settings.maxDelayMs) return undefined;
	return Math.max(retryAfterMs, Math.round(ceiling / 2));
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
		const wait = retryWait(failure, tries, settings);
		const elapsed = Date.now() - started;
		if (tries >= settings.retries || wait === undefined || elapsed + wait > settings.budgetMs) {
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
		credentials ? String(credentials.data?.apiToken ?? '').trim() : await apiToken(this);
	const baseUrl = async () =>
		credentials ? credentials.data?.baseUrl : (await this.getCredentials(CREDENTIAL_TYPE)).baseUrl;
	const once = async () => {
		// Never follow a redirect: n8n's client would send the form body, API token included, to the new address.
		const deadline = withDeadline(this, {
			...options,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		});
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				deadline.options,
				// The run's credential, when the caller decrypted it once for many requests.
				credentials ? { credentialsDecrypted: credentials } : undefined,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			throw reportedFailure(this, error, await secret(), itemIndex, deadline);
		}
		const reading = readResponse(response);
		if ('failure' in reading)
			throw withBaseUrlHint(
				apiError(this.getNode(), { ...reading.failure, itemIndex }, await secret()),
				await baseUrl(),
			);
		// Whatever the platform echoes, the token leaves in no output (by value, in every encoding: envelope.ts redact).
		return redactDeep(reading.envelope, await secret());
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
	// The credential's authenticate sets the base URL (credential.ts authenticatedRequest).
	return await sendRequest.call(
		this,
		{
			method: 'POST',
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
