import { withWaitForDelivery } from '../../sending/deliveryWait';
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { sendNumber, sendRecipient } from '../common';
import {
	checkFields,
	inputs,
	onFirstUse,
	refuse,
	subscriberKeys,
	z,
} from '../../../shared/parameters/inputs';
import type { SendDefinition } from '../../sending/sendDefinition';
import type { SendItem } from '../../sending/sendItem';
import type { OperationDescription } from '../resource';
import { withReplyGuards } from '../../sending/replyGuards';
import { windowChoiceOf, withWindowFields } from './outsideWindow';
import { optOutLabelOf, withSkipOptedOut } from '../../sending/skipOptedOut';
import { mediaNameOption, mediaTypeFromUrl, mediaTypeOption } from './mediaOptions';
export const BUTTON_COUNT_TEXT = 'You can send between 1 and 3 reply buttons.';
export const BUTTON_MEDIA_TEXT =
	'When sending media with buttons, media_type must be one of: image, video, document.';
/** The header media a button message takes (spec: send interactive buttons, media_type). */
const BUTTON_MEDIA_TYPES = ['image', 'video', 'document'] as const;

const fields: INodeProperties[] = [
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		description: 'Body text shown above the buttons',
	},
	{
		displayName: 'Buttons',
		name: 'buttons',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, maxValue: 3 },
		placeholder: 'Add Button',
		default: {},
		required: true,
		description: 'One to three reply buttons',
		options: [
			{
				displayName: 'Button',
				name: 'button',
				values: [
					{
						displayName: 'Title',
						name: 'title',
						type: 'string',
						default: '',
						description: 'Text on the button',
					},
					{
						displayName: 'ID',
						name: 'id',
						type: 'string',
						default: '',
						description:
							'Reply ID returned when the button is tapped; leave empty to send only the title',
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
		options: withReplyGuards([
			{ displayName: 'Footer Text', name: 'footerText', type: 'string', default: '' },
			{
				displayName: 'Header Text',
				name: 'headerText',
				type: 'string',
				default: '',
				description: 'Ignored when a media header is sent',
			},
			{
				displayName: 'Media ID',
				name: 'mediaId',
				type: 'string',
				default: '',
				description:
					'Media header by the ID from Media → Upload (then Media Type is required). Use either Media URL or Media ID.',
			},
			mediaNameOption('File name, used only for a document header'),
			mediaTypeOption(
				['document', 'image', 'video'],
				'Type of the media header (audio is not supported as a header). Required with Media ID or a URL without a file extension.',
			),
			{
				displayName: 'Media URL',
				name: 'mediaUrl',
				type: 'string',
				default: '',
				placeholder: 'https://example.com/menu.jpg',
				description: 'Public HTTPS URL of an image, video or document shown as header',
			},
		]),
	},
];

const schema = onFirstUse(() =>
	z.object({
		...subscriberKeys,
		message: inputs.required.describe('Message'),
		buttons: z.string().describe('Buttons'),
		button_header_text: z.string().optional().describe('Header Text'),
		button_footer_text: z.string().optional().describe('Footer Text'),
		media_url: z
			.string()
			.url('must be a URL, e.g. https://example.com/menu.jpg')
			.optional()
			.describe('Media URL'),
		media_id: z.string().optional().describe('Media ID'),
		media_type: z
			.preprocess(
				(value) => (typeof value === 'string' ? value.trim() || undefined : value),
				z
					.enum(BUTTON_MEDIA_TYPES, {
						message: `must be one of: ${BUTTON_MEDIA_TYPES.join(', ')}`,
					})
					.optional(),
			)
			.describe('Media Type'),
		media_name: z.string().optional().describe('Media Name'),
	}),
);

/** The Additional Fields and the form field each is sent as. */
const OPTIONAL_FIELDS = {
	footerText: 'button_footer_text',
	headerText: 'button_header_text',
	mediaId: 'media_id',
	mediaName: 'media_name',
	mediaType: 'media_type',
	mediaUrl: 'media_url',
} as const;

/** Buttons as the API's JSON array, and the spec's own rules on count and header media, checked before sending. */
function buttonsField(item: SendItem): string {
	// The fixedCollection's value is { button: [...] }.
	const rows = (item.param('buttons.button', []) ?? []) as IDataObject[];
	if (rows.length < 1 || rows.length > 3)
		refuse(item, BUTTON_COUNT_TEXT, `Parameter "Buttons" has ${rows.length} buttons.`);
	const buttons = rows.map((row, index) => {
		const title = String(row.title ?? '').trim();
		const id = String(row.id ?? '').trim();
		if (!title)
			refuse(
				item,
				`Button ${index + 1} needs a title`,
				'Parameter "Buttons": every button has a Title.',
			);
		return id ? { id, title } : title;
	});
	return JSON.stringify(buttons);
}

/** Message → Send Buttons: a session message with one to three reply buttons and an optional header. */
export const sendButtons: SendDefinition = {
	resource: 'message',
	operation: 'sendButtons',
	url: '/whatsapp/send/interactive-buttons',
	session: { sentAs: 'buttons', choice: windowChoiceOf },
	optOutLabel: optOutLabelOf,
	async build(item) {
		const additional = (item.param('additionalFields', {}) ?? {}) as IDataObject;
		const body: IDataObject = {
			phone_number_id: item.param('phoneNumberId', undefined, { extractValue: true }),
			phone_number: item.param('phoneNumber', undefined, { extractValue: true }),
			message: item.param('message'),
			buttons: buttonsField(item),
		};
		for (const [name, field] of Object.entries(OPTIONAL_FIELDS))
			if (additional[name] !== undefined) body[field] = additional[name];

		const mediaUrl = String(body.media_url ?? '').trim();
		const mediaId = String(body.media_id ?? '').trim();
		if (mediaUrl && mediaId)
			refuse(
				item,
				'Use either Media URL or Media ID, not both',
				'Parameters "Media URL" and "Media ID" are both set.',
			);
		if (!mediaUrl && !mediaId) {
			// A media type or name without media means nothing to the API.
			delete body.media_type;
			delete body.media_name;
		} else {
			const given = String(body.media_type ?? '').trim();
			const mediaType = given || (mediaUrl ? mediaTypeFromUrl(mediaUrl) : undefined);
			if (!mediaType)
				refuse(
					item,
					'Media Type is required for this media header',
					'Set "Media Type" when using Media ID or a URL without a file extension.',
				);
			if (!(BUTTON_MEDIA_TYPES as readonly string[]).includes(mediaType))
				refuse(item, BUTTON_MEDIA_TEXT, `Parameter "Media Type" is ${mediaType}.`);
			if (mediaType !== 'document') delete body.media_name;
		}
		return checkFields(item, schema(), body);
	},
};

export const sendButtonsOperation: OperationDescription = {
	kind: 'send',
	send: sendButtons,
	toolDescription:
		'Send a WhatsApp message with one to three reply buttons to one subscriber, inside the 24-hour window after their last message. Each call sends one message.',
	option: {
		name: 'Send Buttons',
		value: 'sendButtons',
		action: 'Send a message with reply buttons',
		description: 'Send a session message with one to three reply buttons',
	},
	fields: withWaitForDelivery(
		withWindowFields(withSkipOptedOut([sendNumber(), sendRecipient(), ...fields])),
	),
};
