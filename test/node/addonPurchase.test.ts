import { callMethod, runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { fromList, byId } from '../harness/params';

const fx = useSimulator({ seed: { subscribersPerNumber: 5, messagesPerSubscriber: 1 } });
const V = '={{ $json.v }}';
const purchase = (operation: string, rest: Record<string, unknown> = {}) => ({
	resource: 'addonPurchase',
	operation,
	...rest,
});

async function run(parameters: Record<string, unknown>, value?: unknown) {
	return await runNode({
		parameters: parameters as never,
		credentials: fx.credentials,
		items: value === undefined ? undefined : [{ json: { v: value as string } }],
	});
}

describe('Addon Purchase through the engine', () => {
	it('Create assigns a variation to a user', async () => {
		const { items, error } = await run(
			purchase('create', {
				user: fromList(105),
				addon: fromList('1-0'),
				expiredDate: '2026-08-01',
				additionalFields: { status: '0' },
			}),
		);
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({ method: 'POST', path: '/user/addon/assign' });
		expect(fx.sim.requests[0].body).toEqual({
			user_id: '105',
			addon_id: '1-0',
			expired_date: '2026-08-01',
			status: '0',
		});
		expect(items[0].json).toEqual({
			success: true,
			message: 'Addon has been assign successfully.',
		});
		expect(fx.sim.state.purchases.at(-1)).toMatchObject({
			user_id: 105,
			addon_id: 1,
			status: '0',
			expired_date: '2026-08-01',
		});
	});

	it.each([
		[
			'addon reference',
			{ addon: byId(V) },
			'1-x',
			/^Addon must be an addon ID, or <addon ID>-<variation index>/,
		],
		['date', { expiredDate: V }, '2025-13-40', /^Expiry Date must be a real date/],
		['user', { user: byId(V) }, 'bob', /^User must be a whole number/],
	])('Create refuses a bad %s without a request', async (_name, override, value, message) => {
		const { error } = await run(
			purchase('create', {
				user: byId(105),
				addon: byId(1),
				expiredDate: '2026-08-01',
				...override,
			}),
			value,
		);
		expect(error?.message).toMatch(message);
		expect(fx.sim.requests).toHaveLength(0);
	});

	it('Get Many returns all across pages of 100, decoding purchase JSON fields', async () => {
		const template = fx.sim.state.purchases[0];
		for (let index = 0; index < 230; index++)
			fx.sim.state.purchases.push({ ...template, id: 20_000 + index });
		const { items } = await run(purchase('getMany', { returnAll: true }));
		expect(items).toHaveLength(238);
		expect(fx.sim.requests.map((request) => request.body)).toEqual(
			[1, 2, 3].map((offset) => ({ limit: '100', offset: String(offset) })),
		);
		expect(items[0].json.access_data).toEqual({ extend_value: 1000 });
		expect(items[0].json).not.toHaveProperty('used');
	});

	it('Get Many filters by user with a Limit below one page, decoding off', async () => {
		const { items } = await run(
			purchase('getMany', {
				limit: 1,
				filters: { user: byId(103) },
				options: { decodeJsonFields: false },
			}),
		);
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/user/addon/assign/list',
			body: { user_id: '103', limit: '1', offset: '1' },
		});
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ id: 903, user_id: 103 });
		expect(typeof items[0].json.access_data).toBe('string');
	});

	it('Update with Unlimited sends expired_date empty and clears the expiry', async () => {
		const { items, error } = await run(
			purchase('update', {
				addonPurchase: fromList(901),
				expiry: 'unlimited',
				updateFields: { status: '0', addon: byId('1-0') },
			}),
		);
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({ method: 'POST', path: '/user/addon/assign/update' });
		expect(fx.sim.requests[0].body).toEqual({
			id: '901',
			expired_date: '',
			status: '0',
			addon_id: '1-0',
		});
		expect(items[0].json).toEqual({
			success: true,
			message: 'Addon purchase updated successfully.',
		});
		expect(fx.sim.state.purchases.find((entry) => entry.id === 901)).toMatchObject({
			expired_date: null,
			status: '0',
		});
	});

	it("Update with a date sends it; Don't Change sends no expiry", async () => {
		await run(
			purchase('update', { addonPurchase: byId(902), expiry: 'date', expiredDate: '2027-02-02' }),
		);
		expect(fx.sim.requests[0].body).toEqual({ id: '902', expired_date: '2027-02-02' });
		await run(purchase('update', { addonPurchase: byId(902), updateFields: { status: '1' } }));
		expect(fx.sim.requests[1].body).toEqual({ id: '902', status: '1' });
	});

	it('Update refuses an impossible date and an empty date without a request', async () => {
		const bad = await run(
			purchase('update', { addonPurchase: byId(902), expiry: 'date', expiredDate: V }),
			'2025-13-40',
		);
		expect(bad.error?.message).toMatch(/^Expiry Date must be a real date/);
		const empty = await run(
			purchase('update', { addonPurchase: byId(902), expiry: 'date', expiredDate: V }),
			'',
		);
		expect(empty.error?.message).toBe('Expiry Date is required');
		expect(fx.sim.requests).toHaveLength(0);
	});

	it('Update fails with "Addon purchase not found." for an unknown purchase', async () => {
		const { error } = await run(
			purchase('update', { addonPurchase: byId(1), updateFields: { status: '1' } }),
		);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('Addon purchase not found.');
	});

	it('Get AI Tokens reads the wallet without used/available', async () => {
		const { items, error } = await run(purchase('getAiTokens', { addonPurchase: byId(907) }));
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/user/addon/assign/credits',
			body: { id: '907' },
		});
		expect(items[0].json).toEqual({ used: 2500, available: 97500, credit_limit: 100000 });
	});

	it('Update AI Tokens sends used and available (and the owner check)', async () => {
		const { items } = await run(
			purchase('updateAiTokens', {
				addonPurchase: byId(907),
				used: 100,
				available: 900,
				additionalFields: { user: byId(107) },
			}),
		);
		expect(fx.sim.requests[0].body).toEqual({
			id: '907',
			used: '100',
			available: '900',
			user_id: '107',
		});
		expect(items[0].json).toEqual({
			success: true,
			message: 'AI tokens have been updated successfully.',
			used: 100,
			available: 900,
			credit_limit: 1000,
		});
	});

	it('AI tokens fail with "Addon purchase not found" for an unknown purchase or another user', async () => {
		const unknown = await run(purchase('getAiTokens', { addonPurchase: byId(1) }));
		expect(unknown.error?.message).toBe('Addon purchase not found');
		const other = await run(
			purchase('updateAiTokens', {
				addonPurchase: byId(907),
				used: 1,
				available: 1,
				additionalFields: { user: byId(100) },
			}),
		);
		expect(other.error?.message).toBe('Addon purchase not found');
	});

	it('Update AI Tokens refuses a non-numeric count without a request', async () => {
		const { error } = await run(
			purchase('updateAiTokens', { addonPurchase: byId(907), used: V, available: 1 }),
			'lots',
		);
		expect(error?.message).toMatch(/^Used Tokens must be a whole number/);
		expect(fx.sim.requests).toHaveLength(0);
	});

	it('Delete removes a purchase; an AI-token purchase is refused with the API message; unknown is not found', async () => {
		const { items } = await run(purchase('delete', { addonPurchase: fromList(900) }));
		expect(fx.sim.requests[0]).toMatchObject({
			method: 'POST',
			path: '/addon/purchase/delete',
			body: { id: '900' },
		});
		expect(items[0].json).toEqual({
			success: true,
			message: 'Addon purchase has been deleted successfully.',
		});
		expect(fx.sim.state.purchases.some((entry) => entry.id === 900)).toBe(false);
		const ai = await run(purchase('delete', { addonPurchase: byId(907) }));
		expect(ai.error?.name).toBe('NodeApiError');
		expect(ai.error?.message).toMatch(/AI token addon purchases cannot be deleted/);
		const unknown = await run(purchase('delete', { addonPurchase: byId(900) }));
		expect(unknown.error?.message).toBe('Addon purchase not found');
	});

	it('Delete under Continue On Fail: error items keep their pairing while others succeed', async () => {
		const { items, error } = await runNode({
			parameters: purchase('delete', { addonPurchase: byId('={{ $json.id }}') }) as never,
			credentials: fx.credentials,
			continueOnFail: true,
			items: [
				{ json: { id: 901 } },
				{ json: { id: 907 } },
				{ json: { id: 1 } },
				{ json: { id: 'x' } },
			],
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(items[0].json.success).toBe(true);
		expect(String(items[1].json.error)).toMatch(/AI token addon purchases cannot be deleted/);
		expect(items[2].json.error).toBe('Addon purchase not found');
		expect(String(items[3].json.error)).toMatch(/^Addon Purchase must be a whole number/);
		expect(fx.sim.requests).toHaveLength(3);
	});
});

describe('User-group list searches', () => {
	const search = async (method: string, filter?: string) =>
		(await callMethod('listSearch', method, { credentials: fx.credentials, filter })) as {
			results: Array<{ name: string; value: string }>;
			paginationToken?: string;
		};

	it('searchUsers lists users by name and email and filters', async () => {
		const all = await search('searchUsers');
		expect(all.results).toHaveLength(12);
		expect(all.results[0]).toEqual({ name: 'Ava Reseller (client1@agency.example)', value: '100' });
		expect((await search('searchUsers', 'client12')).results.map((entry) => entry.value)).toEqual([
			'111',
		]);
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/user/list',
			body: { limit: '1000', offset: '1' },
		});
	});

	it('searchPackages, searchModules, searchAddons and searchAddonsAndVariations', async () => {
		expect((await search('searchPackages')).results).toEqual([
			{ name: 'Starter', value: '1' },
			{ name: 'Agency', value: '2' },
			{ name: 'Support Agent (team role)', value: '3' },
		]);
		expect((await search('searchModules', 'ai token')).results).toEqual([
			{ name: 'AI Token', value: '18' },
		]);
		expect((await search('searchAddons')).results.map((entry) => entry.value)).toEqual(['1', '2']);
		expect((await search('searchAddonsAndVariations')).results).toEqual([
			{ name: 'Extra 1,000 subscribers', value: '1' },
			{ name: 'Extra 1,000 subscribers → 5,000', value: '1-0' },
			{ name: 'AI tokens', value: '2' },
		]);
	});

	it('searchAddonPurchases and searchTeamMembers', async () => {
		const purchases = await search('searchAddonPurchases', 'ai tokens');
		expect(purchases.results).toEqual([
			{ name: 'AI tokens → Hugo Reseller (client8@agency.example) #907', value: '907' },
		]);
		const members = (await search('searchTeamMembers')).results;
		expect(members.map((entry) => entry.value)).toEqual(['501', '502']);
	});
});
