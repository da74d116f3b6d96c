import type { IAllExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { baseUrlHint } from './credential';
import { apiError } from './envelope';

/**
 * What a failed request proves, in one place: the error to report for a failure of n8n's request helper (without the
 * request data it carries, the API token inside), and whether the failure may be repeated, for a read and for a send.
 * The retry policies (retry.ts) apply these rules; the envelope's own failures (status "0", HTTP errors, web pages)
 * are read in envelope.ts.
 */

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
	context: Pick<IAllExecuteFunctions, 'getNode'>,
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
	context: Pick<IAllExecuteFunctions, 'getNode'>,
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

/** What a failed attempt says about the send: certainly not done (safe to repeat), refused, or unknown. */
export type Outcome = 'notSent' | 'refused' | 'unknown';

/** HTTP answers that prove nothing was done: rate limited, or unavailable. */
const NOT_SENT_STATUS = new Set([429, 503]);

/** Reads what a failure (our NodeApiError from envelope.ts or transportError above) says about the send. */
export function outcomeOf(error: unknown): Outcome {
	if (!(error instanceof NodeApiError)) return 'refused';
	if (error.context?.outcome === 'notSent') return 'notSent';
	if (error.context?.outcome === 'unknown') return 'unknown';
	if (typeof error.context?.connection === 'string')
		return error.context.sent === 'no' ? 'notSent' : 'unknown';
	if (error.context?.answer === 'redirect') return 'notSent';
	const status = Number(error.httpCode);
	if (error.context?.answer === 'unreadable' && status < 300) return 'unknown';
	if (NOT_SENT_STATUS.has(status)) return 'notSent';
	if (status >= 500) return 'unknown';
	return 'refused';
}

/** Whether a failed send may be repeated: only when it proves the platform did not act, and trying again can help. */
export function isRetryableSend(error: unknown): boolean {
	if (outcomeOf(error) !== 'notSent') return false;
	const context = (error as NodeApiError).context;
	if (context?.outcome === 'notSent' || context?.answer === 'redirect') return false;
	return context?.retry !== false;
}

/**
 * Whether a failure is the platform's own refusal: it answered, with its envelope, and said no (status "0" on a 2xx).
 * A failure without an answer (DNS, refused connection, timeout: `context.connection`), a web page, a redirect, an
 * unreadable body or an HTTP error is not: only a refusal may be explained by the platform's rules (the 24-hour window).
 */
export function isPlatformRefusal(error: unknown): error is NodeApiError {
	if (!(error instanceof NodeApiError)) return false;
	if (typeof error.context?.connection === 'string' || error.context?.answer !== undefined)
		return false;
	const status = Number(error.httpCode);
	return status >= 200 && status < 300 && outcomeOf(error) === 'refused';
}
