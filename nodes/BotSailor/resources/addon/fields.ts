import type { INodeProperties } from 'n8n-workflow';
import { decodeJsonOption, showFor } from '../common';
import { addonLocator, moduleLocator } from '../user/locators';

/** The fields of the Addon operations (create and update share most of them). */

const resource = 'addon';
const both = ['create', 'update'];

const validityTypeOptions = [
	{ name: 'Day', value: 'D' },
	{ name: 'Month', value: 'M' },
	{ name: 'Week', value: 'W' },
	{ name: 'Year', value: 'Y' },
];

/** The addon's own settings; on create they are top-level and required, on update optional. */
function settings(required: boolean): INodeProperties[] {
	const send = (property: string) => ({ send: { type: 'body' as const, property } });
	return [
		{ displayName: 'Description', name: 'addonDescription', type: 'string', default: '', required, routing: send('addon_description') },
		{ displayName: 'Price', name: 'price', type: 'number', default: 0, required, typeOptions: { minValue: 0, numberPrecision: 2 }, routing: send('price') },
		{
			displayName: 'Validity',
			name: 'validity',
			type: 'number',
			default: 1,
			required,
			description: 'How long the addon lasts, in Validity Type units',
			routing: send('validity'),
		},
		{ displayName: 'Validity Type', name: 'validityType', type: 'options', options: validityTypeOptions, default: 'M', required, routing: send('validity_type') },
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


const accessTypeOptions = [
	{ name: 'Extend', value: 'extend', description: 'Adds to the module limit' },
	{ name: 'Allow', value: 'allow', description: 'Grants access to the module' },
];

const visible: INodeProperties = {
	displayName: 'Visible',
	name: 'visible',
	type: 'boolean',
	default: true,
	description: 'Whether users can see and buy the addon',
	routing: { send: { type: 'body', property: 'visible', value: '={{ $value ? "1" : "0" }}' } },
};

export const addonFields: INodeProperties[] = [
	addonLocator({ name: 'addon', property: 'id', required: true, displayOptions: showFor(resource, ['update']) }),
	{
		displayName: 'Name',
		name: 'addonName',
		type: 'string',
		default: '',
		required: true,
		displayOptions: showFor(resource, both),
		routing: { send: { type: 'body', property: 'addon_name' } },
	},
	moduleLocator({ name: 'module', property: 'module_id', required: true, displayOptions: showFor(resource, ['create']) }),
	...settings(true).map((field) => ({ ...field, displayOptions: showFor(resource, ['create']) })),
	{
		displayName: 'Access Type (Earlier API Form)',
		name: 'accessType',
		type: 'options',
		options: accessTypeOptions,
		default: 'extend',
		description: 'Only sent when the credential uses the earlier API form, where it is required',
		displayOptions: showFor(resource, ['create']),
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor(resource, ['create']),
		options: [visible],
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor(resource, ['update']),
		options: [
			{
				displayName: 'Access Type (Earlier API Form)',
				name: 'accessType',
				type: 'options',
				options: accessTypeOptions,
				default: 'extend',
				description: 'Only sent when the credential uses the earlier API form',
			},
			...settings(false),
			visible,
		],
	},
	{
		displayName: 'Variations Input',
		name: 'variationsInput',
		type: 'options',
		options: [
			{ name: 'Rows', value: 'rows', description: 'One row per variation' },
			{ name: 'JSON', value: 'json', description: 'A JSON list of variations, e.g. from a previous node' },
		],
		default: 'rows',
		description: 'How to give the variations. On update, the list replaces the addon\'s variations.',
		displayOptions: showFor(resource, both),
	},
	{
		displayName: 'Variations',
		name: 'variations',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Variation',
		default: {},
		description: 'Alternative versions of the addon, each with its own validity, limit and price',
		displayOptions: { show: { resource: [resource], operation: both, variationsInput: ['rows'] } },
		options: [
			{
				displayName: 'Variation',
				name: 'variation',
				values: [
					{ displayName: 'Extend Value', name: 'extendValue', type: 'number', default: 0, description: "How much this variation adds to the module's limit" },
					{ displayName: 'Name', name: 'name', type: 'string', default: '', placeholder: 'e.g. 5,000 subscribers' },
					{ displayName: 'Price', name: 'price', type: 'number', default: 0, typeOptions: { minValue: 0, numberPrecision: 2 } },
					{ displayName: 'Validity', name: 'validity', type: 'number', default: 1 },
					{ displayName: 'Validity Type', name: 'validityType', type: 'options', options: validityTypeOptions, default: 'M' },
				],
			},
		],
	},
	{
		displayName: 'Variations (JSON)',
		name: 'variationsJson',
		type: 'json',
		default: '[]',
		description: 'A list like [{"name": "5,000", "validity": 1, "validity_type": "M", "extend_value": 5000, "price": 29}]',
		displayOptions: { show: { resource: [resource], operation: both, variationsInput: ['json'] } },
	},
	decodeJsonOption(resource, ['getMany']),
];
