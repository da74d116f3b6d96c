import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INode,
	PreSendAction,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';
import { requestBody } from './values';
import { jsonFromText } from './jsonStrings';

/**
 * Schemas for what users type. Each names the expected form in its message, so the error says
 * what to fix. Describe a field with `.describe('Display Name')` to name it in errors.
 */
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(text: string): boolean {
	const match = DATE_PATTERN.exec(text);
	if (!match) return false;
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const date = new Date(Date.UTC(year, month - 1, day));
	return (
		date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
	);
}

/** A number typed where text is expected (an expression gave 42): read as its digits, before a text check. */
export const numberAsText = (value: unknown) => (typeof value === 'number' ? String(value) : value);

/** What the platform's API takes to reach a customer (2026: Meta's user ids and usernames are not taken). */
export const PHONE_ONLY_API =
	"the platform's API accepts only phone numbers (digits with the country code) to reach a customer today, not Meta's user IDs (US.13491208655302741918) or usernames";

/** A WhatsApp business-scoped user id (`US.13491208655302741918`) or a username (`@ava`, `ava.bakes`). */
const BUSINESS_SCOPED_ID = /^(?:[A-Z]{2}\.\d{6,}|@?[A-Za-z][\w.]{1,34})$/;

export const inputs = {
	/** Any non-empty text. */
	required: z.preprocess(
		numberAsText,
		z.string({ message: 'is required' }).trim().min(1, 'is required'),
	),

	email: z.preprocess(
		numberAsText,
		z.string().trim().email('must be an email address, e.g. jane@example.com'),
	),

	/** A calendar date written YYYY-MM-DD; a date picker's value (2026-03-31T00:00:00) or a Date gives its date part. */
	date: z.preprocess(
		(value) => {
			if (value instanceof Date)
				return Number.isNaN(value.getTime()) ? String(value) : value.toISOString().slice(0, 10);
			return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value.trim())
				? value.trim().slice(0, 10)
				: numberAsText(value);
		},
		z
			.string()
			.trim()
			.refine(isCalendarDate, 'must be a real date in the form YYYY-MM-DD, e.g. 2025-12-31'),
	),

	/** A whole number, typed as a number or as digits. */
	integer: z.preprocess(
		(value) => (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value),
		z.number({ message: 'must be a whole number' }).int('must be a whole number'),
	),

	/** A number (prices, deal values). */
	number: z.preprocess(
		(value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value),
		z.number({ message: 'must be a number' }).finite('must be a number'),
	),

	/** `1` or `0`, from a boolean or a string. */
	flag: z.preprocess(
		(value) => (typeof value === 'boolean' ? (value ? '1' : '0') : numberAsText(value)),
		z.enum(['0', '1'], { message: 'must be 1 or 0' }),
	),

	/**
	 * A subscriber phone number: what people paste (`+44 7700 900123`, `(555) 010-9999`) becomes
	 * digits only; nothing else is rewritten (a leading 00 stays).
	 */
	phoneNumber: z.preprocess(
		numberAsText,
		z
			.string({ message: 'is required' })
			.trim()
			.min(1, 'is required')
			.superRefine((value, context) => {
				if (/^[\d\s+().-]+$/.test(value)) return;
				context.addIssue({
					code: z.ZodIssueCode.custom,
					// Meta's business-scoped user ids (US.13491208655302741918) and usernames (2026): not phone numbers.
					message: BUSINESS_SCOPED_ID.test(value)
						? `is a WhatsApp user ID or username (${value.slice(0, 40)}), not a phone number: the platform's API accepts only phone numbers here today, digits with the country code, e.g. +44 7700 900123`
						: 'must contain only digits, spaces, +, -, ( and ), e.g. +44 7700 900123',
				});
			})
			.transform((value) => value.replace(/\D/g, ''))
			.refine(
				(digits) => digits.length >= 6 && digits.length <= 15,
				'must have 6 to 15 digits, starting with the country code',
			),
	),

	/** JSON typed by the user; objects and arrays pass through, text must parse. Sent as JSON text. */
	json: z.unknown().transform((value, context) => {
		const parsed = typeof value === 'string' ? jsonFromText(value) : value;
		if (parsed === null || typeof parsed !== 'object') {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				message: 'must be valid JSON (an object or an array)',
			});
			return z.NEVER;
		}
		return JSON.stringify(parsed);
	}),

	/** One of a fixed list of values. */
	oneOf: <T extends string>(values: readonly [T, ...T[]]) =>
		z.preprocess(numberAsText, z.enum(values, { message: `must be one of: ${values.join(', ')}` })),

	/** A comma-separated list of ids, from an array (multi-select) or text. */
	idList: z.preprocess(
		(value) => (Array.isArray(value) ? value.join(',') : numberAsText(value)),
		z
			.string()
			.transform((value) =>
				value
					.split(',')
					.map((id) => id.trim())
					.filter((id) => id !== '')
					.join(','),
			)
			.refine((value) => value !== '', 'must list at least one id')
			.refine(
				(value) => value.split(',').every((id) => /^\d+$/.test(id)),
				'must be numeric ids separated by commas, e.g. 3,7',
			),
	),
};

/** The body fields of a request about one subscriber (the WhatsApp number and the subscriber), for `validateBody`. */
export const subscriberKeys = {
	phone_number_id: inputs.required.describe('WhatsApp Number'),
	phone_number: inputs.phoneNumber.describe('Subscriber'),
};

function fieldLabel(schema: z.ZodTypeAny | undefined, key: string): string {
	return schema?.description ?? key;
}

/** The item an input check is about: n8n's per-item context, or a send's item. */
export interface ItemTarget {
	getNode(): INode;
	getItemIndex(): number;
}

/** Fails the item with a local input error (nothing was sent): what is wrong, and what to set. */
export function refuse(target: ItemTarget, message: string, description: string): never {
	throw new NodeOperationError(target.getNode(), message, {
		description: `${description} Nothing was sent to the platform.`,
		itemIndex: target.getItemIndex(),
	});
}

/** Validates the request body built from the parameters; the first problem fails the item, naming the field. */
export function checkBody(
	context: ItemTarget,
	schema: z.ZodObject<z.ZodRawShape>,
	body: IDataObject,
): IDataObject {
	const result = schema.safeParse(body);
	if (result.success) return result.data as IDataObject;
	const issue = result.error.issues[0];
	const key = String(issue.path[0] ?? '');
	const label = fieldLabel(schema.shape[key] as z.ZodTypeAny | undefined, key);
	const got = body[key];
	const missing = got === undefined || got === '';
	const problem =
		issue.code === 'unrecognized_keys'
			? `is not a field this operation sends (${issue.keys.join(', ')})`
			: missing
				? 'is required'
				: issue.message;
	const shown = missing ? 'nothing' : JSON.stringify(got).slice(0, 80);
	// An empty number is often a trigger's item for a customer without one (Meta's user_id or username only).
	const phoneHint = missing && key === 'phone_number' ? ` Note: ${PHONE_ONLY_API}.` : '';
	refuse(
		context,
		`${label || 'The request'} ${problem}`,
		`The parameter "${label}" received ${shown}.${phoneHint}`,
	);
}

/** Empty optional fields are left out of the request, except the ones where empty means something. */
function withoutEmpty(body: IDataObject, keepEmpty: readonly string[]): IDataObject {
	return Object.fromEntries(
		Object.entries(body).filter(
			([key, value]) =>
				keepEmpty.includes(key) || (value !== undefined && value !== null && value !== ''),
		),
	);
}

/**
 * A value built when first asked for. Operations' schemas are built so: n8n loads the node when it
 * starts, and building every operation's zod schema then was a good part of that time.
 */
export function onFirstUse<T>(build: () => T): () => T {
	let built: { value: T } | undefined;
	return () => (built ??= { value: build() }).value;
}

/**
 * The preSend that guards every operation: drops empty optional fields, validates the rest with
 * the operation's schema (built on first use), and sends the normalised values. Fields the schema does not name are
 * refused, so the node never sends a field the spec does not have.
 */
export function validateBody(
	schema: () => z.ZodObject<z.ZodRawShape>,
	{ keepEmpty = [] as readonly string[] } = {},
): PreSendAction {
	const strict = onFirstUse(() => schema().strict());
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		return {
			...requestOptions,
			body: checkFields(this, strict(), requestBody(requestOptions), keepEmpty),
		};
	};
}

/** The fields an operation sends: empty optional ones dropped, the rest validated (strictly) and normalised. */
export function checkFields(
	target: ItemTarget,
	schema: z.ZodObject<z.ZodRawShape>,
	fields: Record<string, unknown>,
	keepEmpty: readonly string[] = [],
): IDataObject {
	return withoutEmpty(
		checkBody(target, schema.strict(), withoutEmpty(fields as IDataObject, keepEmpty)),
		keepEmpty,
	);
}

export { z };
