import type { IDataObject } from 'n8n-workflow';

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

function parseJsonText(text: string): unknown {
	const trimmed = text.trim();
	if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
	try {
		return JSON.parse(trimmed);
	} catch {
		return text;
	}
}

/** Turns the known JSON-string fields of one record into objects; anything unparsable stays as sent. */
export function decodeJsonFields(record: IDataObject): IDataObject {
	const decoded: IDataObject = { ...record };
	for (const [key, value] of Object.entries(record)) {
		if (JSON_STRING_FIELDS.has(key) && typeof value === 'string') {
			decoded[key] = parseJsonText(value) as IDataObject;
		}
	}
	return decoded;
}
