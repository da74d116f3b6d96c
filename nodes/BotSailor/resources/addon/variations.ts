import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { inputs, numberAsText, onFirstUse, refuse, z } from '../../../shared/parameters/inputs';
import { recordOf, requestBody } from '../../../shared/parameters/values';
import { jsonFromText } from '../../../shared/parameters/jsonStrings';

/**
 * Addon variations: the UI holds one row per variation (or a JSON list of rows); the API takes
 * parallel JSON arrays, the n-th element of each belonging to the n-th variation.
 */

export const VALIDITY_TYPES = ['D', 'W', 'M', 'Y'] as const;

const variationRow = onFirstUse(() =>
	z.object({
		name: z
			.preprocess(numberAsText, z.string({ message: 'is required' }).trim().min(1, 'is required'))
			.describe('Name'),
		validity: inputs.integer.describe('Validity'),
		validity_type: inputs.oneOf(VALIDITY_TYPES).describe('Validity Type'),
		extend_value: inputs.integer.describe('Extend Value'),
		price: inputs.number.describe('Price'),
	}),
);

type Variation = z.infer<ReturnType<typeof variationRow>>;

/** UI rows use camelCase names; the JSON form uses the spec's names. */
function fromUiRow(row: IDataObject): IDataObject {
	return {
		name: row.name,
		validity: row.validity,
		validity_type: row.validityType,
		extend_value: row.extendValue,
		price: row.price,
	};
}

function fail(context: IExecuteSingleFunctions, message: string, got: unknown): never {
	refuse(context, message, `Received ${JSON.stringify(got ?? null).slice(0, 120)}.`);
}

function readRows(context: IExecuteSingleFunctions): IDataObject[] {
	if (context.getNodeParameter('variationsInput', 'rows') === 'json') {
		const raw = context.getNodeParameter('variationsJson', '[]');
		let parsed: unknown = raw;
		if (typeof raw === 'string') {
			parsed = jsonFromText(raw.trim() === '' ? '[]' : raw);
			if (parsed === undefined)
				fail(
					context,
					'Variations (JSON) must be valid JSON: a list of {name, validity, validity_type, extend_value, price}',
					raw,
				);
		}
		if (!Array.isArray(parsed))
			fail(context, 'Variations (JSON) must be a JSON list of variations', parsed);
		return parsed as IDataObject[];
	}
	const rows = context.getNodeParameter('variations.variation', []) as IDataObject[];
	return rows.map(fromUiRow);
}

function checkRows(context: IExecuteSingleFunctions, rows: IDataObject[]): Variation[] {
	return rows.map((row, index) => {
		const result = variationRow().safeParse(row && typeof row === 'object' ? row : {});
		if (result.success) return result.data;
		const issue = result.error.issues[0];
		const key = String(issue.path[0] ?? '') as keyof ReturnType<typeof variationRow>['shape'];
		const label = variationRow().shape[key]?.description ?? key;
		const got = recordOf(row)[key];
		const problem = got === undefined || got === '' ? 'is required' : issue.message;
		return fail(context, `Variations: variation ${index + 1}, ${label} ${problem}`, got);
	});
}

/**
 * The preSend that turns the variations into the spec's five arrays. Extend values and prices are
 * labelled required by the spec, so they are always sent (empty lists when there are no variations).
 */
export async function variationArrays(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
) {
	const variations = checkRows(this, readRows(this));
	const body = { ...requestBody(requestOptions) };
	if (variations.length) {
		body.variation_name = JSON.stringify(variations.map((entry) => entry.name));
		body.variation_validity = JSON.stringify(variations.map((entry) => String(entry.validity)));
		body.variation_validity_type = JSON.stringify(variations.map((entry) => entry.validity_type));
	}
	body.variation_extend_value = JSON.stringify(variations.map((entry) => entry.extend_value));
	body.variation_price = JSON.stringify(variations.map((entry) => entry.price));
	return { ...requestOptions, body };
}
