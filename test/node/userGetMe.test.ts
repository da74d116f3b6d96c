import { runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';

const fx = useSimulator();
const getMe = { resource: 'user', operation: 'getMe' };

describe('User → Get Me through the engine', () => {
	it('outputs the account that owns the token, sent as a POST form with the token in the body', async () => {
		const { items, error } = await runNode({ parameters: getMe, credentials: fx.credentials });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			user_id: 1,
			email: 'owner@sunrise.example',
			package_name: 'Agency',
		});
		expect(items[0].json.whatsapp_bots_details).toHaveLength(2);
		const [request] = fx.sim.requests;
		expect(request).toMatchObject({
			method: 'POST',
			path: '/user/myInfo',
			body: {},
			tokenIn: ['body'],
		});
		expect(request.url).toBe('/api/v1/user/myInfo');
	});

	it.each([
		['https://host/', 'trailing slash'],
		['https://host/api/v1', 'trailing /api/v1'],
		['https://host/api/v1/', 'trailing /api/v1/'],
	])('accepts a Base URL with a %s (%s)', async (suffix) => {
		const baseUrl = fx.sim.url + suffix.replace('https://host', '');
		const { items } = await runNode({
			parameters: getMe,
			credentials: { ...fx.credentials, baseUrl },
		});
		expect(items[0].json.user_id).toBe(1);
	});

	const failures: Array<[string, () => void, RegExp]> = [
		[
			'status "0"',
			() =>
				fx.sim.faults.add('/user/myInfo', {
					kind: 'status0',
					message: 'Your account is suspended.',
				}),
			/^Your account is suspended\.$/,
		],
		[
			'a 500 HTML page',
			() => fx.sim.faults.add('/user/myInfo', { kind: 'html500' }),
			/web page instead of an API response \(HTTP 500\)/,
		],
		[
			'a 302 to the login page',
			() => fx.sim.faults.add('/user/myInfo', { kind: 'redirect' }),
			// Issue 34: redirects are no longer followed to the login page; the error names the target (changed on purpose).
			/redirect to \/login \(HTTP 302\); the node does not follow redirects/,
		],
		[
			'malformed JSON',
			() => fx.sim.faults.add('/user/myInfo', { kind: 'malformed' }),
			/not valid JSON/,
		],
	];
	it.each(failures)(
		'turns %s into a NodeApiError with the API text and no token',
		async (_name, inject, message) => {
			inject();
			const { items, error } = await runNode({ parameters: getMe, credentials: fx.credentials });
			expect(items).toHaveLength(0);
			expect(error?.name).toBe('NodeApiError');
			expect(error?.message).toMatch(message);
			expect(JSON.stringify(error)).not.toContain(fx.sim.token);
			expect(String(error?.description)).not.toContain(fx.sim.token);
		},
	);

	it('reports a wrong token (HTTP 401) with the API text and a hint', async () => {
		const { error } = await runNode({
			parameters: getMe,
			credentials: { ...fx.credentials, apiToken: 'WRONG-TOKEN' },
		});
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('Unauthenticated.');
		expect(error?.description).toMatch(/refused the API token/);
		expect(JSON.stringify(error)).not.toContain('WRONG-TOKEN');
	});

	it('gives an error item with pairedItem under Continue On Fail', async () => {
		fx.sim.faults.add('/user/myInfo', {
			kind: 'status0',
			message: 'Temporarily unavailable.',
			times: 1,
		});
		const { items, error } = await runNode({
			parameters: getMe,
			credentials: fx.credentials,
			continueOnFail: true,
			items: [{ json: { n: 1 } }, { json: { n: 2 } }],
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		const failed = items.filter((item) => item.json.error);
		expect(failed).toHaveLength(1);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});
