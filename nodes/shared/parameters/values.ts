import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

/** Type guards and readers for values the API, n8n or a user hands over untyped: checked, not cast. */

/** A plain object (not an array, not null). */
export function isRecord(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** The value as a record, or {} when it is none (a text, a list, nothing). */
export function recordOf(value: unknown): IDataObject {
	return isRecord(value) ? value : {};
}

/** The records of a list, or [] when the value is no list; entries that are not records are left out. */
export function recordsOf(value: unknown): IDataObject[] {
	return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** A request's form fields as built so far ({} when there are none yet). */
export function requestBody(options: Pick<IHttpRequestOptions, 'body'>): IDataObject {
	return isRecord(options.body) ? options.body : {};
}

/** A text or a number as trimmed text; undefined when empty or of another type. */
export function text(value: unknown): string | undefined {
	if (typeof value === 'number') return String(value);
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The message of anything thrown. */
export function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
