/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the README in plain Node.js */
import axios from 'axios';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CredentialTestContext } from 'n8n-core';
import type { IHttpRequestOptions, INodeCredentialTestResult, INodeType } from 'n8n-workflow';
import { apiBaseUrl } from '../../nodes/shared/credential';
import {
	CREDENTIAL_TEST,
	NOT_FOUND_MESSAGE,
	REDIRECT_MESSAGE,
	REFUSED_TOKEN_MESSAGE,
	STATUS_ZERO_MESSAGE,
	testBotSailorApi,
	TEST_PASSED_MESSAGE,
} from '../../nodes/shared/credentialTest';
import { BotSailorApi } from '../../credentials/BotSailorApi.credentials';
import { BotSailor } from '../../nodes/BotSailor/BotSailor.node';
import { BotSailorTrigger } from '../../nodes/BotSailorTrigger/BotSailorTrigger.node';
import { BotSailorWebhookTrigger } from '../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node';
import { useSimulator } from '../harness/simulatorFixture';

const fx = useSimulator();
const credential = new BotSailorApi();

/**
 * n8n tests this credential with the nodes' credential test (testedBy → methods.credentialTest, since the credential
 * has no `test` of its own), called with n8n's own CredentialTestContext, as n8n's CredentialsTester calls it.
 */
async function testCredential(
	apiToken: string,
	baseUrl = fx.credentials.baseUrl,
): Promise<INodeCredentialTestResult> {
	return await testBotSailorApi.call(new CredentialTestContext(), {
		id: 'credential-test',
		name: 'BotSailor account',
		type: 'botSailorApi',
		data: { ...fx.credentials, apiToken, baseUrl },
	});
}

describe('BotSailor API credential', () => {
	it('passes the test with a valid token (user/myInfo, POST, token in the form body)', async () => {
		expect(await testCredential(fx.sim.token)).toEqual({
			status: 'OK',
			message: TEST_PASSED_MESSAGE,
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
	});

	it('a Platform Time Zone the runtime does not know fails the test, naming the field, before any request; a known one passes', async () => {
		const withZone = async (platformTimeZone: string) =>
			await testBotSailorApi.call(new CredentialTestContext(), {
				id: 'credential-test',
				name: 'BotSailor account',
				type: 'botSailorApi',
				data: { ...fx.credentials, platformTimeZone },
			});
		expect(await withZone('Asia/Dhak')).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^Platform Time Zone "Asia\/Dhak" is not a time zone/),
		});
		expect(fx.sim.requests).toEqual([]);
		expect(await withZone('Asia/Dhaka')).toEqual({ status: 'OK', message: TEST_PASSED_MESSAGE });
	});

	it('fails with its own message on HTTP 200 with status "0"', async () => {
		fx.sim.faults.add('/user/myInfo', {
			kind: 'status0',
			message: 'API access disabled for this account.',
		});
		expect(await testCredential(fx.sim.token)).toEqual({
			status: 'Error',
			message: STATUS_ZERO_MESSAGE,
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
		// Refused there: said in words with what to check, not n8n's bare ECONNREFUSED.
		expect(result.message).toMatch(
			/^Base URL: nothing answers at localhost:1 \(connection refused\); check the address and its port/,
		);
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

	it('an unknown host: not a bare ENOTFOUND, but the host not found and what to type', async () => {
		// .invalid never resolves (RFC 2606).
		const result = await testCredential(fx.sim.token, 'https://no-such-platform.invalid');
		expect(result).toEqual({
			status: 'Error',
			message:
				'Base URL: the host no-such-platform.invalid was not found (no such name in DNS), so nothing was sent; check its spelling. Type only your platform’s address, e.g. https://botsailor.com or wa.youragency.com.',
		});
		expect(result.message).not.toContain(fx.sim.token);
		// Without a scheme too (https:// is added), and with a port.
		expect((await testCredential(fx.sim.token, 'wa.no-such-agency.invalid:8443')).message).toMatch(
			/^Base URL: the host wa\.no-such-agency\.invalid:8443 was not found \(no such name in DNS\)/,
		);
		expect(fx.sim.requests).toEqual([]);
	});

	it('n8n runs this test: the credential has no `test` of its own, every node names it in testedBy', () => {
		// n8n's CredentialsTester.getCredentialTestFunction takes a credential's own `test` first (n8n 1.85 to 2.41):
		// with one, the nodes' test would never run and an unknown host would read as a bare ENOTFOUND again.
		expect((credential as { test?: unknown }).test).toBeUndefined();
		for (const node of [
			new BotSailor(),
			new BotSailorTrigger(),
			new BotSailorWebhookTrigger(),
		] as INodeType[]) {
			expect(node.description.credentials).toEqual([
				expect.objectContaining({ name: 'botSailorApi', testedBy: CREDENTIAL_TEST }),
			]);
			expect(node.methods?.credentialTest?.[CREDENTIAL_TEST]).toBe(testBotSailorApi);
		}
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
