import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';
import { decodeJsonFields } from '../../shared/parameters/jsonStrings';
import { botSailorRequest } from '../../shared/http/transport';
import { listPayload } from './api';
import { showForEvents } from '../../shared/triggers/triggerOptions';

/** Catalog orders: one list read (the endpoint is not paginated), optionally for one catalog. */

export const ORDER_EVENTS = ['newCatalogOrder', 'catalogOrderStatusChanged'];

export const orderOptions: INodeProperties = {
	displayName: 'Options',
	name: 'orderOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: showForEvents(ORDER_EVENTS),
	options: [
		{
			displayName: 'Catalog ID',
			name: 'catalogId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 7788990011',
			description:
				'Only orders of this WhatsApp catalog (as listed by Catalog → Get Many); empty for all catalogs',
		},
	],
};

export function catalogIdOf(context: IPollFunctions): string {
	const options = context.getNodeParameter('orderOptions', {}) as IDataObject;
	return String(options.catalogId ?? '').trim();
}

export function orderIdOf(order: IDataObject): string {
	return String(order.order_unique_id ?? '');
}

export function orderedAt(order: IDataObject): string {
	return String(order.ordered_at ?? '');
}

/** Orders, newest first. */
export async function listOrders(context: IPollFunctions): Promise<IDataObject[]> {
	const catalogId = catalogIdOf(context);
	const envelope = await botSailorRequest.call(
		context,
		'/whatsapp/catalog/order/list',
		catalogId ? { whatsapp_catalog_id: catalogId } : {},
	);
	return listPayload(context, envelope)
		.filter((order) => orderIdOf(order) !== '')
		.sort(
			(a, b) =>
				orderedAt(b).localeCompare(orderedAt(a)) || orderIdOf(b).localeCompare(orderIdOf(a)),
		);
}

export function orderItem(order: IDataObject, extra: IDataObject = {}): IDataObject {
	return { ...decodeJsonFields(order), ...extra };
}

/**
 * Which orders are new: those placed after `since`, or at `since` and not among `ids` (orders placed
 * in the same second as the newest one seen). `ids` holds only that second's orders, so it stays small.
 */
export interface OrderCursor {
	since: string;
	ids: string[];
}

export function isNewOrder(cursor: OrderCursor, order: IDataObject): boolean {
	const time = orderedAt(order);
	return time > cursor.since || (time === cursor.since && !cursor.ids.includes(orderIdOf(order)));
}

/** The cursor after reading `orders` (newest first). */
export function orderCursor(cursor: OrderCursor | undefined, orders: IDataObject[]): OrderCursor {
	const newest = orders.length ? orderedAt(orders[0]) : '';
	if (cursor && cursor.since > newest) return cursor;
	const ids = orders.filter((order) => orderedAt(order) === newest).map(orderIdOf);
	if (cursor && cursor.since === newest) ids.push(...cursor.ids.filter((id) => !ids.includes(id)));
	return { since: newest, ids: ids.slice(0, 200) };
}
