import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { checkBody, inputs, onFirstUse, z } from '../../../shared/parameters/inputs';
import { unwrap } from '../../running/outputItems';
import { recordOf, recordsOf, requestBody } from '../../../shared/parameters/values';
import { whatsAppNumber } from '../common';
import type { OperationDescription } from '../resource';
import { jsonFromText } from '../../../shared/parameters/jsonStrings';

/** Template create and status are exemplified with a JSON body; the credential then adds the token to it and as Bearer. */
export const JSON_HEADERS = { 'Content-Type': 'application/json' };
const showType = (type: string) => ({ show: { templateType: [type] } });

const buttonValues: INodeProperties[] = [
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		options: [
			{ name: 'Copy Code', value: 'copy_code' },
			{ name: 'Phone Number', value: 'phone_number' },
			{ name: 'Quick Reply', value: 'quick_reply' },
			{ name: 'URL', value: 'url' },
		],
		default: 'quick_reply',
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		default: '',
		description: 'Button label (quick reply, URL, phone number)',
	},
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '',
		description: 'For a URL button; a dynamic URL ends with a tag such as #!order_id!#',
	},
	{
		displayName: 'Phone Number',
		name: 'phone_number',
		type: 'string',
		default: '',
		description: 'For a phone number button, with country code',
	},
	{
		displayName: 'Code',
		name: 'code',
		type: 'string',
		default: '',
		description: 'For a copy code button',
	},
];

const createFields: INodeProperties[] = [
	{
		displayName: 'Template Type',
		name: 'templateType',
		type: 'options',
		options: [
			{
				name: 'Standard',
				value: 'standard',
				description: 'Marketing or utility template with optional header, footer and buttons',
			},
			{ name: 'Authentication', value: 'authentication', description: 'One-time code template' },
			{
				name: 'Carousel',
				value: 'carousel',
				description: 'Marketing template with 1 to 10 media or product cards',
			},
		],
		default: 'standard',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. summer_sale',
		description: 'Lowercase letters and underscores only',
	},
	{
		displayName: 'Category',
		name: 'category',
		type: 'options',
		options: [
			{ name: 'Marketing', value: 'MARKETING' },
			{ name: 'Utility', value: 'UTILITY' },
		],
		default: 'MARKETING',
		displayOptions: showType('standard'),
	},
	{
		displayName: 'Language',
		name: 'language',
		type: 'string',
		default: 'en_US',
		description: 'Language code, e.g. en_US or es',
	},
	{
		displayName: 'Body Text',
		name: 'bodyText',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		description:
			'Message body; dynamic tags are written #NAME# (custom field) or #!name!# (variable)',
		displayOptions: showType('standard'),
	},
	{
		displayName: 'Verification Code',
		name: 'verificationCode',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. #!otp!#',
		description:
			'A custom field like #field# or a variable like #!name!# that fills the one-time code',
		displayOptions: showType('authentication'),
	},
	{
		displayName: 'Carousel Type',
		name: 'carouselType',
		type: 'options',
		options: [
			{ name: 'Media Cards', value: 'carousel' },
			{ name: 'Catalog Product Cards', value: 'carousel_product' },
		],
		default: 'carousel',
		displayOptions: showType('carousel'),
	},
	{
		displayName: 'Bubble Body Text',
		name: 'bubbleBodyText',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		description: 'Intro text above the cards',
		displayOptions: showType('carousel'),
	},
	{
		displayName: 'Cards',
		name: 'cards',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, maxValue: 10 },
		placeholder: 'Add Card',
		default: {},
		description: 'One to ten cards',
		displayOptions: showType('carousel'),
		options: [
			{
				displayName: 'Card',
				name: 'card',
				values: [
					{
						displayName: 'Media Type',
						name: 'media_type',
						type: 'options',
						options: [
							{ name: 'Image', value: 'image' },
							{ name: 'Video', value: 'video' },
						],
						default: 'image',
					},
					{ displayName: 'Media URL', name: 'media_url', type: 'string', default: '' },
					{ displayName: 'Body Text', name: 'body_text', type: 'string', default: '' },
					{
						displayName: 'Buttons (JSON)',
						name: 'buttons',
						type: 'json',
						default: '[]',
						description:
							'The card\'s buttons as a JSON array, e.g. [{"type":"quick_reply","text":"Buy"}]',
					},
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
		displayOptions: showType('authentication'),
		options: [
			{
				displayName: 'Add Security Recommendation',
				name: 'addSecurityRecommendation',
				type: 'boolean',
				default: false,
				description: 'Whether to add the security disclaimer',
			},
			{
				displayName: 'Code Expiration Minutes',
				name: 'codeExpirationMinutes',
				type: 'number',
				default: 10,
				typeOptions: { minValue: 1, maxValue: 90 },
				description: 'Shown in the footer; 1 to 90',
			},
		],
	},
	{
		displayName: 'Additional Fields',
		name: 'standardFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showType('standard'),
		options: [
			{
				displayName: 'Buttons',
				name: 'buttons',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				options: [{ displayName: 'Button', name: 'button', values: buttonValues }],
			},
			{ displayName: 'Footer Text', name: 'footerText', type: 'string', default: '' },
			{
				displayName: 'Header Media URL',
				name: 'headerMediaUrl',
				type: 'string',
				default: '',
				description: 'For an image, video or document header',
			},
			{
				displayName: 'Header Text',
				name: 'headerText',
				type: 'string',
				default: '',
				description: 'For a text header',
			},
			{
				displayName: 'Header Type',
				name: 'headerType',
				type: 'options',
				options: [
					{ name: 'Document', value: 'document' },
					{ name: 'Image', value: 'image' },
					{ name: 'Text', value: 'text' },
					{ name: 'Video', value: 'video' },
				],
				default: 'text',
			},
			{
				displayName: 'WordPress Template',
				name: 'wordpress',
				type: 'boolean',
				default: false,
				description: 'Whether this is a WordPress template (template_type wp instead of mixed)',
			},
		],
	},
];

/** The schemas of the three shapes, built on first use (see onFirstUse). */
const schemas = onFirstUse(() => {
	const NAME = z
		.string()
		.trim()
		.min(1, 'is required')
		.regex(/^[a-z_]+$/, 'must be lowercase letters and underscores only, e.g. summer_sale')
		.describe('Name');
	const LANGUAGE = z.string().trim().min(1, 'is required').describe('Language');
	const NUMBER = inputs.required.describe('WhatsApp Number');

	const button = z.discriminatedUnion('type', [
		z.object({ type: z.literal('quick_reply'), text: z.string().min(1, 'needs a Text') }),
		z.object({
			type: z.literal('url'),
			text: z.string().min(1, 'needs a Text'),
			url: z.string().url('needs a URL'),
		}),
		z.object({
			type: z.literal('phone_number'),
			text: z.string().min(1, 'needs a Text'),
			phone_number: inputs.phoneNumber,
		}),
		z.object({ type: z.literal('copy_code'), code: z.string().min(1, 'needs a Code') }),
	]);

	return {
		standard: z.object({
			phone_number_id: NUMBER,
			name: NAME,
			category: z.enum(['MARKETING', 'UTILITY']).describe('Category'),
			language: LANGUAGE,
			template_type: z.enum(['mixed', 'wp']).describe('WordPress Template'),
			body_text: inputs.required.describe('Body Text'),
			header: z
				.union([
					z.object({ type: z.literal('text'), text: z.string().min(1, 'needs Header Text') }),
					z.object({
						type: z.enum(['image', 'video', 'document']),
						media_url: z.string().url('needs a Header Media URL'),
					}),
				])
				.optional()
				.describe('Header'),
			footer_text: z.string().optional().describe('Footer Text'),
			buttons: z.array(button).optional().describe('Buttons'),
		}),
		authentication: z.object({
			phone_number_id: NUMBER,
			name: NAME,
			category: z.literal('AUTHENTICATION'),
			language: LANGUAGE,
			template_type: z.literal('authentication'),
			verification_code: inputs.required.describe('Verification Code'),
			add_security_recommendation: z.boolean().optional().describe('Add Security Recommendation'),
			code_expiration_minutes: z
				.number()
				.int('must be a whole number')
				.min(1, 'must be between 1 and 90')
				.max(90, 'must be between 1 and 90')
				.optional()
				.describe('Code Expiration Minutes'),
		}),
		carousel: z.object({
			phone_number_id: NUMBER,
			name: NAME,
			category: z.literal('MARKETING'),
			language: LANGUAGE,
			template_type: z.enum(['carousel', 'carousel_product']).describe('Carousel Type'),
			bubble_body_text: inputs.required.describe('Bubble Body Text'),
			cards: z
				.array(
					z.object({
						media_type: z.enum(['image', 'video'], {
							message: 'Media Type must be image or video',
						}),
						media_url: z.string().url('Media URL must be a URL'),
						body_text: z.string().min(1, 'Body Text is required'),
						buttons: z.array(z.unknown(), { message: 'Buttons (JSON) must be a JSON array' }),
					}),
				)
				.min(1, 'must have 1 to 10 cards')
				.max(10, 'must have 1 to 10 cards')
				.describe('Cards'),
		}),
	};
});

function parseCardButtons(value: unknown): unknown {
	if (typeof value !== 'string') return value ?? [];
	return jsonFromText(value || '[]', 'invalid JSON');
}

/** Reads one shape's parameters into the spec's JSON body and validates it; bad input fails the item before any request. */
export async function buildTemplateBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const param = (name: string, fallback: unknown = '') => this.getNodeParameter(name, fallback);
	const type = param('templateType', 'standard') as keyof ReturnType<typeof schemas>;
	const common = {
		phone_number_id: requestBody(requestOptions).phone_number_id,
		name: param('name'),
		language: param('language', 'en_US'),
	};
	let body: IDataObject;
	if (type === 'authentication') {
		const extra = param('additionalFields', {}) as IDataObject;
		body = {
			...common,
			category: 'AUTHENTICATION',
			template_type: 'authentication',
			verification_code: param('verificationCode'),
			add_security_recommendation: extra.addSecurityRecommendation,
			code_expiration_minutes: extra.codeExpirationMinutes,
		};
	} else if (type === 'carousel') {
		const cards = recordsOf(recordOf(param('cards', {})).card);
		body = {
			...common,
			category: 'MARKETING',
			template_type: param('carouselType', 'carousel'),
			bubble_body_text: param('bubbleBodyText'),
			cards: cards.map((card) => ({ ...card, buttons: parseCardButtons(card.buttons) })),
		};
	} else {
		const extra = param('standardFields', {}) as IDataObject;
		const headerType = extra.headerType as string | undefined;
		const buttons = recordsOf(recordOf(extra.buttons).button);
		body = {
			...common,
			category: param('category', 'MARKETING'),
			template_type: extra.wordpress ? 'wp' : 'mixed',
			body_text: param('bodyText'),
			header: headerType
				? headerType === 'text'
					? { type: 'text', text: extra.headerText ?? '' }
					: { type: headerType, media_url: extra.headerMediaUrl ?? '' }
				: undefined,
			footer_text: extra.footerText || undefined,
			buttons: buttons.length
				? buttons.map(({ type: kind, text, url, phone_number, code }) =>
						kind === 'copy_code'
							? { type: kind, code }
							: kind === 'url'
								? { type: kind, text, url }
								: kind === 'phone_number'
									? { type: kind, text, phone_number }
									: { type: kind, text },
					)
				: undefined,
		};
	}
	const present = Object.fromEntries(
		Object.entries(body).filter(([, value]) => value !== undefined),
	);
	const checked = checkBody(this, schemas()[type].strict(), present);
	return { ...requestOptions, body: checked };
}

export const templateCreateOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Create a message template and submit it to WhatsApp for approval.',
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create a template',
		description: 'Create a message template and submit it for approval',
		routing: {
			request: { url: '/whatsapp/template/create', headers: JSON_HEADERS, json: true },
			send: { preSend: [buildTemplateBody] },
			output: { postReceive: [unwrap('data')] },
		},
	},
	fields: [whatsAppNumber(), ...createFields],
};
