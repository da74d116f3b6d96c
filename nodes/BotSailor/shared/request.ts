import type {
	FunctionsBase,
	ICredentialsDecrypted,
	IAllExecuteFunctions,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { apiBaseUrl } from '../../../credentials/BotSailorApi.credentials';
import { apiError, readResponse, type RawResponse } from './envelope';

export const CREDENTIAL_TYPE = 'botSailorApi';
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
export function transportError(context: Pick<RequestContext, 'getNode'>, error: Error & { code?: string }, secret: string, itemIndex?: number) {
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
export function reportedFailure(context: Pick<RequestContext, 'getNode'>, failure: unknown, secret: string, itemIndex?: number): unknown {
	const cause = (failure as { cause?: Error & { isAxiosError?: boolean } }).cause;
	if (failure instanceof NodeOperationError) return failure;
	if (failure instanceof NodeApiError && cause?.isAxiosError !== true) return failure;
	return transportError(context, cause?.isAxiosError === true ? cause : (failure as Error), secret, itemIndex);
}

/**
 * The envelope of a response, or the NodeApiError of its failure. The token is read (to redact it
 * from the API's text) only when there is a failure: decrypting credentials costs time per item.
 */
export async function envelopeOf(this: RequestContext, response: RawResponse, itemIndex?: number): Promise<IDataObject> {
	const reading = readResponse(response);
	if ('failure' in reading) throw apiError(this.getNode(), { ...reading.failure, itemIndex }, await apiToken(this));
	return reading.envelope;
}

/**
 * Sends one request with the credential and reads the envelope.
 * HTTP status errors are read from the body (they carry the API's text), never thrown raw.
 */
export async function sendRequest(
	this: RequestContext,
	options: IHttpRequestOptions,
	itemIndex?: number,
	credentials?: ICredentialsDecrypted,
): Promise<IDataObject> {
	const secret = async () => (credentials ? String(credentials.data?.apiToken ?? '') : await apiToken(this));
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
	if ('failure' in reading) throw apiError(this.getNode(), { ...reading.failure, itemIndex }, await secret());
	return reading.envelope;
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
export async function usesEarlierForm(context: Pick<FunctionsBase, 'getCredentials'>): Promise<boolean> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	return credentials.apiForm === 'earlier';
}
