import type { IDataObject } from 'n8n-workflow';

/**
 * Who a webhook body or an API row is about, now that a customer may have no phone number (Meta, 2026: a
 * business-scoped `user_id` since April 2026, usernames through 2026). Both triggers, their memories and the sends
 * read the customer here. SPEC-GAP: the platform has not said what it sends for such a customer; Meta's field names
 * are read, and passed through as they came (the simulator's switch: `/__control/customer-ids`).
 */

/** Meta's fields for the customer, as Meta names them. */
export const CUSTOMER_ID_FIELDS = ['user_id', 'username', 'parent_user_id'] as const;

function textOf(record: IDataObject, key: string): string {
	const value = record[key];
	if (typeof value === 'string') return value.trim();
	return typeof value === 'number' ? String(value) : '';
}

/** The customer's phone number: `chat_id` (webhooks, subscriber rows), else `phone_number`; '' when none. */
export function phoneOf(record: IDataObject): string {
	return textOf(record, 'chat_id') || textOf(record, 'phone_number');
}

/** Meta's ids of the customer, those the record has (`user_id`, `username`, `parent_user_id`). */
export function customerIds(record: IDataObject): IDataObject {
	const ids: IDataObject = {};
	for (const key of CUSTOMER_ID_FIELDS) {
		const value = textOf(record, key);
		if (value !== '') ids[key] = value;
	}
	return ids;
}

/**
 * Who the record is about, for a memory keyed on the customer: the phone number, else Meta's user id, else the
 * username, each kind prefixed so that two never collide; '' when none is given.
 */
export function customerOf(record: IDataObject): string {
	const phone = phoneOf(record);
	if (phone) return phone;
	const { user_id: userId, username } = customerIds(record);
	if (typeof userId === 'string') return `user_id:${userId}`;
	return typeof username === 'string' ? `username:${username}` : '';
}

/** Whether the record names a customer by Meta's ids only (no phone number). */
export function isWithoutPhone(record: IDataObject): boolean {
	return phoneOf(record) === '' && customerOf(record) !== '';
}

/** The sources that have already said they met a customer without a phone number (once per process is enough). */
const warned = new Set<string>();

/**
 * The assumption "every customer has a phone number" checked at run time: the first record of a source (a trigger,
 * the sends) that has Meta's `user_id` or `username` and no phone number is logged as a warning, once per process,
 * since the platform has not documented that shape (SPEC-GAP) and its API reaches customers by phone number only.
 */
export function warnWithoutPhone(
	source: string,
	record: IDataObject,
	consequence: string,
	logger?: { warn(message: string): void },
): void {
	if (warned.has(source) || !isWithoutPhone(record)) return;
	warned.add(source);
	logger?.warn(
		`${source}: a customer without a phone number (Meta's user_id or username only). ${consequence}`,
	);
}
