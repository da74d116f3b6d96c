import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { recipient, whatsAppNumber } from '../common';
import { checkFields, inputs, onFirstUse, refuse, z } from '../../../shared/inputs';
import { sendRouting } from '../../shared/declarativeSend';
import { type SendDefinition, type SendItem } from '../../shared/sendDefinition';
import type { OperationDescription } from '../resource';
import { optOutLabelOf, withSkipOptedOut } from '../../shared/skipOptedOut';

/** The template picker shared by Send Template and Template → Get Status; the value is the list's `template_id`. */
export function templateLocator(): INodeProperties {
	return {
		displayName: 'Template',
		name: 'templateId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The message template. Its template_id (the ID assigned at creation) is sent.',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchTemplates', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 1200000000001001',
				hint: 'The template_id from Template → Get Many',
			},
		],
		routing: { send: { type: 'body', property: 'template_id' } },
	};
}

export const TEMPLATE_VARIABLE = /^templateVariable-(.+)-(\d+)$/;

function mappedVariables(displayOptions: INodeProperties['displayOptions']): INodeProperties {
	return {
		displayName: 'Template Variables',
		name: 'templateVariables',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		description: 'Values for the variables of the chosen template, read from its variable map',
		displayOptions,
		typeOptions: {
			loadOptionsDependsOn: ['phoneNumberId.value', 'templateId.value'],
			resourceMapper: {
				resourceMapperMethod: 'getTemplateVariables',
				mode: 'add',
				fieldWords: { singular: 'variable', plural: 'variables' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: false,
				noFieldsError:
					'This template has no variable map. Choose Variables → By Label and Position if it has variables.',
			},
		},
	};
}

export function manualVariables(
	displayOptions: INodeProperties['displayOptions'],
): INodeProperties {
	return {
		displayName: 'Manual Variables',
		name: 'manualVariables',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Variable',
		default: {},
		description:
			'Variables by label and position, for a template typed by ID or without a variable map. Sent as templateVariable-{label}-{position}.',
		displayOptions,
		options: [
			{
				displayName: 'Variable',
				name: 'variable',
				values: [
					{
						displayName: 'Label',
						name: 'label',
						type: 'string',
						default: '',
						placeholder: 'e.g. first_name',
					},
					{
						displayName: 'Position',
						name: 'position',
						type: 'number',
						default: 1,
						typeOptions: { minValue: 1 },
					},
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	};
}

/** Display conditions on top of a field's own (the 24-hour fallback's choice). */
type Conditions = NonNullable<NonNullable<INodeProperties['displayOptions']>['show']>;

/**
 * The template, the Variables choice and the variable fields, as Send Template shows them. `when` adds display
 * conditions to each: the free-form sends show them as the template sent outside the 24-hour window.
 * Node version 1 shows both variable fields; from 1.1 the Variables choice shows one.
 */
export function templateChoiceFields(
	when: Conditions = {},
	templateName = 'Template',
): INodeProperties[] {
	const show = (conditions: Conditions) => ({ show: { ...conditions, ...when } });
	const fromVersion11 = { '@version': [{ _cnd: { gte: 1.1 } }] };
	const locator = templateLocator();
	return [
		Object.keys(when).length
			? { ...locator, displayName: templateName, displayOptions: show({}) }
			: locator,
		{
			displayName: 'Variables',
			name: 'variableSource',
			type: 'options',
			options: [
				{
					name: 'From the Template',
					value: 'mapper',
					description:
						'One field per variable of the chosen template, listed from its variable map',
				},
				{
					name: 'By Label and Position',
					value: 'manual',
					description: 'For a template given by ID or an expression, or one without a variable map',
				},
			],
			default: 'mapper',
			description: "Where to enter the values of the template's variables",
			// Node version 1.1: version 1 workflows keep both variable fields shown and sent.
			displayOptions: show(fromVersion11),
		},
		mappedVariables(show({ '@version': [1] })),
		manualVariables(show({ '@version': [1] })),
		mappedVariables(show({ ...fromVersion11, variableSource: ['mapper'] })),
		manualVariables(show({ ...fromVersion11, variableSource: ['manual'] })),
	];
}

const fields: INodeProperties[] = [
	...templateChoiceFields(),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Header Media URL',
				name: 'headerMediaUrl',
				type: 'string',
				default: '',
				placeholder: 'https://example.com/banner.jpg',
				description:
					'Public URL of the header image, video or document, when the template has a media header',
			},
		],
	},
];

const schema = onFirstUse(() =>
	z.object({
		phone_number_id: inputs.required.describe('WhatsApp Number'),
		template_id: inputs.required.describe('Template'),
		phone_number: inputs.phoneNumber.describe('Subscriber'),
		template_header_media_url: z
			.string()
			.url('must be a URL, e.g. https://example.com/banner.jpg')
			.optional()
			.describe('Header Media URL'),
	}),
);

const isEmpty = (value: unknown) =>
	value === undefined || value === null || String(value).trim() === '';

/**
 * The mapped and manual variables as `templateVariable-{LABEL}-{POSITION}` fields. Every variable
 * must have a value: the mapper lists all the template's variables (its schema), removed ones included.
 * Both are read whatever Variables shows (workflows saved before that choice may hold both).
 */
export function templateVariables(
	item: Pick<SendItem, 'param' | 'getNode' | 'getItemIndex'>,
): IDataObject {
	const fields: IDataObject = {};
	const manual = item.param('manualVariables.variable', []) as IDataObject[];
	for (const [index, row] of manual.entries()) {
		const label = String(row.label ?? '').trim();
		const position = Number(row.position);
		const where = 'Parameter "Manual Variables".';
		if (!/^[A-Za-z0-9_]+$/.test(label))
			refuse(
				item,
				`Manual variable ${index + 1}: Label must be letters, digits or underscores, e.g. first_name`,
				where,
			);
		if (!Number.isInteger(position) || position < 1)
			refuse(item, `Manual variable ${index + 1}: Position must be a whole number from 1`, where);
		if (isEmpty(row.value))
			refuse(
				item,
				`Manual variable ${index + 1} (${label}) is empty`,
				`${where} Every variable needs a value; remove the row if the template has no such variable.`,
			);
		fields[`templateVariable-${label}-${position}`] = String(row.value);
	}
	const mapper = (item.param('templateVariables', {}) ?? {}) as {
		value?: IDataObject | null;
		schema?: Array<{ id?: string; displayName?: string }>;
	};
	const mapped = mapper.value ?? {};
	const names = new Map<string, string>();
	for (const field of mapper.schema ?? [])
		if (field.id && TEMPLATE_VARIABLE.test(field.id))
			names.set(field.id, field.displayName ?? field.id);
	for (const key of Object.keys(mapped))
		if (TEMPLATE_VARIABLE.test(key) && !names.has(key)) names.set(key, key);
	for (const [key, name] of names) {
		// A manual variable of the same name wins (version 1 shows both fields).
		if (key in fields) continue;
		if (!isEmpty(mapped[key])) fields[key] = String(mapped[key]);
		else
			refuse(
				item,
				`Template variable ${name} is empty`,
				'Parameter "Template Variables": every variable of the template needs a value (an expression such as {{ $json.first_name }} or a text).',
			);
	}
	return fields;
}

/** Message → Send Template: an approved template with its variables; works outside the 24-hour window. */
export const sendTemplate: SendDefinition = {
	resource: 'message',
	operation: 'sendTemplate',
	url: '/whatsapp/send/template',
	optOutLabel: optOutLabelOf,
	async build(item) {
		const checked = checkFields(item, schema(), {
			phone_number_id: item.param('phoneNumberId', undefined, { extractValue: true }),
			template_id: item.param('templateId', undefined, { extractValue: true }),
			phone_number: item.param('phoneNumber', undefined, { extractValue: true }),
			template_header_media_url: item.param('additionalFields.headerMediaUrl', ''),
		});
		return { ...checked, ...templateVariables(item) };
	},
};

export const sendTemplateOperation: OperationDescription = {
	kind: 'send',
	option: {
		name: 'Send Template',
		value: 'sendTemplate',
		action: 'Send a template message',
		description: 'Send an approved message template; works outside the 24-hour session window',
		routing: sendRouting(sendTemplate),
	},
	fields: withSkipOptedOut([whatsAppNumber(), recipient(), ...fields]),
};
