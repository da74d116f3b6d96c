import { z } from 'zod';
import { p, type Route } from '../route';

/** The spec's "Catalogs". Catalog list and order status change answer with boolean `true` (spec, Response envelope). */

const ORDER_FIELDS = [
	'order_unique_id',
	'catalog_id',
	'chat_id',
	'catalog_name',
	'first_name',
	'cart_total',
	'cart_currency',
	'cart_status_raw',
	'ordered_at',
	'updated_at',
	'payment_amount',
	'payment_method',
	'shipping_address',
	'checkout_account_email',
	'checkout_amount',
	'checkout_timestamp',
	'transaction_id',
	'paid_at',
	'status_changed_at',
];
const pick = (row: Record<string, unknown>, fields: string[]) =>
	Object.fromEntries(fields.map((field) => [field, row[field]]));

export const catalogRoutes: Route[] = [
	{
		path: '/whatsapp/catalog/list',
		params: z.object({}),
		handle: ({ state }) => ({
			status: true,
			message: state.catalogs.map((row) =>
				pick(row, ['catalog_id', 'catalog_name', 'catalog_url', 'checkout_settings']),
			),
		}),
	},
	{
		path: '/whatsapp/catalog/sync',
		params: z.object({ whatsapp_catalog_id: p.required }),
		handle: ({ params, state }) => {
			// Failure text not given by the spec.
			if (!state.catalogs.some((row) => row.catalog_id === params.whatsapp_catalog_id))
				return { status: '0', message: 'Catalog not found.' };
			state.catalogSyncs.push(params.whatsapp_catalog_id);
			return { status: '1', message: 'Catalog products have been synced successfully.' };
		},
	},
	{
		path: '/whatsapp/catalog/order/list',
		params: z.object({ whatsapp_catalog_id: p.string.optional() }),
		handle: ({ params, state }) => ({
			status: '1',
			message: state.orders
				.filter(
					(row) => !params.whatsapp_catalog_id || row.catalog_id === params.whatsapp_catalog_id,
				)
				.map((row) => pick(row, ORDER_FIELDS)),
		}),
	},
	{
		path: '/whatsapp/catalog/order/status-change',
		params: z.object({
			order_unique_id: p.required,
			cart_status: p.oneOf(['Approved', 'Completed', 'Shipped', 'Delivered', 'Refunded']),
		}),
		handle: ({ params, state }) => {
			const order = state.orders.find((row) => row.order_unique_id === params.order_unique_id);
			// Boolean failure form; the text is not given by the spec.
			if (!order) return { status: false, message: 'Order not found.' };
			const time = state.now();
			order.cart_status_raw = params.cart_status;
			order.status_changed_at = time;
			order.updated_at = time;
			return { status: true, message: 'Cart status has been updated successfully' };
		},
	},
];
