import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	PreSendAction,
} from 'n8n-workflow';
import { inputs, numberAsText, refuse, z } from '../../../shared/parameters/inputs';
import { usesEarlierForm } from '../../../shared/http/transport';
import { requestBody } from '../../../shared/parameters/values';

/** Input schemas and preSends shared by the user-group resources. */

const EMAIL = z.string().email();

/** The spec's user `id`: a user ID or the user's email. */
export const userRef = z.preprocess(
	numberAsText,
	z
		.string({ message: 'is required' })
		.trim()
		.refine(
			(value) => /^\d+$/.test(value) || EMAIL.safeParse(value).success,
			'must be a user ID (digits) or an email address',
		),
);

/** `<addon_id>` or `<addon_id>-<variation index>`. */
export const addonRef = z.preprocess(
	numberAsText,
	z
		.string()
		.trim()
		.regex(
			/^\d+(-\d+)?$/,
			'must be an addon ID, or <addon ID>-<variation index> for a variation, e.g. 4 or 4-0',
		),
);

/** A date, or empty for "unlimited". */
export const dateOrUnlimited = z.unknown().transform((value, context) => {
	if (typeof value === 'string' && value.trim() === '') return '';
	const date = inputs.date.safeParse(value);
	if (date.success) return date.data;
	context.addIssue({
		code: z.ZodIssueCode.custom,
		message: 'must be a real date in the form YYYY-MM-DD, e.g. 2025-12-31 (or Unlimited)',
	});
	return z.NEVER;
});

function failItem(context: IExecuteSingleFunctions, label: string, problem: string): never {
	refuse(context, `${label} ${problem}`, `Check the parameter "${label}".`);
}

/** Fails the item when one of the given body fields is empty (fields required only in some cases). */
export function requireFields(
	fields: Record<string, string>,
	when: (body: IDataObject) => boolean,
): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const body = requestBody(requestOptions);
		if (!when(body)) return requestOptions;
		for (const [field, label] of Object.entries(fields)) {
			const value = body[field];
			if (value === undefined || value === null || String(value).trim() === '')
				failItem(this, label, 'is required');
		}
		return requestOptions;
	};
}

/**
 * `access_type` exists only in the earlier form of the interface (spec, addon create): sent from
 * the given parameter then, never in the current form.
 */
export function accessTypeForEarlierForm(parameter: string, required: boolean): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const body = { ...requestBody(requestOptions) };
		delete body.access_type;
		if (await usesEarlierForm(this)) {
			const value = String(this.getNodeParameter(parameter, '') ?? '');
			if (value !== '') body.access_type = value;
			else if (required)
				failItem(this, 'Access Type', 'is required when the credential uses the earlier API form');
		}
		return { ...requestOptions, body };
	};
}

/** Refuses a field the earlier form of the interface does not have, instead of sending it in vain. */
export function currentFormOnly(field: string, label: string): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const body = requestBody(requestOptions);
		if (body[field] !== undefined && (await usesEarlierForm(this))) {
			failItem(this, label, 'is not available when the credential uses the earlier API form');
		}
		return requestOptions;
	};
}
