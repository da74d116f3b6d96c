/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the README in plain Node.js */
import axios from 'axios';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CredentialTestContext } from 'n8n-core';
import type { IHttpRequestOptions, INodeCredentialTestResult, INodeType } from 'n8n-workflow';
import { apiBaseUrl } from '../../nodes/shared/http/credential';
import {
	CREDENTIAL_TEST,
	NOT_FOUND_MESSAGE,
	REDIRECT_MESSAGE,
	REFUSED_TOKEN_MESSAGE,
	STATUS_ZERO_MESSAGE,
	testBotSailorApi,
	TEST_PASSED_MESSAGE,
} from '../../nodes/shared/http/credentialTest';
import { BotSailorApi } from '../../credentials/BotSailorApi.credentials';
import { BotSailor } from '../../nodes/BotSailor/BotSailor.node';
import { BotSailorTrigger } from '../../nodes/BotSailorTrigger/BotSailorTrigger.node';
import { BotSailorWebhookTrigger } from '../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node';
import type { TestCredentials } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import type { Simulator } from '../simulator/server';

const fx = useSimulator();
const credential = new BotSailorApi();

/**
 * n8n tests this credential with the nodes' credential test (testedBy → methods.credentialTest, since the credential
 * has no `test` of its own): our testBotSailorApi, called here directly with n8n-core's CredentialTestContext (its
 * `request` is n8n's own). n8n's CredentialsTester around it is run for real in test/e2e/n8n.e2e.test.ts.
 */
async function testCredential(
	data: Partial<TestCredentials> = {},
): Promise<INodeCredentialTestResult> {
	return await testBotSailorApi.call(new CredentialTestContext(), {
		id: 'credential-test',
		name: 'BotSailor account',
		type: 'botSailorApi',
		data: { ...fx.credentials, ...data },
	});
}

/** One rule of the credential test: a credential (over the simulator's good one) or a platform answer, and its verdict. */
interface Rule {
	/** What the credential holds, over the simulator's good one. */
	data?: (sim: Simulator) => Partial<TestCredentials>;
	/** How the platform answers, set up before the test. */
	arrange?: (sim: Simulator) => void;
	status: 'OK' | 'Error';
	/** The whole message, its pattern, or the whole message for this simulator. */
	message: string | RegExp | ((sim: Simulator) => string);
	/** The API paths the test requested (an empty list: refused before any request). */
	requests: string[];
}

const SECRET_IN_URL = 's3cr3t-pass';
const hostOf = (sim: Simulator) => sim.url.replace('http://', '');
const TYPE_THE_ADDRESS =
	'Type only your platform’s address, e.g. https://botsailor.com or wa.youragency.com.';

/** What the credential test decides, case by case: a new case is one new row. */
const RULES: Record<string, Rule> = {
	'a good token passes': {
		status: 'OK',
		message: TEST_PASSED_MESSAGE,
		requests: ['/user/myInfo'],
	},
	'a wrong token (HTTP 401): the text the README promises, not "Unauthorized"': {
		data: () => ({ apiToken: 'WRONG-TOKEN' }),
		status: 'Error',
		message: REFUSED_TOKEN_MESSAGE,
		requests: ['/user/myInfo'],
	},
	'HTTP 200 with status "0": its own message': {
		arrange: (sim) =>
			sim.faults.add('/user/myInfo', {
				kind: 'status0',
				message: 'API access disabled for this account.',
			}),
		status: 'Error',
		message: STATUS_ZERO_MESSAGE,
		requests: ['/user/myInfo'],
	},
	'a Platform Time Zone the runtime does not know: fails naming the field, before any request': {
		data: () => ({ platformTimeZone: 'Asia/Dhak' }),
		status: 'Error',
		message: /^Platform Time Zone "Asia\/Dhak" is not a time zone/,
		requests: [],
	},
	'a Platform Time Zone the runtime knows passes': {
		data: () => ({ platformTimeZone: 'Asia/Dhaka' }),
		status: 'OK',
		message: TEST_PASSED_MESSAGE,
		requests: ['/user/myInfo'],
	},
	'a path copied from the address bar (/dashboard): the 404 explains the Base URL': {
		data: (sim) => ({ baseUrl: `${sim.url}/dashboard` }),
		status: 'Error',
		message: NOT_FOUND_MESSAGE,
		requests: [],
	},
	'a redirect (no token: the platform sends its login page) is reported, never followed': {
		data: () => ({ apiToken: '' }),
		status: 'Error',
		message: REDIRECT_MESSAGE,
		requests: ['/user/myInfo'],
	},
	'no scheme against a plain-http server: not a bare EPROTO, but "type http://<host>"': {
		data: (sim) => ({ baseUrl: hostOf(sim) }),
		status: 'Error',
		message: (sim) =>
			`Base URL: ${hostOf(sim)} does not answer in HTTPS (a Base URL without http:// or https:// is taken as https://). If your platform is served over plain http, type http://${hostOf(sim)}. ${TYPE_THE_ADDRESS}`,
		requests: [],
	},
	// .invalid never resolves (RFC 2606).
	'an unknown host: not a bare ENOTFOUND, but the host not found and what to type': {
		data: () => ({ baseUrl: 'https://no-such-platform.invalid' }),
		status: 'Error',
		message: `Base URL: the host no-such-platform.invalid was not found (no such name in DNS), so nothing was sent; check its spelling. ${TYPE_THE_ADDRESS}`,
		requests: [],
	},
	'an unknown host without a scheme (https:// is added) and with a port': {
		data: () => ({ baseUrl: 'wa.no-such-agency.invalid:8443' }),
		status: 'Error',
		message:
			/^Base URL: the host wa\.no-such-agency\.invalid:8443 was not found \(no such name in DNS\)/,
		requests: [],
	},
	'a refused connection (localhost:1, https:// added): in words, not a bare ECONNREFUSED or ERR_INVALID_URL':
		{
			data: () => ({ baseUrl: 'localhost:1' }),
			status: 'Error',
			message:
				/^Base URL: nothing answers at localhost:1 \(connection refused\); check the address and its port/,
			requests: [],
		},
	'a query in the Base URL: refused before any request, naming the field and the fix': {
		data: (sim) => ({ baseUrl: `${sim.url}?lang=en` }),
		status: 'Error',
		message: /^Base URL: .*contains a query/,
		requests: [],
	},
	'a fragment in the Base URL: refused before any request, naming the field and the fix': {
		data: (sim) => ({ baseUrl: `${sim.url}/#/dashboard` }),
		status: 'Error',
		message: /^Base URL: .*contains a fragment/,
		requests: [],
	},
	'an API endpoint in the Base URL: refused before any request, naming the field and the fix': {
		data: (sim) => ({ baseUrl: `${sim.url}/api/v1/user/myInfo` }),
		status: 'Error',
		message: /^Base URL: .*contains the API path \/api\/v1\/user\/myInfo/,
		requests: [],
	},
	'a user and password in the Base URL: refused before any request, and never shown': {
		data: (sim) => ({ baseUrl: sim.url.replace('http://', `http://admin:${SECRET_IN_URL}@`) }),
		status: 'Error',
		message: /^Base URL: it contains a user name or password/,
		requests: [],
	},
};

describe('what the credential test decides (issues 34 and 35: what is wrong and what to type)', () => {
	it.each(Object.entries(RULES))('%s', async (_name, rule) => {
		rule.arrange?.(fx.sim);
		const result = await testCredential(rule.data?.(fx.sim));
		const message = typeof rule.message === 'function' ? rule.message(fx.sim) : rule.message;
		expect(result).toEqual({
			status: rule.status,
			message: typeof message === 'string' ? message : expect.stringMatching(message),
		});
		expect(fx.sim.requests.map((request) => request.path)).toEqual(rule.requests);
		// Never the token, nor a password typed in the Base URL.
		expect(result.message).not.toContain(fx.sim.token);
		expect(result.message).not.toContain('WRONG-TOKEN');
		expect(result.message).not.toContain(SECRET_IN_URL);
	});

	it('its request: POST user/myInfo with the token in the form body', async () => {
		await testCredential();
		expect(fx.sim.requests).toEqual([
			expect.objectContaining({ method: 'POST', path: '/user/myInfo', tokenIn: ['body'] }),
		]);
	});

	it('the refused-token message starts with what the README promises', () => {
		const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
		const promised = /A wrong token fails with\s+"([^"]+)"/.exec(readme.replace(/\n/g, ' '))?.[1];
		expect(promised).toBeDefined();
		expect(REFUSED_TOKEN_MESSAGE.startsWith(promised!)).toBe(true);
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
});

describe('BotSailor API credential', () => {
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
