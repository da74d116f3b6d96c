import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { showFor } from '../common';
import { inputs, validateBody, z } from '../../shared/inputs';

const show = showFor('message', ['sendTemplate']);

/** The template picker shared by Send Template and Template → Get Status; the value is the list's `template_id`. */
export function templateLocator(resource: string, operations: string[]): INodeProperties {
	return {
		displayName: 'Template',
		name: 'templateId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The message template. Its template_id (the ID assigned at creation) is sent.',
		displayOptions: showFor(resource, operations),
		modes: [
			{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod: 'searchTemplates', searchable: true } },
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 1200000000001001', hint: 'The template_id from Template → Get Many' },
		],
		routing: { send: { type: 'body', property: 'template_id' } },
	};
}

export const TEMPLATE_VARIABLE = /^templateVariable-(.+)-(\d+)$/;

export const sendTemplateFields: INodeProperties[] = [
	templateLocator('message', ['sendTemplate']),
	{
		displayName: 'Template Variables',
		name: 'templateVariables',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		description: 'Values for the variables of the chosen template, read from its variable map',
		displayOptions: show,
		typeOptions: {
			loadOptionsDependsOn: ['phoneNumberId.value', 'templateId.value'],
			resourceMapper: {
				resourceMapperMethod: 'getTemplateVariables',
				mode: 'add',
				fieldWords: { singular: 'variable', plural: 'variables' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: false,
				noFieldsError: 'This template has no variable map. Use Manual Variables instead if it has variables.',
			},
		},
	},
	{
		displayName: 'Manual Variables',
		name: 'manualVariables',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Variable',
		default: {},
		description: 'Variables by label and position, for a template typed by ID or without a variable map. Sent as templateVariable-{label}-{position}.',
		displayOptions: show,
		options: [
			{
				displayName: 'Variable',
				name: 'variable',
				values: [
					{ displayName: 'Label', name: 'label', type: 'string', default: '', placeholder: 'e.g. first_name' },
					{ displayName: 'Position', name: 'position', type: 'number', default: 1, typeOptions: { minValue: 1 } },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show,
		options: [
			{
				displayName: 'Header Media URL',
				name: 'headerMediaUrl',
				type: 'string',
				default: '',
				placeholder: 'https://example.com/banner.jpg',
				description: 'Public URL of the header image, video or document, when the template has a media header',
				routing: { send: { type: 'body', property: 'template_header_media_url' } },
			},
		],
	},
];

const schema = z.object({
	phone_number_id: inputs.required.describe('WhatsApp Number'),
	template_id: inputs.required.describe('Template'),
	phone_number: inputs.phoneNumber.describe('Phone Number'),
	template_header_media_url: z.string().url('must be a URL, e.g. https://example.com/banner.jpg').optional().describe('Header Media URL'),
});

function refuse(context: IExecuteSingleFunctions, message: string): never {
	throw new NodeOperationError(context.getNode(), message, { description: 'Parameter "Manual Variables". Nothing was sent to the platform.', itemIndex: context.getItemIndex() });
}

/** The mapped and manual variables as `templateVariable-{LABEL}-{POSITION}` fields; empty values are left out. */
function templateVariables(context: IExecuteSingleFunctions): IDataObject {
	const fields: IDataObject = {};
	const mapped = (context.getNodeParameter('templateVariables.value', {}) ?? {}) as IDataObject;
	for (const [key, value] of Object.entries(mapped)) {
		if (TEMPLATE_VARIABLE.test(key) && value !== undefined && value !== null && String(value) !== '') fields[key] = String(value);
	}
	const manual = context.getNodeParameter('manualVariables.variable', []) as IDataObject[];
	for (const [index, row] of manual.entries()) {
		const label = String(row.label ?? '').trim();
		const position = Number(row.position);
		if (!/^[A-Za-z0-9_]+$/.test(label)) refuse(context, `Manual variable ${index + 1}: Label must be letters, digits or underscores, e.g. first_name`);
		if (!Number.isInteger(position) || position < 1) refuse(context, `Manual variable ${index + 1}: Position must be a whole number from 1`);
		if (row.value !== undefined && String(row.value) !== '') fields[`templateVariable-${label}-${position}`] = String(row.value);
	}
	return fields;
}

export async function prepareTemplateSend(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const variables = templateVariables(this);
	const checked = await validateBody(schema).call(this, requestOptions);
	return { ...checked, body: { ...(checked.body as IDataObject), ...variables } };
}
