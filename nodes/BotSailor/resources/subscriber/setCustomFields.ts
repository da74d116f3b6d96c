import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { refuse, z } from '../../../shared/parameters/inputs';
import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator, subscriberWrite } from '../shared/subscriber';
import { requestBody } from '../../../shared/parameters/values';
import { jsonFromText } from '../../../shared/parameters/jsonStrings';

/** `custom_fields`: a JSON object of field name → value (picked fields arrive as an object, typed JSON as text). */
const customFieldsJson = z
	.preprocess(
		(value) =>
			typeof value === 'string' ? jsonFromText(value, Symbol.for('invalid-json')) : value,
		z.record(z.string(), z.unknown(), {
			message: 'must be a JSON object of field name → value, e.g. {"city": "Paris"}',
		}),
	)
	.refine(
		(object) => Object.keys(object).length > 0,
		'must set at least one field: pick a field, or type a JSON object such as {"city": "Paris"}',
	)
	.transform((object) => JSON.stringify(object));

/**
 * Builds `custom_fields` (a JSON object of field name → value) from the picked fields, or takes
 * the JSON the user typed; validateBody then checks and encodes it.
 */
export async function customFieldsBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
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
				refuse(
					this,
					'Custom Fields: a field has no name',
					'Pick a custom field for every row, or remove the empty row.',
				);
			}
			object[name] = entry.value ?? '';
		}
		customFields = object;
	}
	return {
		...requestOptions,
		body: { ...requestBody(requestOptions), custom_fields: customFields as IDataObject },
	};
}

export const setCustomFieldsOperation: OperationDescription = {
	kind: 'write',
	toolDescription:
		'Save values in custom fields of a WhatsApp subscriber (for example a city or an order number they gave). Sends nothing to them.',
	option: {
		name: 'Set Custom Fields',
		value: 'setCustomFields',
		action: 'Set custom fields of a subscriber',
		routing: subscriberWrite(
			'/whatsapp/subscriber/chat/assign-custom-fields',
			{ custom_fields: customFieldsJson.describe('Custom Fields') },
			[customFieldsBody],
		),
	},
	fields: [
		whatsAppNumber(),
		subscriberLocator(),
		{
			displayName: 'Input Mode',
			name: 'customFieldsMode',
			type: 'options',
			default: 'pick',
			options: [
				{
					name: 'Pick Fields',
					value: 'pick',
					description: 'Choose custom fields from the account’s list and set their values',
				},
				{ name: 'JSON', value: 'json', description: 'Type a JSON object of field name → value' },
			],
		},
		{
			displayName: 'Custom Fields',
			name: 'customFieldsUi',
			type: 'fixedCollection',
			placeholder: 'Add Custom Field',
			default: {},
			typeOptions: { multipleValues: true },
			displayOptions: { show: { customFieldsMode: ['pick'] } },
			options: [
				{
					displayName: 'Field',
					name: 'field',
					values: [
						{
							displayName: 'Field Name or ID',
							name: 'name',
							type: 'options',
							default: '',
							description:
								'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
							typeOptions: { loadOptionsMethod: 'getCustomFields' },
						},
						{ displayName: 'Value', name: 'value', type: 'string', default: '' },
					],
				},
			],
		},
		{
			displayName: 'Custom Fields (JSON)',
			name: 'customFieldsJson',
			type: 'json',
			// Never sample data as the default: run unedited, it would overwrite the subscriber's fields.
			default: '{}',
			description: 'An object mapping custom field names to values',
			hint: 'For example {"city": "Paris", "plan": "gold"}: field names as listed under Custom Field → Get Many',
			displayOptions: { show: { customFieldsMode: ['json'] } },
		},
	],
};
