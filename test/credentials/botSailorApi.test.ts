/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the README in plain Node.js */
import axios from 'axios';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject, IHttpRequestOptions, INodeType } from 'n8n-workflow';
import { apiBaseUrl } from '../../nodes/shared/credential';
import {
	BotSailorApi,
	NOT_FOUND_MESSAGE,
	REDIRECT_MESSAGE,
	REFUSED_TOKEN_MESSAGE,
} from '../../credentials/BotSailorApi.credentials';
import { runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';

const fx = useSimulator();
const credential = new BotSailorApi();

/**
 * n8n tests a credential by running its `test.request` as a declarative request (the credential's
 * `authenticate` included), then applies `test.rules`: `responseCode` rules to an HTTP error (else it
 * reports the HTTP status text, e.g. "Unauthorized"), `responseSuccessBody` rules to a success body
 * (n8n 2.41 CredentialsTester). Same here.
 */
function credentialTestNode(): INodeType {
	return {
		description: {
			displayName: 'Credential test',
			name: 'botSailor',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: { name: 'Credential test' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
			credentials: [{ name: 'botSailorApi', required: true }],
			requestDefaults: credential.test.request,
		},
	} as unknown as INodeType;
}

async function testCredential(
	apiToken: string,
	baseUrl = fx.credentials.baseUrl,
): Promise<{ status: 'OK' | 'Error'; message: string }> {
	const { items, error } = await runNode({
		nodeType: credentialTestNode(),
		parameters: {},
		credentials: { ...fx.credentials, apiToken, baseUrl },
	});
	if (error) {
		// As n8n 2.41's CredentialsTester.runRequestTest reads a failed test request: an HTTP answer by its status
		// (responseCode rules, else the status text), a connection failure by its bare code, anything else by its message.
		const cause = (error as { cause?: { response?: { status?: number }; code?: string } }).cause;
		const status = Number(cause?.response?.status ?? (error as { httpCode?: string }).httpCode);
		for (const rule of credential.test.rules ?? []) {
			if (rule.type === 'responseCode' && rule.properties.value === status)
				return { status: 'Error', message: rule.properties.message };
		}
		if (!cause?.response && cause?.code) return { status: 'Error', message: cause.code };
		return { status: 'Error', message: error.message };
	}
	const body = items[0].json as IDataObject;
	for (const rule of credential.test.rules ?? []) {
		if (
			rule.type === 'responseSuccessBody' &&
			body[rule.properties.key] === rule.properties.value
		) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection tested successfully' };
}

describe('BotSailor API credential', () => {
	it('passes the test with a valid token (user/myInfo, POST, token in the form body)', async () => {
		expect(await testCredential(fx.sim.token)).toEqual({
			status: 'OK',
			message: 'Connection tested successfully',
		});
		expect(fx.sim.requests).toEqual([
			expect.objectContaining({ method: 'POST', path: '/user/myInfo', tokenIn: ['body'] }),
		]);
	});

	it('fails on a wrong token (HTTP 401) with the text the README promises, not "Unauthorized"', async () => {
		const result = await testCredential('WRONG-TOKEN');
		expect(result).toEqual({ status: 'Error', message: REFUSED_TOKEN_MESSAGE });
		expect(result.message).not.toContain('WRONG-TOKEN');
		const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
		const promised = /A wrong token fails with\s+"([^"]+)"/.exec(readme.replace(/\n/g, ' '))?.[1];
		expect(promised).toBeDefined();
		expect(REFUSED_TOKEN_MESSAGE.startsWith(promised!)).toBe(true);
		expect(credential.test.rules).toEqual(
			expect.arrayContaining([
				{ type: 'responseCode', properties: { value: 403, message: REFUSED_TOKEN_MESSAGE } },
			]),
		);
	});

	it('fails with its own message on HTTP 200 with status "0"', async () => {
		fx.sim.faults.add('/user/myInfo', {
			kind: 'status0',
			message: 'API access disabled for this account.',
		});
		expect(await testCredential(fx.sim.token)).toEqual({
			status: 'Error',
			message: 'The platform refused this API token. Copy it again from your profile.',
		});
	});

	it.each([
		['https://botsailor.com', 'https://botsailor.com/api/v1'],
		['https://botsailor.com/', 'https://botsailor.com/api/v1'],
		['https://wa.agency.example/api/v1/', 'https://wa.agency.example/api/v1'],
		['  https://wa.agency.example/API/V1  ', 'https://wa.agency.example/api/v1'],
		['app.botsailor.com', 'https://app.botsailor.com/api/v1'],
		['app.botsailor.com/', 'https://app.botsailor.com/api/v1'],
		[' wa.agency.example/api/v1 ', 'https://wa.agency.example/api/v1'],
		['//wa.agency.example', 'https://wa.agency.example/api/v1'],
		['https://app.botsailor.com/', 'https://app.botsailor.com/api/v1'],
		['HTTPS://App.BotSailor.com', 'https://app.botsailor.com/api/v1'],
		['http://127.0.0.1:5055', 'http://127.0.0.1:5055/api/v1'],
		['localhost:5055', 'https://localhost:5055/api/v1'],
	])('normalises the Base URL %j to %j', (typed, expected) => {
		expect(apiBaseUrl(typed)).toBe(expected);
	});

	it('a Base URL without https:// reaches https://<host>/api/v1 (no ERR_INVALID_URL)', async () => {
		const authenticated = await credential.authenticate(
			{ baseUrl: 'app.botsailor.com', apiToken: 't' },
			{ url: '/user/myInfo', method: 'POST', body: {} },
		);
		expect(new URL(`${authenticated.baseURL}${authenticated.url}`).href).toBe(
			'https://app.botsailor.com/api/v1/user/myInfo',
		);
		// Through n8n's engine: the request goes out to https://localhost:1 (refused there), not an invalid URL.
		const result = await testCredential(fx.sim.token, 'localhost:1');
		expect(result.status).toBe('Error');
		expect(result.message).not.toMatch(/ERR_INVALID_URL|Invalid URL/i);
		expect(result.message).toMatch(/ECONNREFUSED|connect/i);
	});

	it('says in its own hints what to enter and how to tell the API form', () => {
		const field = (name: string) =>
			credential.properties.find((property) => property.name === name)!;
		expect(field('baseUrl').description).toMatch(/https:\/\/ is added when missing/);
		expect(field('baseUrl').hint).toMatch(/address bar/);
		expect(field('apiToken').hint).toMatch(/API Developer/);
		expect(field('apiForm').hint).toMatch(/Not sure\? Keep Current/);
		expect(field('apiForm').hint).toMatch(/Label → Get Many/);
		expect(field('apiForm').hint).toMatch(/\/whatsapp\/label\//);
	});

	describe('puts the token where the API reads it (checked on the simulator side)', () => {
		async function send(options: IHttpRequestOptions) {
			const authenticated = await credential.authenticate(
				{ baseUrl: fx.sim.url, apiToken: fx.sim.token },
				options,
			);
			let data = authenticated.body;
			const headers = { ...(authenticated.headers ?? {}) } as Record<string, string>;
			if (headers['Content-Type'] === 'application/x-www-form-urlencoded')
				data = new URLSearchParams(data as Record<string, string>).toString();
			await axios.request({
				baseURL: authenticated.baseURL,
				url: authenticated.url,
				method: authenticated.method,
				params: authenticated.qs,
				data,
				headers,
			});
			return fx.sim.requests.at(-1)!;
		}

		it('POST form: a form field, not in the URL', async () => {
			const request = await send({
				url: '/user/myInfo',
				method: 'POST',
				body: {},
				headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			});
			expect(request.tokenIn).toEqual(['body']);
			expect(request.url).not.toContain(fx.sim.token);
		});

		it('GET: a query parameter (the only case where it sits in the URL)', async () => {
			const request = await send({ url: '/user/myInfo', method: 'GET' });
			expect(request.tokenIn).toEqual(['query']);
		});

		it('JSON: in the JSON body and as a Bearer header', async () => {
			const request = await send({
				url: '/user/myInfo',
				method: 'POST',
				body: {},
				headers: { 'Content-Type': 'application/json' },
			});
			expect(request.tokenIn).toEqual(['body', 'bearer']);
			expect(request.headers.authorization).toBe(`Bearer ${fx.sim.token}`);
		});

		it('multipart: a form-data field and a Bearer header', async () => {
			const form = new FormData();
			form.append('note', 'x');
			const request = await send({ url: '/user/myInfo', method: 'POST', body: form });
			expect(request.tokenIn).toEqual(['body', 'bearer']);
			expect(request.contentType).toMatch(/^multipart\/form-data/);
		});
	});
});

describe('Base URL mistakes in the credential test: what is wrong and what to type (issues 34 and 35)', () => {
	it('no scheme against a plain-http server: not a bare EPROTO, but "type http://<host>"', async () => {
		const host = fx.sim.url.replace('http://', '');
		const result = await testCredential(fx.sim.token, host);
		expect(result.status).toBe('Error');
		expect(result.message).toBe(
			`Base URL: ${host} does not answer in HTTPS (a Base URL without http:// or https:// is taken as https://). If your platform is served over plain http, type http://${host}. Type only your platform’s address, e.g. https://botsailor.com or wa.youragency.com.`,
		);
		expect(fx.sim.requests).toEqual([]);
	});

	it('a path copied from the address bar (/dashboard): the 404 explains the Base URL', async () => {
		const result = await testCredential(fx.sim.token, `${fx.sim.url}/dashboard`);
		expect(result).toEqual({ status: 'Error', message: NOT_FOUND_MESSAGE });
	});

	it('a redirect is reported, never followed (the token would go to the new address)', async () => {
		// The simulator answers a request without a token with HTTP 302 to its login page.
		const result = await testCredential('', fx.sim.url);
		expect(result).toEqual({ status: 'Error', message: REDIRECT_MESSAGE });
		expect(fx.sim.requests.map((request) => request.path)).toEqual(['/user/myInfo']);
	});

	it.each([
		['a query', `?lang=en`, /contains a query/],
		['a fragment', `/#/dashboard`, /contains a fragment/],
		['an API endpoint', `/api/v1/user/myInfo`, /contains the API path \/api\/v1\/user\/myInfo/],
	])(
		'%s: refused before any request, naming the field and the fix',
		async (_name, suffix, problem) => {
			const result = await testCredential(fx.sim.token, `${fx.sim.url}${suffix}`);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/^Base URL: /);
			expect(result.message).toMatch(problem);
			expect(fx.sim.requests).toEqual([]);
		},
	);

	it('a user and password in the Base URL: refused, and never shown', async () => {
		const result = await testCredential(
			fx.sim.token,
			fx.sim.url.replace('http://', 'http://admin:s3cr3t-pass@'),
		);
		expect(result.message).toMatch(/^Base URL: it contains a user name or password/);
		expect(result.message).not.toContain('s3cr3t-pass');
		expect(fx.sim.requests).toEqual([]);
	});
});
