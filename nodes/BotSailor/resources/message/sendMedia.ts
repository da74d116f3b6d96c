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
import { checkedFile, uploadBinary, type CheckedFile } from '../../sending/upload';
import type { OperationDescription } from '../resource';
import { withReplyGuards } from '../../sending/replyGuards';
import { windowChoiceOf, withWindowFields } from './outsideWindow';
import { optOutLabelOf, withSkipOptedOut } from '../../sending/skipOptedOut';
import {
	fileNameFromUrl,
	mediaNameOption,
	mediaTypeFromUrl,
	mediaTypeOption,
} from './mediaOptions';

const showSource = (source: string) => ({ show: { source: [source] } });

const fields: INodeProperties[] = [
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		options: [
			{
				name: 'Binary File',
				value: 'binary',
				description: 'A file from the input item, uploaded first and then sent by its media ID',
			},
			{ name: 'Media ID', value: 'mediaId', description: 'A media ID from Media → Upload' },
			{ name: 'URL', value: 'url', description: 'A public HTTPS URL' },
		],
		default: 'url',
	},
	{
		displayName: 'Media URL',
		name: 'mediaUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://example.com/menu.pdf',
		displayOptions: showSource('url'),
	},
	{
		displayName: 'Media ID',
		name: 'mediaId',
		type: 'string',
		default: '',
		required: true,
		displayOptions: showSource('mediaId'),
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input binary field containing the file to send',
		displayOptions: showSource('binary'),
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: withReplyGuards([
			{
				displayName: 'Caption',
				name: 'caption',
				type: 'string',
				default: '',
				description: 'Caption for an image, video or document (not audio)',
			},
			mediaNameOption(
				"File name shown for a document. Defaults to the uploaded file's name or the last part of the URL.",
			),
			mediaTypeOption(
				['audio', 'document', 'image', 'video'],
				"When not set, it is read from the URL's file extension or the binary file's MIME type. Required with a media ID.",
			),
		]),
	},
];

const schema = onFirstUse(() =>
	z.object({
		...subscriberKeys,
		media_url: z
			.string()
			.url('must be a URL, e.g. https://example.com/menu.pdf')
			.optional()
			.describe('Media URL'),
		media_id: z.string().optional().describe('Media ID'),
		media_type: inputs
			.oneOf(['image', 'video', 'audio', 'document'])
			.optional()
			.describe('Media Type'),
		media_name: z.string().optional().describe('Media Name'),
		media_caption_text: z.string().optional().describe('Caption'),
	}),
);

const OPTIONAL_FIELDS = {
	caption: 'media_caption_text',
	mediaName: 'media_name',
	mediaType: 'media_type',
} as const;

/**
 * The type a binary file is sent as: the Media Type set, or the file's own kind. Any accepted file
 * may go as a document; otherwise the Media Type must match the file. WebP files are WhatsApp
 * stickers, which the send endpoint does not send (only as a document).
 */
function sendableType(item: SendItem, file: CheckedFile, requested: unknown): string {
	const type = String(requested ?? '') || (file.kind === 'sticker' ? '' : file.kind);
	if (!type) {
		refuse(
			item,
			`The file "${file.fileName}" is a WebP image, which WhatsApp sends only as a sticker`,
			'Send Media sends images as JPEG or PNG. Convert it, or set "Media Type" to Document to send it as a file.',
		);
	}
	if (type !== 'document' && type !== file.kind) {
		refuse(
			item,
			`Media Type is ${type}, but the file "${file.fileName}" is ${file.mimeType}`,
			`Send it as ${file.kind === 'sticker' ? 'a document' : `${file.kind} or document`}, or choose a matching file.`,
		);
	}
	return type;
}

/** The media type and a document's name, filled in where they can be read, then the whole body checked. */
function completed(item: SendItem, body: IDataObject, source: string): IDataObject {
	const mediaUrl = String(body.media_url ?? '').trim();
	if (!body.media_type && mediaUrl) body.media_type = mediaTypeFromUrl(mediaUrl);
	if (!body.media_type) {
		refuse(
			item,
			'Media Type is required',
			source === 'url'
				? 'The URL does not end in a file extension WhatsApp accepts for a type (jpg, png, mp4, 3gp, mp3, ogg, aac, amr, m4a, opus, pdf, txt, doc(x), xls(x), ppt(x)): set "Media Type".'
				: 'Set "Media Type" when sending by media ID.',
		);
	}
	if (body.media_type === 'document' && !body.media_name && mediaUrl)
		body.media_name = fileNameFromUrl(mediaUrl);
	if (body.media_type === 'document' && !body.media_name)
		refuse(
			item,
			'Media Name is required for a document',
			'Set "Media Name" to the file name (as returned by Media → Upload).',
		);
	if (body.media_type !== 'document') delete body.media_name;
	return checkFields(item, schema(), body);
}

/**
 * Message → Send Media: from a URL, a media ID, or a binary file. A binary file is checked with
 * the rest before anything is sent, uploaded in the item's own turn (upload media), then sent by its id.
 */
export const sendMedia: SendDefinition = {
	resource: 'message',
	operation: 'sendMedia',
	url: '/whatsapp/send/file',
	session: { sentAs: 'media', choice: windowChoiceOf },
	optOutLabel: optOutLabelOf,
	async build(item) {
		const source = String(item.param('source', 'url'));
		const additional = (item.param('additionalFields', {}) ?? {}) as IDataObject;
		const body: IDataObject = {
			phone_number_id: item.param('phoneNumberId', undefined, { extractValue: true }),
			phone_number: item.param('phoneNumber', undefined, { extractValue: true }),
		};
		for (const [name, field] of Object.entries(OPTIONAL_FIELDS))
			if (additional[name] !== undefined) body[field] = additional[name];
		if (source === 'binary') {
			// The file (type, size) and the other inputs are checked now: a bad file or phone number uploads nothing.
			sendableType(
				item,
				await checkedFile(item, String(item.param('binaryPropertyName', 'data'))),
				body.media_type,
			);
			checkFields(item, schema(), { ...body, media_id: 'pending' });
			return body;
		}
		if (source === 'mediaId') body.media_id = item.param('mediaId');
		else body.media_url = item.param('mediaUrl');
		// An empty URL would otherwise be reported as a missing media type.
		if (source === 'url' && !String(body.media_url ?? '').trim())
			refuse(
				item,
				'Media URL is required',
				'Set "Media URL" to a public HTTPS address of the file.',
			);
		return completed(item, body, source);
	},
	async beforeSend(item, fields) {
		if (item.param('source', 'url') !== 'binary') return fields;
		// Checked again in the item's own turn (cheap: metadata only), then streamed to the platform.
		const file = await checkedFile(item, String(item.param('binaryPropertyName', 'data')));
		const mediaType = sendableType(item, file, fields.media_type);
		const uploaded = await uploadBinary(item, String(fields.phone_number_id), file);
		const body: IDataObject = { ...fields, media_id: uploaded.media_id, media_type: mediaType };
		body.media_name = body.media_name || uploaded.media_name || file.fileName;
		return completed(item, body, 'binary');
	},
};

export const sendMediaOperation: OperationDescription = {
	kind: 'send',
	send: sendMedia,
	toolDescription:
		'Send an image, video, audio file or document to one subscriber by URL or media ID, inside the 24-hour window after their last message. Each call sends one message.',
	option: {
		name: 'Send Media',
		value: 'sendMedia',
		action: 'Send a media message',
		description: 'Send an image, video, audio or document from a URL, a media ID or a binary file',
	},
	fields: withWaitForDelivery(
		withWindowFields(withSkipOptedOut([sendNumber(), sendRecipient(), ...fields])),
	),
};
