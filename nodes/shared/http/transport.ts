import type {
	FunctionsBase,
	ICredentialsDecrypted,
	IAllExecuteFunctions,
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE } from './credential';
import { apiError, readResponse, redactDeep, type RawResponse } from './envelope';
import { reportedFailure, withBaseUrlHint } from './failures';
import { READ_PATHS } from './readPaths';
import { retryRead } from './retry';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** Any n8n context that can make authenticated requests: execute, poll, load options, an operation run per item. */
export type RequestContext = IAllExecuteFunctions;

export async function apiToken(context: Pick<FunctionsBase, 'getCredentials'>): Promise<string> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	return String(credentials.apiToken ?? '').trim();
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

/**
 * The one door every request goes through, declarative or programmatic, read or send: `send` runs n8n's request helper
 * with Options → Timeout as a deadline for the whole request (withDeadline); a failure of the helper comes back as our
 * error without the request data it carries (failures.ts reportedFailure). Whether it is tried again is the caller's
 * retry policy (retry.ts).
 */
export async function requestOnce<
	T,
	O extends Pick<IHttpRequestOptions, 'timeout' | 'abortSignal'>,
>(
	context: RequestContext,
	options: O,
	send: (options: O) => Promise<T>,
	{ itemIndex, secret }: { itemIndex?: number; secret?: () => Promise<string> } = {},
): Promise<T> {
	const deadline = withDeadline(context, options);
	try {
		return await send(deadline.options);
	} catch (error) {
		throw reportedFailure(
			context,
			error,
			secret ? await secret() : await apiToken(context),
			itemIndex,
			deadline,
		);
	}
}

/**
 * The envelope of a response, or the NodeApiError of its failure (with the Base URL hint), the token redacted from
 * either by value. `credentials`: the run's credential, when the caller decrypted it once for many requests.
 */
export async function envelopeOf(
	this: RequestContext,
	response: RawResponse,
	itemIndex?: number,
	credentials?: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	const { apiToken, baseUrl } =
		credentials ?? (await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE));
	const secret = String(apiToken ?? '').trim();
	const reading = readResponse(response);
	if ('failure' in reading)
		throw withBaseUrlHint(
			apiError(this.getNode(), { ...reading.failure, itemIndex }, secret),
			baseUrl,
		);
	// Whatever the platform echoes, the token leaves in no output (by value, in every encoding: envelope.ts redact).
	return redactDeep(reading.envelope, secret);
}

/** Whether a request URL (relative, or absolute with /api/v1) is one of READ_PATHS (the operations of kind read). */
export function isReadPath(url: unknown): boolean {
	const path = String(url ?? '')
		.replace(/^[a-z][a-z\d+.-]*:\/\/[^/]+/i, '')
		.split(/[?#]/)[0]
		.replace(/^\/api\/v1(?=\/)/i, '')
		.replace(/\/+$/, '');
	return READ_PATHS.has(path);
}

/** Runs a request's attempt: repeated under the read policy (retry.ts) when its URL is a read's, else once. */
export async function onceOrRetriedIfRead<T>(url: unknown, attempt: () => Promise<T>): Promise<T> {
	return isReadPath(url) ? await retryRead(attempt) : await attempt();
}

/**
 * Sends one request with the credential and reads the envelope.
 * HTTP status errors are read from the body (they carry the API's text), never thrown raw.
 * A read (READ_PATHS) is repeated while it fails in a way worth repeating (retry.ts); other requests go out once.
 */
export async function sendRequest(
	this: RequestContext,
	options: IHttpRequestOptions,
	itemIndex?: number,
	credentials?: ICredentialsDecrypted,
): Promise<IDataObject> {
	const once = async () => {
		// Never follow a redirect: n8n's client would send the form body, API token included, to the new address.
		const request = {
			...options,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		};
		const response = await requestOnce(
			this,
			request,
			async (deadlined) =>
				(await this.helpers.httpRequestWithAuthentication.call(
					this,
					CREDENTIAL_TYPE,
					deadlined,
					credentials ? { credentialsDecrypted: credentials } : undefined,
				)) as IN8nHttpFullResponse,
			{
				itemIndex,
				secret: credentials
					? async () => String(credentials.data?.apiToken ?? '').trim()
					: undefined,
			},
		);
		return await envelopeOf.call(this, response, itemIndex, credentials?.data);
	};
	return await onceOrRetriedIfRead(options.url, once);
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
