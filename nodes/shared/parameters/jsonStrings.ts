import { jsonParse, type IDataObject } from 'n8n-workflow';

/** Fields the API returns as JSON encoded in a string (spec: "Conventions", point 7). */
export const JSON_STRING_FIELDS: ReadonlySet<string> = new Set([
	'monthly_limit',
	'product_data',
	'discount_data',
	'variation_data',
	'variation_data_copy',
	'message_content',
	'template_json',
	'template_jsoncode',
	'button_content',
	'variable_map',
	'checkout_settings',
	'shipping_address',
	'subscription_data',
	'access_data',
]);

/**
 * The value of the JSON in a text (n8n's jsonParse), or `fallback` where the text is not JSON: undefined
 * unless given, which JSON itself never yields. The one place this package reads JSON carried in a string.
 */
export function jsonFromText(text: string, fallback?: unknown): unknown {
	return jsonParse<unknown>(text, { fallbackValue: () => fallback });
}

/** An object or array carried as JSON text, decoded; any other text, or JSON that does not parse, as it came. */
export function decodeJsonText(text: string): unknown {
	const trimmed = text.trim();
	if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
	return jsonFromText(trimmed, text);
}

/** Turns the known JSON-string fields of one record into objects; anything unparsable stays as sent. */
export function decodeJsonFields(record: IDataObject): IDataObject {
	const decoded: IDataObject = { ...record };
	for (const [key, value] of Object.entries(record)) {
		if (JSON_STRING_FIELDS.has(key) && typeof value === 'string') {
			decoded[key] = decodeJsonText(value) as IDataObject;
		}
	}
	return decoded;
}
