import axios from 'axios';
import type { IDataObject, IHttpRequestOptions, INodeType } from 'n8n-workflow';
import { apiBaseUrl, BotSailorApi } from '../../credentials/BotSailorApi.credentials';
import { runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';

const fx = useSimulator();
const credential = new BotSailorApi();

/**
 * n8n tests a credential by running its `test.request` as a declarative request (the credential's
 * `authenticate` included) and then applying `test.rules` to the response body. Same here.
 */
function credentialTestNode(): INodeType {
	return {
		description: {
			displayName: 'Credential test', name: 'botSailor', group: ['transform'], version: 1, description: '',
			defaults: { name: 'Credential test' }, inputs: ['main'], outputs: ['main'], properties: [],
			credentials: [{ name: 'botSailorApi', required: true }],
			requestDefaults: credential.test.request,
		},
	} as unknown as INodeType;
}

async function testCredential(apiToken: string): Promise<{ status: 'OK' | 'Error'; message: string }> {
	const { items, error } = await runNode({ nodeType: credentialTestNode(), parameters: {}, credentials: { ...fx.credentials, apiToken } });
	if (error) return { status: 'Error', message: error.message };
	const body = items[0].json as IDataObject;
	for (const rule of credential.test.rules ?? []) {
		if (rule.type === 'responseSuccessBody' && body[rule.properties.key] === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection tested successfully' };
}

describe('BotSailor API credential', () => {
	it('passes the test with a valid token (user/myInfo, POST, token in the form body)', async () => {
		expect(await testCredential(fx.sim.token)).toEqual({ status: 'OK', message: 'Connection tested successfully' });
		expect(fx.sim.requests).toEqual([expect.objectContaining({ method: 'POST', path: '/user/myInfo', tokenIn: ['body'] })]);
	});

	it('fails with a readable message on a wrong token (HTTP 401)', async () => {
		const result = await testCredential('WRONG-TOKEN');
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/authoriz|credentials|Unauthenticated/i);
		expect(result.message).not.toContain('WRONG-TOKEN');
	});

	it('fails with its own message on HTTP 200 with status "0"', async () => {
		fx.sim.faults.add('/user/myInfo', { kind: 'status0', message: 'API access disabled for this account.' });
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
	])('normalises the Base URL %j to %j', (typed, expected) => {
		expect(apiBaseUrl(typed)).toBe(expected);
	});

	describe('puts the token where the API reads it (checked on the simulator side)', () => {
		async function send(options: IHttpRequestOptions) {
			const authenticated = await credential.authenticate({ baseUrl: fx.sim.url, apiToken: fx.sim.token }, options);
			let data = authenticated.body;
			const headers = { ...(authenticated.headers ?? {}) } as Record<string, string>;
			if (headers['Content-Type'] === 'application/x-www-form-urlencoded') data = new URLSearchParams(data as Record<string, string>).toString();
			await axios.request({ baseURL: authenticated.baseURL, url: authenticated.url, method: authenticated.method, params: authenticated.qs, data, headers });
			return fx.sim.requests.at(-1)!;
		}

		it('POST form: a form field, not in the URL', async () => {
			const request = await send({ url: '/user/myInfo', method: 'POST', body: {}, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
			expect(request.tokenIn).toEqual(['body']);
			expect(request.url).not.toContain(fx.sim.token);
		});

		it('GET: a query parameter (the only case where it sits in the URL)', async () => {
			const request = await send({ url: '/user/myInfo', method: 'GET' });
			expect(request.tokenIn).toEqual(['query']);
		});

		it('JSON: in the JSON body and as a Bearer header', async () => {
			const request = await send({ url: '/user/myInfo', method: 'POST', body: {}, headers: { 'Content-Type': 'application/json' } });
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
