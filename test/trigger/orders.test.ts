import { addOrder } from '../simulator/control';
import { useSimulator } from '../harness/simulatorFixture';
import { pollCounting, snapshot, triggerPoller } from './helpers';

const fx = useSimulator();

describe('BotSailor Trigger → catalog orders', () => {
	it('New Catalog Order: starts from now, emits each new order once in order, decoded, optionally for one catalog', async () => {
		const all = triggerPoller(fx, { event: 'newCatalogOrder' });
		const cakes = triggerPoller(fx, {
			event: 'newCatalogOrder',
			orderOptions: { catalogId: '7788990022' },
		});
		expect(await all.poll()).toEqual([]);
		expect(await cakes.poll()).toEqual([]);
		const first = addOrder(fx.sim.state, { catalog_id: '7788990011', total: 31 });
		const second = addOrder(fx.sim.state, { catalog_id: '7788990022', total: 12 });
		const { json, requests } = await pollCounting(fx, all);
		expect(requests).toBe(1);
		expect(json.map((item) => item.order_unique_id)).toEqual([
			first.order_unique_id,
			second.order_unique_id,
		]);
		expect(json[0]).toMatchObject({
			cart_total: 31,
			cart_status_raw: 'Approved',
			shipping_address: { address: '1 Main St' },
		});
		expect((await cakes.poll()).map((item) => item.json.order_unique_id)).toEqual([
			second.order_unique_id,
		]);
		expect(fx.sim.requests.at(-1)?.body).toEqual({ whatsapp_catalog_id: '7788990022' });
		expect(await all.poll()).toEqual([]);
		expect(await cakes.poll()).toEqual([]);
	});

	it('Catalog Order Status Changed: emits each change once with the previous status', async () => {
		const poller = triggerPoller(fx, { event: 'catalogOrderStatusChanged' });
		await poller.poll();
		const orders = fx.sim.state.orders;
		orders[0].cart_status_raw = 'Shipped';
		orders[0].status_changed_at = '2026-01-15 09:30:00';
		const placed = addOrder(fx.sim.state, {});
		expect(
			(await poller.poll()).map((item) => [
				item.json.order_unique_id,
				item.json.previous_status,
				item.json.cart_status_raw,
			]),
		).toEqual([[orders[0].order_unique_id, 'Approved', 'Shipped']]);
		await fetch(`${fx.sim.url}/api/v1/whatsapp/catalog/order/status-change`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({
				apiToken: fx.sim.token,
				order_unique_id: placed.order_unique_id,
				cart_status: 'Delivered',
			}),
		});
		const { json } = await pollCounting(fx, poller);
		expect(json).toEqual([
			expect.objectContaining({
				order_unique_id: placed.order_unique_id,
				cart_status_raw: 'Delivered',
				previous_status: 'Approved',
			}),
		]);
		expect(await poller.poll()).toEqual([]);
	});

	it('the first activation emits nothing old; a failing poll moves nothing; a manual run returns ONE order without state', async () => {
		const poller = triggerPoller(fx, { event: 'catalogOrderStatusChanged' });
		expect(await poller.poll()).toEqual([]);
		fx.sim.state.orders[1].cart_status_raw = 'Refunded';
		const before = snapshot(poller);
		fx.sim.faults.add('/whatsapp/catalog/order/list', { kind: 'malformed', times: 1 });
		await expect(poller.poll()).rejects.toThrow(/not valid JSON/);
		expect(snapshot(poller)).toEqual(before);
		const sample = await pollCounting(fx, poller, 'manual');
		expect(sample.json).toEqual([expect.objectContaining({ previous_status: null })]);
		expect(snapshot(poller)).toEqual(before);
		expect(
			(await poller.poll()).map((item) => [item.json.previous_status, item.json.cart_status_raw]),
		).toEqual([['Approved', 'Refunded']]);
		const fresh = triggerPoller(fx, { event: 'newCatalogOrder' });
		const newest = addOrder(fx.sim.state, { total: 9 });
		expect((await pollCounting(fx, fresh, 'manual')).json).toEqual([
			expect.objectContaining({ order_unique_id: newest.order_unique_id }),
		]);
	});
});
