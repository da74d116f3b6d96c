import type { INodeProperties } from 'n8n-workflow';
import { inputs } from '../../../shared/parameters/inputs';
import { VALIDITY_TYPES } from './variations';

/** What Addon → Create and Update share: most of their fields and the body they send. */

const validityTypeOptions = [
	{ name: 'Day', value: 'D' },
	{ name: 'Month', value: 'M' },
	{ name: 'Week', value: 'W' },
	{ name: 'Year', value: 'Y' },
];

/** The addon's own settings; on create they are top-level and required, on update optional. */
export function settings(required: boolean): INodeProperties[] {
	const send = (property: string) => ({ send: { type: 'body' as const, property } });
	return [
		{
			displayName: 'Description',
			name: 'addonDescription',
			type: 'string',
			default: '',
			required,
			routing: send('addon_description'),
		},
		{
			displayName: 'Price',
			name: 'price',
			type: 'number',
			default: 0,
			required,
			typeOptions: { minValue: 0, numberPrecision: 2 },
			routing: send('price'),
		},
		{
			displayName: 'Validity',
			name: 'validity',
			type: 'number',
			default: 1,
			required,
			description: 'How long the addon lasts, in Validity Type units',
			routing: send('validity'),
		},
		{
			displayName: 'Validity Type',
			name: 'validityType',
			type: 'options',
			options: validityTypeOptions,
			default: 'M',
			required,
			routing: send('validity_type'),
		},
		{
			displayName: 'Addon Type',
			name: 'addonType',
			type: 'options',
			options: [
				{ name: 'Recurring', value: 'recurring' },
				{ name: 'One-Time', value: 'one-time' },
			],
			default: 'recurring',
			required,
			routing: send('addon_type'),
		},
		{
			displayName: 'Extend Value',
			name: 'extendValue',
			type: 'number',
			default: 0,
			required,
			description: "How much the addon adds to the module's limit",
			routing: send('extend_value'),
		},
	];
}

export const accessTypeOptions = [
	{ name: 'Extend', value: 'extend', description: 'Adds to the module limit' },
	{ name: 'Allow', value: 'allow', description: 'Grants access to the module' },
];

export const visible: INodeProperties = {
	displayName: 'Visible',
	name: 'visible',
	type: 'boolean',
	default: true,
	description: 'Whether users can see and buy the addon',
	routing: { send: { type: 'body', property: 'visible', value: '={{ $value ? "1" : "0" }}' } },
};

/** The addon's name, required on create and update. */
export const addonName: INodeProperties = {
	displayName: 'Name',
	name: 'addonName',
	type: 'string',
	default: '',
	required: true,
	routing: { send: { type: 'body', property: 'addon_name' } },
};

/** The variations, as rows or as a JSON list; on update they replace the addon's variations. */
export const variationFields: INodeProperties[] = [
	{
		displayName: 'Variations Input',
		name: 'variationsInput',
		type: 'options',
		options: [
			{ name: 'Rows', value: 'rows', description: 'One row per variation' },
			{
				name: 'JSON',
				value: 'json',
				description: 'A JSON list of variations, e.g. from a previous node',
			},
		],
		default: 'rows',
		description: "How to give the variations. On update, the list replaces the addon's variations.",
	},
	{
		displayName: 'Variations',
		name: 'variations',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Variation',
		default: {},
		description: 'Alternative versions of the addon, each with its own validity, limit and price',
		displayOptions: { show: { variationsInput: ['rows'] } },
		options: [
			{
				displayName: 'Variation',
				name: 'variation',
				values: [
					{
						displayName: 'Extend Value',
						name: 'extendValue',
						type: 'number',
						default: 0,
						description: "How much this variation adds to the module's limit",
					},
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. 5,000 subscribers',
					},
					{
						displayName: 'Price',
						name: 'price',
						type: 'number',
						default: 0,
						typeOptions: { minValue: 0, numberPrecision: 2 },
					},
					{ displayName: 'Validity', name: 'validity', type: 'number', default: 1 },
					{
						displayName: 'Validity Type',
						name: 'validityType',
						type: 'options',
						options: validityTypeOptions,
						default: 'M',
					},
				],
			},
		],
	},
	{
		displayName: 'Variations (JSON)',
		name: 'variationsJson',
		type: 'json',
		default: '[]',
		description:
			'A list like [{"name": "5,000", "validity": 1, "validity_type": "M", "extend_value": 5000, "price": 29}]',
		displayOptions: { show: { variationsInput: ['json'] } },
	},
];

/** The fields create and update share (a schema's parts, built on first use); on update all but the variation arrays are optional. */
export const sharedBody = () => ({
	addon_name: inputs.required.describe('Name'),
	addon_description: inputs.required.describe('Description'),
	price: inputs.number.describe('Price'),
	validity: inputs.integer.describe('Validity'),
	validity_type: inputs.oneOf(VALIDITY_TYPES).describe('Validity Type'),
	addon_type: inputs.oneOf(['recurring', 'one-time']).describe('Addon Type'),
	access_type: inputs
		.oneOf(['extend', 'allow'])
		.optional()
		.describe('Access Type (Earlier API Form)'),
	extend_value: inputs.integer.describe('Extend Value'),
	visible: inputs.flag.optional().describe('Visible'),
	variation_name: inputs.json.optional().describe('Variations'),
	variation_validity: inputs.json.optional().describe('Variations'),
	variation_validity_type: inputs.json.optional().describe('Variations'),
	variation_extend_value: inputs.json.describe('Variations'),
	variation_price: inputs.json.describe('Variations'),
});
