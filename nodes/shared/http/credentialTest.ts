import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { apiBaseUrl, authenticatedRequest, BaseUrlError } from './credential';
import { redact } from './envelope';
import { timeZoneProblem } from './platformTime';
import { connectionVerdict } from './failures';
import { FORM_CONTENT_TYPE } from './transport';

/**
 * The credential test, supplied by the nodes (`testedBy` on their credential entry, `methods.credentialTest`), not
 * by the credential's own `test` request: n8n's CredentialsTester reports a connection failure of a declarative test
 * request as its bare code (`ENOTFOUND`, `ECONNREFUSED`), with no way for the credential to word it, and uses a
 * node's test only when the credential has no `test` of its own (CredentialsTester.getCredentialTestFunction, n8n
 * 1.85 to 2.41). Here every answer says what is wrong and what to type in the Base URL.
 */
export const CREDENTIAL_TEST = 'botSailorApiTest';
// The nodes write it as the literal 'botSailorApiTest' (n8n's lint reads testedBy as a string literal).

/** What the credential test says when the platform refuses the token (HTTP 401/403); the README quotes its start. */
export const REFUSED_TOKEN_MESSAGE =
	'Authorization failed - please check your credentials: the platform refused this API token. Copy it again from your profile (API Developer), and check that the Base URL is your platform’s address.';

/** What the credential test says when no API answers under the Base URL (HTTP 404), e.g. a path from the address bar. */
export const NOT_FOUND_MESSAGE =
	'Base URL: no API answers at this address (HTTP 404). Type only your platform’s address, e.g. https://botsailor.com or wa.youragency.com, without a path such as /dashboard copied from the browser’s address bar.';

/** What the credential test says when the Base URL answers with a redirect, which is never followed. */
export const REDIRECT_MESSAGE =
	'Base URL: the address answers with a redirect, which the node does not follow (it would send the API token to the new address). Put the final address in the Base URL: usually https:// instead of http://, or the platform’s new domain.';

/** What the credential test says when the platform answers HTTP 200 with `status: "0"`. */
export const STATUS_ZERO_MESSAGE =
	'The platform refused this API token. Copy it again from your profile.';

/** n8n's own text for a passed credential test. */
export const TEST_PASSED_MESSAGE = 'Connection successful!';

/** How long the test waits for the platform's answer. */
const TEST_TIMEOUT_MS = 30_000;

function tlsProblem(host: string): string {
	return `${host} does not answer in HTTPS (a Base URL without http:// or https:// is taken as https://). If your platform is served over plain http, type http://${host}`;
}

/**
 * Before the test's request: a probe of the Base URL's address, without the token, for https:// (added when no
 * scheme was typed) against a server that speaks plain http. Only a TLS version mismatch is taken as proof (a proxy
 * that n8n uses and this probe does not cannot cause one); anything else is left to the test's own request.
 */
async function probeScheme(apiUrl: string): Promise<void> {
	const url = new URL(apiUrl);
	if (url.protocol !== 'https:') return;
	let code: string | undefined;
	try {
		await fetch(url.origin, {
			method: 'HEAD',
			redirect: 'manual',
			signal: AbortSignal.timeout(10_000),
		});
	} catch (error) {
		code = String((error as { cause?: { code?: string } }).cause?.code ?? '');
	}
	if (
		code === 'EPROTO' ||
		code === 'ERR_SSL_WRONG_VERSION_NUMBER' ||
		code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG'
	)
		throw new BaseUrlError(tlsProblem(url.host));
}

/**
 * A failed connection of n8n's own request (so through n8n's proxy settings, if any), in words: the same causes
 * as a run's (failures.ts connectionVerdict), each with what to type in the Base URL.
 */
function connectionProblem(
	error: { code?: string; message?: string; cause?: { code?: string } },
	host: string,
	secret: string,
): string {
	const code = String(error.code ?? error.cause?.code ?? '');
	const message = redact(String(error.message ?? ''), secret);
	const verdict = connectionVerdict(code, message);
	switch (verdict.cause) {
		case 'dns':
			return new BaseUrlError(
				`the host ${host} was not found (no such name in DNS), so nothing was sent; check its spelling`,
			).message;
		case 'tls':
			return new BaseUrlError(tlsProblem(host)).message;
		case 'certificate':
			return new BaseUrlError(
				`the HTTPS certificate of ${host} is not valid for it (${code}), so nothing was sent; check that this is your platform’s own address`,
			).message;
		case 'refused':
			return new BaseUrlError(
				`nothing answers at ${host} (connection refused); check the address and its port, or test again once the platform is up`,
			).message;
		case 'network':
			return new BaseUrlError(
				`${host} could not be reached right now (the network or the DNS server did not answer); check the address, or test again later`,
			).message;
		default:
			return /timeout|ETIMEDOUT|ECONNABORTED/i.test(`${code} ${message}`)
				? `${host} did not answer within ${TEST_TIMEOUT_MS / 1000} s. Check the Base URL, or test again later.`
				: `The connection to ${host} failed: ${code || message}. Check the Base URL and the network.`;
	}
}

interface FullResponse {
	statusCode: number;
	statusMessage?: string;
	body?: unknown;
}

/**
 * Tests a BotSailor API credential: POST user/myInfo with the credential's own authenticate (the token in the form
 * body), redirects reported and never followed (they would carry the token to another address).
 */
export async function testBotSailorApi(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data: ICredentialDataDecryptedObject = credential.data ?? {};
	const secret = String(data.apiToken ?? '').trim();
	let host = '';
	let authenticated;
	// A time zone the runtime does not know fails the test before any request (Platform Time Zone, platformTime.ts).
	const zoneProblem =
		data.platformTimeZone === undefined
			? undefined
			: timeZoneProblem(String(data.platformTimeZone));
	if (zoneProblem) return { status: 'Error', message: zoneProblem };
	try {
		const baseURL = apiBaseUrl(data.baseUrl);
		host = new URL(baseURL).host;
		await probeScheme(baseURL);
		authenticated = authenticatedRequest(data, {
			url: '/user/myInfo',
			method: 'POST',
			body: {},
			headers: { 'Content-Type': FORM_CONTENT_TYPE, Accept: 'application/json' },
		});
	} catch (error) {
		return { status: 'Error', message: redact((error as Error).message, secret) };
	}
	// n8n's own request, with n8n's proxy and TLS settings: its failure is the one a run would meet. The test's
	// context offers `request` only (ICredentialTestFunctions has no httpRequest, n8n 1.85 to 2.41).
	const { request: send } = this.helpers;
	let response: FullResponse;
	try {
		response = (await send({
			method: 'POST',
			uri: `${authenticated.baseURL}${authenticated.url}`,
			headers: authenticated.headers,
			body: authenticated.body,
			json: true,
			simple: false,
			resolveWithFullResponse: true,
			followRedirect: false,
			followAllRedirects: false,
			timeout: TEST_TIMEOUT_MS,
		})) as FullResponse;
	} catch (error) {
		return {
			status: 'Error',
			message: connectionProblem(error as Parameters<typeof connectionProblem>[0], host, secret),
		};
	}
	const status = Number(response.statusCode);
	if (status === 401 || status === 403) return { status: 'Error', message: REFUSED_TOKEN_MESSAGE };
	if (status === 404) return { status: 'Error', message: NOT_FOUND_MESSAGE };
	if ([301, 302, 303, 307, 308].includes(status))
		return { status: 'Error', message: REDIRECT_MESSAGE };
	if (status < 200 || status > 299)
		return {
			status: 'Error',
			message: redact(response.statusMessage || `Received HTTP status code: ${status}`, secret),
		};
	const body = response.body;
	if (body && typeof body === 'object' && (body as IDataObject).status === '0')
		return { status: 'Error', message: STATUS_ZERO_MESSAGE };
	return { status: 'OK', message: TEST_PASSED_MESSAGE };
}
