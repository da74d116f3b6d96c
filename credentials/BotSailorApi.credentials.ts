import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';
import { apiBaseUrl, BaseUrlError, DEFAULT_SENDS_IN_FLIGHT } from '../nodes/shared/credential';

/** What the credential test says when the platform refuses the token (HTTP 401/403); the README quotes its start. */
export const REFUSED_TOKEN_MESSAGE =
	'Authorization failed - please check your credentials: the platform refused this API token. Copy it again from your profile (API Developer), and check that the Base URL is your platform’s address.';

/** What the credential test says when no API answers under the Base URL (HTTP 404), e.g. a path from the address bar. */
export const NOT_FOUND_MESSAGE =
	'Base URL: no API answers at this address (HTTP 404). Type only your platform’s address, e.g. https://botsailor.com or wa.youragency.com, without a path such as /dashboard copied from the browser’s address bar.';

/** What the credential test says when the Base URL answers with a redirect, which is never followed. */
export const REDIRECT_MESSAGE =
	'Base URL: the address answers with a redirect, which the node does not follow (it would send the API token to the new address). Put the final address in the Base URL: usually https:// instead of http://, or the platform’s new domain.';

/** The header that marks the credential test's request (test.request below); authenticate removes it. */
const TEST_MARKER = 'x-botsailor-credential-test';

/**
 * Before the credential test's request: a probe of the Base URL's address, without the token, for the one mistake
 * n8n's credential test would show as a bare code (EPROTO): https:// (added when no scheme was typed) against a server
 * that speaks plain http. Only a TLS version mismatch is taken as proof (a proxy that n8n uses and this probe does
 * not cannot cause one); anything else is left to the test's own request.
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
		throw new BaseUrlError(
			`${url.host} does not answer in HTTPS (a Base URL without http:// or https:// is taken as https://). If your platform is served over plain http, type http://${url.host}`,
		);
}

function isJsonRequest(options: IHttpRequestOptions): boolean {
	const contentType = Object.entries(options.headers ?? {}).find(
		([name]) => name.toLowerCase() === 'content-type',
	)?.[1];
	return String(contentType ?? '').includes('application/json');
}

export class BotSailorApi implements ICredentialType {
	name = 'botSailorApi';

	displayName = 'BotSailor API';

	icon: Icon = { light: 'file:../icons/botsailor.svg', dark: 'file:../icons/botsailor.dark.svg' };

	documentationUrl = 'https://github.com/botsailor/n8n-nodes-botsailor#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://botsailor.com',
			placeholder: 'e.g. https://botsailor.com or wa.youragency.com',
			description:
				'The address you open your BotSailor or white-label dashboard at. https:// is added when missing; a trailing slash or /api/v1 is fine.',
			hint: 'Copy it from the browser’s address bar when logged in to your platform, for example botsailor.com or app.youragency.com',
		},
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The API token from your platform profile (API Developer)',
			hint: 'On your platform: profile menu → API Developer → copy the API token',
		},
		{
			displayName: 'API Form',
			name: 'apiForm',
			type: 'options',
			options: [
				{
					name: 'Current',
					value: 'current',
					description: 'The interface as BotSailor publishes it today',
				},
				{
					name: 'Earlier',
					value: 'earlier',
					description:
						'Deployments still on the earlier form: label paths with a WhatsApp number, no pagination parameters, addon access type',
				},
			],
			default: 'current',
			description:
				'Which form of the API your deployment runs. BotSailor itself and up-to-date white-label platforms run Current.',
			hint: 'Not sure? Keep Current and save (the test passes on both forms), then run BotSailor → Label → Get Many: if it fails with a not-found error or a web page instead of data, choose Earlier. Your platform’s API documentation tells too: label endpoints under /whatsapp/label/ mean Earlier.',
		},
		{
			displayName: 'Max Sends in Flight',
			name: 'maxSendsInFlight',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 },
			default: DEFAULT_SENDS_IN_FLIGHT,
			description:
				'How many messages n8n sends to this account at the same moment. When a workflow sends many (a broadcast, a list of subscribers), the others wait a moment for their turn, so the platform is not flooded and no message is lost.',
			hint: 'Keep 6 unless the platform answers “too many requests”: then lower it. Several n8n workers? See the README, Queue mode.',
		},
	];

	/** The token goes where the API reads it, and never into a URL unless the request is a GET. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		// Trimmed: a token copied with a space or a line break around it is the same token.
		const apiToken = String(credentials.apiToken ?? '').trim();
		const options: IHttpRequestOptions = {
			...requestOptions,
			baseURL: apiBaseUrl(credentials.baseUrl),
			headers: { ...(requestOptions.headers ?? {}) },
		};
		if (options.headers![TEST_MARKER] !== undefined) {
			delete options.headers![TEST_MARKER];
			await probeScheme(options.baseURL!);
		}
		const method = (options.method ?? 'GET').toUpperCase();
		const body = options.body;

		if (body instanceof FormData) {
			body.set('apiToken', apiToken);
			options.headers!.Authorization = `Bearer ${apiToken}`;
		} else if (method === 'GET' || method === 'HEAD') {
			options.qs = { ...(options.qs ?? {}), apiToken };
		} else {
			const fields = body && typeof body === 'object' ? body : {};
			options.body = { ...fields, apiToken };
			if (isJsonRequest(options)) options.headers!.Authorization = `Bearer ${apiToken}`;
		}
		return options;
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: '/user/myInfo',
			method: 'POST',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded', [TEST_MARKER]: 'probe' },
			// A redirect is reported (rules below), never followed: following it would send the token to another host.
			disableFollowRedirect: true,
		},
		// n8n's type lists one kind of rule per test, but its CredentialsTester (2.41) checks every rule by its own
		// type: responseCode rules on an HTTP error, responseSuccessBody rules on a success body.
		rules: [
			{ type: 'responseCode', properties: { value: 401, message: REFUSED_TOKEN_MESSAGE } },
			{ type: 'responseCode', properties: { value: 403, message: REFUSED_TOKEN_MESSAGE } },
			{ type: 'responseCode', properties: { value: 404, message: NOT_FOUND_MESSAGE } },
			...[301, 302, 303, 307, 308].map((value) => ({
				type: 'responseCode',
				properties: { value, message: REDIRECT_MESSAGE },
			})),
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'status',
					value: '0',
					message: 'The platform refused this API token. Copy it again from your profile.',
				},
			},
		] as ICredentialTestRequest['rules'],
	};
}
