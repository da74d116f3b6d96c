import { callMethod, runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { validParameters } from '../harness/operations';
import { NUMBER, numberFromList, onSubscriber, rl } from '../harness/params';

const fx = useSimulator();

describe('Catalog', () => {
	it('lists catalogs (boolean true envelope) with checkout_settings decoded', async () => {
		const { items, error } = await runNode({
			parameters: { resource: 'catalog', operation: 'getMany' },
			credentials: fx.credentials,
		});
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({
			method: 'POST',
			path: '/whatsapp/catalog/list',
			body: {},
		});
		expect(items).toHaveLength(2);
		expect(items[0].json).toMatchObject({
			catalog_id: '7788990011',
			catalog_name: 'Breads',
			checkout_settings: { tax_percentage: '5', shipping_charge: '3' },
		});
	});

	it('keeps checkout_settings as text when Decode JSON Fields is off', async () => {
		const { items } = await runNode({
			parameters: {
				resource: 'catalog',
				operation: 'getMany',
				options: { decodeJsonFields: false },
			},
			credentials: fx.credentials,
		});
		expect(typeof items[0].json.checkout_settings).toBe('string');
	});

	it('syncs a catalog chosen from the list', async () => {
		const { items } = await runNode({
			parameters: { resource: 'catalog', operation: 'sync', catalog: rl('7788990022') },
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/catalog/sync',
			body: { whatsapp_catalog_id: '7788990022' },
		});
		expect(items[0].json).toEqual({
			success: true,
			message: 'Catalog products have been synced successfully.',
		});
		expect(fx.sim.state.catalogSyncs).toEqual(['7788990022']);
	});

	it('refuses an empty catalog id', async () => {
		const { error } = await runNode({
			parameters: {
				resource: 'catalog',
				operation: 'sync',
				catalog: rl('={{ $json.none }}', 'id'),
			},
			credentials: fx.credentials,
		});
		expect(error?.message).toMatch(/^Catalog is required/);
		expect(fx.sim.requests).toHaveLength(0);
	});
});

describe('Catalog Order', () => {
	it('lists all orders, or a catalog’s orders, with shipping_address decoded', async () => {
		const all = await runNode({
			parameters: { resource: 'catalogOrder', operation: 'getMany', returnAll: true },
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({ path: '/whatsapp/catalog/order/list', body: {} });
		expect(all.items).toHaveLength(6);
		expect(all.items[0].json.shipping_address).toMatchObject({ address: '1 Main St' });
		const filtered = await runNode({
			parameters: {
				resource: 'catalogOrder',
				operation: 'getMany',
				returnAll: true,
				filters: { catalogId: '7788990022' },
			},
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[1].body).toEqual({ whatsapp_catalog_id: '7788990022' });
		expect(filtered.items.map((item) => item.json.catalog_id)).toEqual([
			'7788990022',
			'7788990022',
			'7788990022',
		]);
	});

	it('applies the limit', async () => {
		const { items } = await runNode({
			parameters: { resource: 'catalogOrder', operation: 'getMany', limit: 2 },
			credentials: fx.credentials,
		});
		expect(items).toHaveLength(2);
		expect(fx.sim.requests).toHaveLength(1);
	});

	it('updates the status (boolean true envelope) and moves the order', async () => {
		const { items, error } = await runNode({
			parameters: validParameters('catalogOrder', 'updateStatus'),
			credentials: fx.credentials,
		});
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/catalog/order/status-change',
			body: { order_unique_id: 'ORD-1000', cart_status: 'Shipped' },
		});
		expect(items[0].json).toEqual({
			success: true,
			message: 'Cart status has been updated successfully',
		});
		const order = fx.sim.state.orders.find((row) => row.order_unique_id === 'ORD-1000')!;
		expect(order.cart_status_raw).toBe('Shipped');
		expect(order.status_changed_at).toBe(order.updated_at);
		expect(String(order.status_changed_at) > '2026-01-15 09:00:00').toBe(true);
	});

	it('fails on an unknown order (boolean false envelope) and refuses an unknown status', async () => {
		const missing = await runNode({
			parameters: {
				resource: 'catalogOrder',
				operation: 'updateStatus',
				orderId: 'ORD-404',
				status: 'Shipped',
			},
			credentials: fx.credentials,
		});
		expect(missing.error?.name).toBe('NodeApiError');
		expect(missing.error?.message).toBe('Order not found.');
		const bad = await runNode({
			parameters: { ...validParameters('catalogOrder', 'updateStatus'), status: 'Lost' },
			credentials: fx.credentials,
		});
		expect(bad.error?.message).toMatch(
			/^Status must be one of: Approved, Completed, Shipped, Delivered, Refunded/,
		);
		expect(fx.sim.requests).toHaveLength(1);
	});
});

describe('Dropdowns', () => {
	const parameters = { ...onSubscriber };

	it('lists labels, sequences, custom fields, catalogs and team members', async () => {
		expect(
			await callMethod('loadOptions', 'getLabels', { credentials: fx.credentials, parameters }),
		).toEqual([
			// Sorted by name.
			{ name: 'Complained', value: '34' },
			{ name: 'New lead', value: '32' },
			{ name: 'VIP', value: '31' },
			{ name: 'Wholesale', value: '33' },
		]);
		expect(
			await callMethod('loadOptions', 'getSequences', { credentials: fx.credentials, parameters }),
		).toEqual([
			{ name: 'Abandoned cart', value: '42' },
			{ name: 'Welcome drip', value: '41' },
		]);
		expect(
			await callMethod('loadOptions', 'getCustomFields', {
				credentials: fx.credentials,
				parameters,
			}),
		).toEqual([
			{ name: 'city', value: 'city', description: 'Type: text' },
			{ name: 'order_count', value: 'order_count', description: 'Type: number' },
			{ name: 'birthday', value: 'birthday', description: 'Type: date' },
		]);
		expect(await callMethod('loadOptions', 'getCatalogs', { credentials: fx.credentials })).toEqual(
			[
				{ name: 'Breads', value: '7788990011' },
				{ name: 'Cakes', value: '7788990022' },
			],
		);
		expect(
			await callMethod('listSearch', 'searchCatalogs', {
				credentials: fx.credentials,
				filter: 'cak',
			}),
		).toEqual({ results: [{ name: 'Cakes', value: '7788990022' }] });
	});

	it('uses the earlier label path with the chosen number under the earlier API form', async () => {
		const labels = await callMethod('loadOptions', 'getLabels', {
			credentials: { ...fx.credentials, apiForm: 'earlier' },
			parameters,
		});
		expect(labels).toHaveLength(4);
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/label/list',
			body: { phone_number_id: NUMBER },
		});
	});

	it('offers the pipelines and stages seen in the deals of the subscriber and of recently active subscribers, so a deal can be moved', async () => {
		// Two other recently active subscribers have deals further along, one in another pipeline.
		const recent = (await callMethod('listSearch', 'searchSubscribers', {
			credentials: fx.credentials,
			parameters,
		})) as { results: Array<{ value: string }> };
		const [, second, third] = recent.results.map((entry) => entry.value);
		fx.sim.state.deals.push({
			deal_id: 901,
			phone_number_id: NUMBER,
			chat_id: second,
			has_deal: true,
			pipeline_id: 1,
			stage_id: 12,
		});
		fx.sim.state.deals.push({
			deal_id: 902,
			phone_number_id: NUMBER,
			chat_id: third,
			has_deal: true,
			pipeline_id: 2,
			stage_id: 21,
		});
		const deals = { ...parameters, subscriber: rl('15550100001') };
		expect(
			await callMethod('loadOptions', 'getCrmPipelines', {
				credentials: fx.credentials,
				parameters: deals,
			}),
		).toEqual([
			{ name: 'Sales', value: '1' },
			{ name: 'Wholesale', value: '2' },
		]);
		expect(
			await callMethod('loadOptions', 'getCrmStages', {
				credentials: fx.credentials,
				parameters: deals,
			}),
		).toEqual([
			{ name: 'New (Sales)', value: '11' },
			{ name: 'Qualified (Sales)', value: '12' },
			{ name: 'Inquiry (Wholesale)', value: '21' },
		]);
		const wholesale = { ...deals, updateFields: { pipelineId: '2' } };
		expect(
			await callMethod('loadOptions', 'getCrmStages', {
				credentials: fx.credentials,
				parameters: wholesale,
			}),
		).toEqual([{ name: 'Inquiry (Wholesale)', value: '21' }]);
	});

	it('moves a deal to a stage picked from the list, with the close date from the date picker sent as YYYY-MM-DD', async () => {
		const { error } = await runNode({
			credentials: fx.credentials,
			parameters: {
				resource: 'crmDeal',
				operation: 'update',
				phoneNumberId: numberFromList,
				subscriber: rl('15550100000'),
				updateFields: { pipelineId: '1', stageId: '12', expectedCloseDate: '2026-03-31T00:00:00' },
			},
		});
		expect(error).toBeUndefined();
		expect(fx.sim.requests.at(-1)?.body).toMatchObject({
			pipeline_id: '1',
			stage_id: '12',
			expected_close_date: '2026-03-31',
		});
	});

	it('searches the number’s subscribers by name or number, most recent first, page by page', async () => {
		const first = (await callMethod('listSearch', 'searchSubscribers', {
			credentials: fx.credentials,
			parameters,
		})) as { results: Array<{ name: string; value: string }>; paginationToken?: string };
		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toBe('2');
		expect(first.results[0].name).toMatch(/^\S+ \S+ \(\+1555\d+\)$/);
		expect(fx.sim.requests[0].body).toEqual({
			phone_number_id: NUMBER,
			limit: '100',
			offset: '1',
			orderBy: '1',
		});
		const filtered = (await callMethod('listSearch', 'searchSubscribers', {
			credentials: fx.credentials,
			parameters,
			filter: '15550100149',
		})) as { results: unknown[] };
		expect(filtered.results).toEqual([expect.objectContaining({ value: '15550100149' })]);
	});

	it('lists team members, and none when the account has none', async () => {
		expect(
			await callMethod('listSearch', 'searchTeamMembers', {
				credentials: fx.credentials,
				filter: 'bea',
			}),
		).toEqual({ results: [{ name: 'Bea Manager (bea@sunrise.example)', value: '502' }] });
		expect(
			await callMethod('loadOptions', 'getTeamMembers', { credentials: fx.credentials }),
		).toHaveLength(2);
		fx.sim.state.teamMembers = [];
		expect(
			await callMethod('loadOptions', 'getTeamMembers', { credentials: fx.credentials }),
		).toEqual([]);
	});
});
