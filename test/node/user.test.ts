import { runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { validParameters } from '../harness/operations';
import { byId, fromList, rl } from '../harness/params';

const fx = useSimulator({ seed: { subscribersPerNumber: 5, messagesPerSubscriber: 1 } });
const user = (operation: string, rest: Record<string, unknown> = {}) => ({
	resource: 'user',
	operation,
	...rest,
});

async function run(
	parameters: Record<string, unknown>,
	options: { earlier?: boolean; items?: number; continueOnFail?: boolean } = {},
) {
	return await runNode({
		parameters: parameters as never,
		credentials: { ...fx.credentials, apiForm: options.earlier ? 'earlier' : 'current' },
		items: options.items
			? Array.from({ length: options.items }, (_, n) => ({ json: { n } }))
			: undefined,
		continueOnFail: options.continueOnFail,
	});
}

/** Runs with `$json.v` = value, so static UI checks pass and the node's own validation is what refuses. */
async function runWith(parameters: Record<string, unknown>, value: unknown, earlier = false) {
	return await runNode({
		parameters: parameters as never,
		credentials: { ...fx.credentials, apiForm: earlier ? 'earlier' : 'current' },
		items: [{ json: { v: value as string } }],
	});
}
const V = '={{ $json.v }}';

function addUsers(count: number) {
	for (let index = 0; index < count; index++) {
		fx.sim.state.users.push({
			user_id: 5000 + index,
			user_type: 'Member',
			name: `Bulk ${index}`,
			email: `bulk${index}@example.com`,
			mobile: '',
			package_id: 1,
			package_name: 'Starter',
			expired_date: '2026-12-31 00:00:00',
			created_at: '2025-01-01 00:00:00',
			last_login_at: '',
			status: '1',
			last_login_ip: '',
		});
	}
}

describe('User operations through the engine', () => {
	it('Get Usage Log posts nothing and outputs the usage object', async () => {
		const { items, error } = await run(user('getUsageLog'));
		expect(error).toBeUndefined();
		expect(fx.sim.requests).toMatchObject([{ method: 'POST', path: '/user/usage/log', body: {} }]);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ package_name: 'Agency', total_modules: 7 });
		expect(items[0].json.modules).toEqual(
			expect.arrayContaining([{ module_name: 'Subscribers', limit: 100000, used: 10 }]),
		);
	});

	it.each([
		['a user ID from the list', fromList(103), '103'],
		['an email', rl('client2@agency.example', 'email'), 'client2@agency.example'],
	])('Get finds one user by %s', async (_name, locator, sent) => {
		const { items, error } = await run(user('get', { user: locator }));
		expect(error).toBeUndefined();
		expect(fx.sim.requests).toHaveLength(1);
		expect(fx.sim.requests[0]).toMatchObject({ method: 'POST', path: '/user/list' });
		expect(fx.sim.requests[0].body).toEqual({ id: sent });
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			package_id: expect.any(Number),
			bot_subscriber_data: expect.any(Object),
			whatsapp_bots_details: [],
		});
	});

	it('Get fails with "No user found" as a NodeApiError', async () => {
		const { error } = await run(user('get', { user: byId(999999) }));
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('No user found');
	});

	it('Get refuses an id that is neither digits nor an email, sending nothing', async () => {
		const { error } = await runWith(user('get', { user: byId(V) }), 'abc');
		expect(error?.message).toMatch(/^User must be a user ID \(digits\) or an email address/);
		expect(fx.sim.requests).toHaveLength(0);
	});

	it('Get Many with Return All walks pages of 1000 (3 pages)', async () => {
		addUsers(2100);
		const { items, error } = await run(user('getMany', { returnAll: true }));
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2112);
		expect(fx.sim.requests.map((request) => request.body)).toEqual([
			{ limit: '1000', offset: '1' },
			{ limit: '1000', offset: '2' },
			{ limit: '1000', offset: '3' },
		]);
		expect(Object.keys(items[0].json).sort()).toEqual([
			'created_at',
			'email',
			'expired_date',
			'last_login_at',
			'last_login_ip',
			'mobile',
			'name',
			'package_name',
			'user_id',
		]);
	});

	it('Get Many with a Limit below one page asks for that many', async () => {
		const { items } = await run(user('getMany', { returnAll: false, limit: 5 }));
		expect(items).toHaveLength(5);
		expect(fx.sim.requests.map((request) => request.body)).toEqual([{ limit: '5', offset: '1' }]);
		expect(items[0].json.user_id).toBe(100);
	});

	it('Get Many in the earlier API form sends no pagination parameters and applies the limit', async () => {
		const { items } = await run(user('getMany', { returnAll: false, limit: 3 }), { earlier: true });
		expect(fx.sim.requests).toHaveLength(1);
		expect(fx.sim.requests[0].body).toEqual({});
		expect(items).toHaveLength(3);
	});

	it('Create sends exactly the spec fields and outputs the new id (mesasge quirk normalised)', async () => {
		const { items, error } = await run(
			user('create', {
				name: 'Nora New',
				email: 'nora@example.com',
				password: 's3cret',
				package: fromList(1),
				expiredDate: '2026-06-30',
				additionalFields: { mobile: '15550001111' },
			}),
		);
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({ method: 'POST', path: '/user/create' });
		expect(fx.sim.requests[0].body).toEqual({
			name: 'Nora New',
			email: 'nora@example.com',
			password: 's3cret',
			package_id: '1',
			expired_date: '2026-06-30',
			mobile: '15550001111',
		});
		const created = fx.sim.state.users.find((entry) => entry.email === 'nora@example.com');
		expect(items.map((item) => item.json)).toEqual([
			{ success: true, message: 'User Created Successfully.', id: created?.user_id },
		]);
	});

	it('Create fails with the subscriber-limit text when the package limit is reached', async () => {
		fx.sim.state.subscriberLimit = 3;
		const { error } = await run(
			user('create', {
				name: 'X',
				email: 'x@example.com',
				password: 'p',
				package: byId(1),
				expiredDate: '2026-06-30',
			}),
		);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(
			'Subscriber limit has been exceeded. You cannot have more subscribers.',
		);
	});

	it.each([
		['email', { email: V }, 'not-an-email', /^Email must be an email address/],
		[
			'date',
			{ expiredDate: V },
			'2025-13-40',
			/^Expiry Date must be a real date in the form YYYY-MM-DD/,
		],
		['package id', { package: byId(V) }, 'two', /^Package must be a whole number/],
		['empty name', { name: V }, '', /^Name is required/],
	])('Create refuses a bad %s without a request', async (_name, override, value, message) => {
		const { error } = await runWith({ ...validParameters('user', 'create'), ...override }, value);
		expect(error?.message).toMatch(message);
		expect(fx.sim.requests).toHaveLength(0);
	});

	it('Update sends status and both resets and changes the user', async () => {
		const { items, error } = await run(
			user('update', {
				user: byId(101),
				updateFields: {
					status: '0',
					resetMonthlyUsage: true,
					resetAiTokenUsage: false,
					package: fromList(1),
					expiredDate: '2027-01-31',
					name: 'Renamed',
				},
			}),
		);
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({ method: 'POST', path: '/user/update' });
		expect(fx.sim.requests[0].body).toEqual({
			id: '101',
			status: '0',
			reset_monthly_usage: '1',
			reset_ai_token_usage: '0',
			package_id: '1',
			expired_date: '2027-01-31',
			name: 'Renamed',
		});
		expect(items[0].json).toEqual({ success: true, message: 'User Updated Successfully.' });
		expect(fx.sim.state.users.find((entry) => entry.user_id === 101)).toMatchObject({
			status: '0',
			package_name: 'Starter',
			name: 'Renamed',
		});
	});

	it('Update refuses Reset AI Token Usage in the earlier API form', async () => {
		const { error } = await run(
			user('update', { user: byId(101), updateFields: { resetAiTokenUsage: true } }),
			{ earlier: true },
		);
		expect(error?.message).toMatch(/^Reset AI Token Usage is not available/);
		expect(fx.sim.requests).toHaveLength(0);
	});

	it('Update fails with the subscriber-limit text', async () => {
		fx.sim.state.subscriberLimit = 1;
		const { error } = await run(user('update', { user: byId(101), updateFields: { status: '1' } }));
		expect(error?.message).toBe(
			'Subscriber limit has been exceeded. You cannot have more subscribers.',
		);
	});

	it('Update refuses a bad email and date without a request', async () => {
		const bad = await runWith(
			user('update', { user: byId(101), updateFields: { email: V } }),
			'nope',
		);
		expect(bad.error?.message).toMatch(/^Email must be an email address/);
		const date = await runWith(
			user('update', { user: byId(101), updateFields: { expiredDate: V } }),
			'2025-13-40',
		);
		expect(date.error?.message).toMatch(/^Expiry Date must be a real date/);
		expect(fx.sim.requests).toHaveLength(0);
	});

	it('Log Out sends user_id and records the logout', async () => {
		const { items, error } = await run(user('logOut', { user: fromList(104) }));
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({
			method: 'POST',
			path: '/user/logout',
			body: { user_id: '104' },
		});
		expect(items[0].json).toEqual({
			success: true,
			message: 'User logout from the system successfully.',
		});
		expect(fx.sim.state.loggedOutUserIds).toEqual([104]);
	});

	it('Log Out refuses a non-numeric user', async () => {
		const { error } = await runWith(user('logOut', { user: byId(V) }), 'x1');
		expect(error?.message).toMatch(/^User must be a whole number/);
		expect(fx.sim.requests).toHaveLength(0);
	});

	it('Get Login Link for an existing user sends create_on_fail 0 and outputs the login result', async () => {
		const { items, error } = await run(user('getLoginLink', { email: 'client1@agency.example' }));
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/user/get/direct-login-url',
			body: { email: 'client1@agency.example', create_on_fail: '0' },
		});
		expect(Object.keys(fx.sim.requests[0].body)).toHaveLength(2);
		expect(items[0].json).toMatchObject({
			email: 'client1@agency.example',
			password: expect.any(String),
			login_url: expect.stringMatching(/^https:/),
			direct_login_url: expect.stringMatching(/^https:/),
		});
	});

	it('Get Login Link fails with "User not found" when the user is missing and creation is off', async () => {
		const { error } = await run(user('getLoginLink', { email: 'ghost@example.com' }));
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('User not found');
	});

	it('Get Login Link creates a missing user when asked', async () => {
		const { items, error } = await run(
			user('getLoginLink', {
				email: 'new@example.com',
				createOnFail: true,
				package: byId(2),
				expiredDate: '2026-09-01',
				additionalFields: { name: 'New One', status: '1' },
			}),
		);
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0].body).toEqual({
			email: 'new@example.com',
			create_on_fail: '1',
			package_id: '2',
			expired_date: '2026-09-01',
			name: 'New One',
			status: '1',
		});
		expect(items[0].json.email).toBe('new@example.com');
		expect(fx.sim.state.users.some((entry) => entry.email === 'new@example.com')).toBe(true);
	});

	it('Get Login Link with creation on requires a package, sending nothing', async () => {
		const { error } = await runWith(
			user('getLoginLink', {
				email: 'new@example.com',
				createOnFail: true,
				package: byId(V),
				expiredDate: '2026-09-01',
			}),
			'',
		);
		expect(error?.message).toBe('Package is required');
		expect(fx.sim.requests).toHaveLength(0);
	});

	it('Create With Login Link creates the user; an existing email fails with "User already existed"', async () => {
		const created = await run(
			user('createWithLoginLink', {
				email: 'fresh@example.com',
				package: fromList(1),
				expiredDate: '2026-10-10',
			}),
		);
		expect(created.error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/user/get/direct-login-url/only-new-users',
			body: { email: 'fresh@example.com', package_id: '1', expired_date: '2026-10-10' },
		});
		expect(Object.keys(fx.sim.requests[0].body)).toHaveLength(3);
		expect(created.items[0].json).toMatchObject({
			email: 'fresh@example.com',
			direct_login_url: expect.any(String),
		});
		const again = await run(
			user('createWithLoginLink', {
				email: 'fresh@example.com',
				package: fromList(1),
				expiredDate: '2026-10-10',
			}),
		);
		expect(again.error?.name).toBe('NodeApiError');
		expect(again.error?.message).toBe('User already existed');
	});

	it('gives error items with pairedItem under Continue On Fail when some users are unknown', async () => {
		const { items, error } = await runNode({
			parameters: user('get', { user: byId('={{ $json.id }}') }) as never,
			credentials: fx.credentials,
			continueOnFail: true,
			items: [
				{ json: { id: 101 } },
				{ json: { id: 999999 } },
				{ json: { id: 'client3@agency.example' } },
			],
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		expect(items[1].json.error).toBe('No user found');
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[2].json.email).toBe('client3@agency.example');
	});

	it('gives an error item for a bad input under Continue On Fail while other items go through', async () => {
		const { items, error } = await runNode({
			parameters: user('create', {
				name: 'N',
				email: '={{ $json.email }}',
				password: 'p',
				package: byId(1),
				expiredDate: '2026-06-30',
			}) as never,
			credentials: fx.credentials,
			continueOnFail: true,
			items: [{ json: { email: 'ok@example.com' } }, { json: { email: 'broken' } }],
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ success: true });
		expect(String(items[1].json.error)).toMatch(/^Email must be an email address/);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(fx.sim.requests).toHaveLength(1);
	});
});
