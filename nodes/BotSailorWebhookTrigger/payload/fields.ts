import type { IDataObject } from 'n8n-workflow';
import { decodeJsonText } from '../../shared/parameters/jsonStrings';
import { warnWithoutPhone } from '../../shared/conversation/customer';

/**
 * Reading the platform's flat webhook bodies (what is known of them is observed behaviour, not a
 * contract; see the README, "BotSailor Webhook Trigger"): every field may be missing, a number or a string
 * (JSON bodies carry numbers, form-encoded bodies only strings), so each is read tolerantly.
 */

/** A field as text: '' when missing or not a scalar. */
export function fieldText(body: IDataObject, key: string): string {
	const value = body[key];
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return '';
}

/** The first of several possible field names that holds a value. */
export function firstText(body: IDataObject, keys: string[]): string {
	for (const key of keys) {
		const value = fieldText(body, key);
		if (value !== '') return value;
	}
	return '';
}

/** An id the API types as an integer: a number when the text is digits, the text otherwise, null when missing. */
export function integerOrText(body: IDataObject, key: string): number | string | null {
	const value = fieldText(body, key);
	if (value === '') return null;
	return /^\d{1,15}$/.test(value) ? Number(value) : value;
}

/** The subscriber's phone number (`chat_id`, digits). */
export function chatId(body: IDataObject): string {
	return firstText(body, ['chat_id', 'phone_number']);
}

export { customerIds, customerOf } from '../../shared/conversation/customer';

/**
 * The node's assumption about customers without a phone number checked at run time: the first body that has Meta's
 * `user_id` or `username` and no phone number is logged (a warning, once per process; shared/conversation/customer.ts).
 */
export function noticeWithoutPhone(
	body: IDataObject,
	logger?: { warn(message: string): void },
): void {
	warnWithoutPhone(
		'BotSailor Webhook Trigger',
		body,
		"The item carries user_id, username and parent_user_id as they came, with phone_number empty; the platform's API reaches customers by phone number only, so replies, Fetch Full Message and Send and Wait answers cannot use it",
		logger,
	);
}

/** Which bot the body is about, for content keys: the bot id, else its username. */
export function botOf(body: IDataObject): string {
	return firstText(body, ['whatsapp_bot_id', 'whatsapp_bot_username', 'whatsapp_bot_name']);
}

/** The subscriber's name as the polling trigger writes it (first and last name, "null" left out). */
export function senderName(body: IDataObject): string {
	return [fieldText(body, 'first_name'), fieldText(body, 'last_name')]
		.filter((part) => part !== '' && part !== 'null')
		.join(' ');
}

/** A value that may hold JSON as text (form-encoded bodies): decoded when it is JSON, as sent otherwise. */
export function decoded(value: unknown): unknown {
	return typeof value === 'string' ? decodeJsonText(value) : value;
}

/** JSON with sorted keys, so that the same content always gives the same key. */
export function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.entries(value as IDataObject).sort(([a], [b]) => a.localeCompare(b));
		return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(',')}}`;
	}
	return JSON.stringify(value ?? null);
}
