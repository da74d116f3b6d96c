import type { IDataObject } from 'n8n-workflow';
import type { TriggerEvent } from '../polling/event';
import {
	catalogIdOf,
	isNewOrder,
	listOrders,
	orderCursor,
	orderIdOf,
	orderItem,
	type OrderCursor,
} from '../polling/orders';

const EVENT = 'catalogOrderStatusChanged';

/** Status tracking is bounded: the statuses of the MAX_TRACKED_ORDERS most recent orders. */
export const MAX_TRACKED_ORDERS = 500;

interface OrderStatusState {
	orders: OrderCursor;
	/** order_unique_id → cart_status_raw of the most recent orders. */
	statuses: Record<string, string>;
}

const statusOf = (order: IDataObject) => String(order.cart_status_raw ?? '');

/** A new order whose status moved after it was placed (status time later than order time). */
function changedSincePlaced(order: IDataObject): boolean {
	const changed = String(order.status_changed_at ?? '');
	return changed !== '' && changed > String(order.ordered_at ?? '');
}

function statusesOf(orders: IDataObject[]): Record<string, string> {
	return Object.fromEntries(
		orders.slice(0, MAX_TRACKED_ORDERS).map((order) => [orderIdOf(order), statusOf(order)]),
	);
}

export const catalogOrderStatusChanged: TriggerEvent<OrderStatusState> = {
	value: EVENT,
	name: 'Catalog Order Status Changed',
	description: 'An order moved to another status (Approved, Shipped, Delivered, …)',
	perNumber: false,
	properties: [],
	scope: (context) => `${EVENT}:${catalogIdOf(context)}`,
	stateVersion: 1,
	async start(context) {
		const orders = await listOrders(context);
		return { orders: orderCursor(undefined, orders), statuses: statusesOf(orders) };
	},
	async poll(context, state) {
		const orders = await listOrders(context);
		const items: IDataObject[] = [];
		for (const order of [...orders].reverse()) {
			const previous = state.statuses[orderIdOf(order)];
			if (previous !== undefined) {
				if (previous !== statusOf(order))
					items.push(orderItem(order, { previous_status: previous }));
			} else if (isNewOrder(state.orders, order) && changedSincePlaced(order)) {
				items.push(orderItem(order, { previous_status: null }));
			}
		}
		items.sort((a, b) =>
			String(a.status_changed_at ?? '').localeCompare(String(b.status_changed_at ?? '')),
		);
		return {
			items,
			state: { orders: orderCursor(state.orders, orders), statuses: statusesOf(orders) },
		};
	},
	async newest(context) {
		const orders = await listOrders(context);
		const changed = orders.filter(changedSincePlaced);
		// The order with the most recent status change; otherwise the latest order, to show the shape.
		const [order] = (changed.length ? changed : orders).sort((a, b) =>
			String(b.status_changed_at ?? '').localeCompare(String(a.status_changed_at ?? '')),
		);
		return order ? orderItem(order, { previous_status: null }) : undefined;
	},
};
