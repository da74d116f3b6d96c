import { runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { validParameters } from '../harness/operations';
import { byId } from '../harness/params';

const fx = useSimulator({ seed: { subscribersPerNumber: 5, messagesPerSubscriber: 1 } });
const V = '={{ $json.v }}';

async function run(
	parameters: Record<string, unknown>,
	{ earlier = false, value }: { earlier?: boolean; value?: unknown } = {},
) {
	return await runNode({
		parameters: parameters as never,
		credentials: { ...fx.credentials, apiForm: earlier ? 'earlier' : 'current' },
		items: value === undefined ? undefined : [{ json: { v: value as string } }],
	});
}

/** Addon → Create's valid parameters, from the operation catalog. */
const baseCreate = validParameters('addon', 'create');
const rows = {
	variation: [
		{ name: 'Small', validity: 1, validityType: 'M', extendValue: 50, price: 5 },
		{ name: 'Big', validity: 1, validityType: 'Y', extendValue: 1000, price: 49.99 },
	],
};

describe('Addon, Package, Module, Team Member and Transaction through the engine', () => {
	it('Addon Get Many decodes the JSON-string fields, or keeps them as text', async () => {
		const decoded = await run({ resource: 'addon', operation: 'getMany' });
		expect(fx.sim.requests[0]).toMatchObject({
			method: 'POST',
			path: '/user/addon/list',
			body: {},
		});
		expect(decoded.items).toHaveLength(2);
		expect(decoded.items[0].json.product_data).toEqual({
			stripe: { product_id: 'prod_1', coupon: '' },
		});
		expect(decoded.items[0].json.variation_data).toEqual([
			expect.objectContaining({ name: '5,000' }),
		]);
		expect(decoded.items[1].json.variation_data).toBeNull();
		const raw = await run({
			resource: 'addon',
			operation: 'getMany',
			options: { decodeJsonFields: false },
		});
		expect(typeof raw.items[0].json.discount_data).toBe('string');
	});

	it('Addon Create sends the variation rows as parallel JSON arrays, without access_type in the current form', async () => {
		const { items, error } = await run({
			...baseCreate,
			variations: rows,
			additionalFields: { visible: false },
		});
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({ method: 'POST', path: '/user/addon/create' });
		expect(fx.sim.requests[0].body).toEqual({
			addon_name: 'Extra broadcasts',
			module_id: '4',
			addon_description: 'More broadcasts',
			price: '12.5',
			validity: '1',
			validity_type: 'M',
			addon_type: 'recurring',
			extend_value: '100',
			visible: '0',
			variation_name: '["Small","Big"]',
			variation_validity: '["1","1"]',
			variation_validity_type: '["M","Y"]',
			variation_extend_value: '[50,1000]',
			variation_price: '[5,49.99]',
		});
		expect(items[0].json).toEqual({
			success: true,
			message: 'Addon has been saved successfully..',
		});
		const saved = fx.sim.state.addons.find((addon) => addon.addon_name === 'Extra broadcasts');
		expect(JSON.parse(String(saved?.variation_data))).toHaveLength(2);
	});

	it('Addon Create in the earlier API form sends access_type; without variations the required arrays are empty', async () => {
		const { error } = await run({ ...baseCreate, accessType: 'allow' }, { earlier: true });
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0].body).toMatchObject({
			access_type: 'allow',
			variation_extend_value: '[]',
			variation_price: '[]',
		});
		expect(fx.sim.requests[0].body).not.toHaveProperty('variation_name');
	});

	it('Addon Create takes variations as JSON', async () => {
		const json = JSON.stringify([
			{ name: 'Only', validity: 2, validity_type: 'W', extend_value: 10, price: 3 },
		]);
		const { error } = await run({ ...baseCreate, variationsInput: 'json', variationsJson: json });
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0].body).toMatchObject({
			variation_name: '["Only"]',
			variation_validity_type: '["W"]',
			variation_extend_value: '[10]',
			variation_price: '[3]',
		});
	});

	it.each([
		[
			'malformed variation JSON',
			{ variationsInput: 'json', variationsJson: V },
			'[{"name": "x",',
			/^Variations \(JSON\) must be valid JSON/,
		],
		[
			'a bad validity type',
			{ variations: { variation: [{ ...rows.variation[0], validityType: V }] } },
			'Q',
			/^Variations: variation 1, Validity Type must be one of: D, W, M, Y/,
		],
		[
			'a non-numeric price',
			{ variations: { variation: [rows.variation[0], { ...rows.variation[1], price: V }] } },
			'cheap',
			/^Variations: variation 2, Price must be a number/,
		],
		['a non-numeric module', { module: byId(V) }, 'four', /^Module must be a whole number/],
		['an empty description', { addonDescription: V }, '', /^Description is required/],
	])('Addon Create refuses %s without a request', async (_name, override, value, message) => {
		const { error } = await run({ ...baseCreate, ...override }, { value });
		expect(error?.message).toMatch(message);
		expect(fx.sim.requests).toHaveLength(0);
	});

	it('Addon Update sends id, name, the given fields and the variation arrays; access_type only in the earlier form', async () => {
		const parameters = {
			resource: 'addon',
			operation: 'update',
			addon: byId(1),
			addonName: 'Renamed',
			updateFields: { price: 11, accessType: 'extend' },
			variations: rows,
		};
		const current = await run(parameters);
		expect(current.error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({ method: 'POST', path: '/user/addon/update' });
		expect(fx.sim.requests[0].body).toEqual({
			id: '1',
			addon_name: 'Renamed',
			price: '11',
			variation_name: '["Small","Big"]',
			variation_validity: '["1","1"]',
			variation_validity_type: '["M","Y"]',
			variation_extend_value: '[50,1000]',
			variation_price: '[5,49.99]',
		});
		expect(current.items[0].json).toEqual({
			success: true,
			message: 'Addon has been saved successfully.',
		});
		fx.sim.clearRequests();
		await run(parameters, { earlier: true });
		expect(fx.sim.requests[0].body.access_type).toBe('extend');
	});

	it('Package Get Many filters by type and decodes monthly_limit', async () => {
		const { items } = await run({ resource: 'package', operation: 'getMany', packageType: 'team' });
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/user/package/list',
			body: { package_type: 'team' },
		});
		expect(items.map((item) => item.json.package_name)).toEqual(['Support Agent']);
		expect(items[0].json.monthly_limit).toEqual({ 3: '0' });
		fx.sim.clearRequests();
		const all = await run({
			resource: 'package',
			operation: 'getMany',
			options: { decodeJsonFields: false },
		});
		expect(fx.sim.requests[0].body).toEqual({});
		expect(all.items).toHaveLength(3);
		expect(typeof all.items[0].json.monthly_limit).toBe('string');
	});

	it('Module Get Many lists the modules', async () => {
		const { items } = await run({ resource: 'module', operation: 'getMany' });
		expect(fx.sim.requests[0]).toMatchObject({
			method: 'POST',
			path: '/user/module/list',
			body: {},
		});
		expect(items).toHaveLength(43);
		expect(items.find((item) => item.json.id === 18)?.json.module_name).toBe('AI Token');
	});

	it('Team Member Get Many lists members, and fails with "No team member found" when none', async () => {
		const { items } = await run({ resource: 'teamMember', operation: 'getMany' });
		expect(fx.sim.requests[0]).toMatchObject({
			method: 'POST',
			path: '/user/team-member/list',
			body: {},
		});
		expect(items.map((item) => item.json.name)).toEqual(['Alex Agent', 'Bea Manager']);
		fx.sim.state.teamMembers = [];
		const none = await run({ resource: 'teamMember', operation: 'getMany' });
		expect(none.error?.name).toBe('NodeApiError');
		expect(none.error?.message).toBe('No team member found');
	});

	it('Transaction Get Many returns all across pages of 100 and decodes variation_data_copy', async () => {
		for (let index = 0; index < 250; index++)
			fx.sim.state.transactions.push({ ...fx.sim.state.transactions[0], id: 10_000 + index });
		const { items } = await run({ resource: 'transaction', operation: 'getMany', returnAll: true });
		expect(items).toHaveLength(256);
		expect(fx.sim.requests.map((request) => request.body)).toEqual(
			[1, 2, 3].map((offset) => ({ limit: '100', offset: String(offset) })),
		);
		expect(items[0].json.variation_data_copy).toMatchObject({
			name: '5,000',
			stripe: { product_id: 'prod_1' },
		});
	});

	it('Transaction Get Many with a Limit below one page, decoding off', async () => {
		const { items } = await run({
			resource: 'transaction',
			operation: 'getMany',
			limit: 4,
			options: { decodeJsonFields: false },
		});
		expect(items).toHaveLength(4);
		expect(fx.sim.requests.map((request) => request.body)).toEqual([{ limit: '4', offset: '1' }]);
		expect(typeof items[0].json.variation_data_copy).toBe('string');
	});
});
