import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { refuse } from '../../shared/inputs';

/**
 * Builds `custom_fields` (a JSON object of field name → value) from the picked fields, or takes
 * the JSON the user typed; validateBody then checks and encodes it.
 */
export async function customFieldsBody(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const mode = this.getNodeParameter('customFieldsMode', 'pick') as string;
	let customFields: unknown;
	if (mode === 'json') {
		customFields = this.getNodeParameter('customFieldsJson', '{}');
	} else {
		const picked = (this.getNodeParameter('customFieldsUi.field', []) as IDataObject[]) ?? [];
		const object: IDataObject = {};
		for (const entry of picked) {
			const name = String(entry.name ?? '').trim();
			if (!name) {
				refuse(this, 'Custom Fields: a field has no name', 'Pick a custom field for every row, or remove the empty row.');
			}
			object[name] = entry.value ?? '';
		}
		customFields = object;
	}
	return { ...requestOptions, body: { ...((requestOptions.body ?? {}) as IDataObject), custom_fields: customFields as IDataObject } };
}
