import type { TriggerEvent } from '../polling/event';
import {
	catalogIdOf,
	isNewOrder,
	listOrders,
	orderCursor,
	orderItem,
	orderOptions,
	type OrderCursor,
} from '../polling/orders';

const EVENT = 'newCatalogOrder';

export const newCatalogOrder: TriggerEvent<OrderCursor> = {
	value: EVENT,
	name: 'New Catalog Order',
	description: 'A customer placed an order from a WhatsApp catalog',
	perNumber: false,
	properties: [orderOptions],
	scope: (context) => `${EVENT}:${catalogIdOf(context)}`,
	stateVersion: 1,
	start: async (context) => orderCursor(undefined, await listOrders(context)),
	async poll(context, state) {
		const orders = await listOrders(context);
		const fresh = orders.filter((order) => isNewOrder(state, order)).reverse();
		return { items: fresh.map((order) => orderItem(order)), state: orderCursor(state, orders) };
	},
	async newest(context) {
		const [order] = await listOrders(context);
		return order ? orderItem(order) : undefined;
	},
};
