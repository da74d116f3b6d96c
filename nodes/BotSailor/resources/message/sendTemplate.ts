import { withWaitForDelivery } from '../../sending/deliveryWait';
import type { INodeProperties } from 'n8n-workflow';
import { sendNumber, sendRecipient } from '../common';
import { checkFields, inputs, onFirstUse, z } from '../../../shared/parameters/inputs';
import type { SendDefinition } from '../../sending/sendDefinition';
import { templateVariables } from '../../sending/templateVariables';
import { templateLocator } from '../shared/templateLocator';
import type { OperationDescription } from '../resource';
import { optOutLabelOf, withSkipOptedOut } from '../../sending/skipOptedOut';

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

/** Message → Send Template: an approved template with its variables; works outside the 24-hour window. */
export const sendTemplate: SendDefinition = {
	resource: 'message',
	operation: 'sendTemplate',
	url: '/whatsapp/send/template',
	optOutLabel: optOutLabelOf,
	templateIdOf: (fields) => String(fields.template_id),
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
	send: sendTemplate,
	toolDescription:
		'Send an approved WhatsApp message template to one subscriber. Use it to start a conversation or to write outside the 24-hour window, where free text is refused. The template and its variables are set in this tool. Each call sends one message.',
	option: {
		name: 'Send Template',
		value: 'sendTemplate',
		action: 'Send a template message',
		description: 'Send an approved message template; works outside the 24-hour session window',
	},
	fields: withWaitForDelivery(withSkipOptedOut([sendNumber(), sendRecipient(), ...fields])),
};
