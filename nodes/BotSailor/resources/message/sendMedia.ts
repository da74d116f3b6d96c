import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { showFor } from '../common';
import { inputs, validateBody, z } from '../../shared/inputs';
import { uploadBinary } from '../../shared/upload';
import { fileNameFromUrl, mediaTypeFromUrl } from './mediaType';

const show = showFor('message', ['sendMedia']);
const showSource = (source: string) => ({ show: { resource: ['message'], operation: ['sendMedia'], source: [source] } });

export const sendMediaFields: INodeProperties[] = [
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		options: [
			{ name: 'Binary File', value: 'binary', description: 'A file from the input item, uploaded first and then sent by its media ID' },
			{ name: 'Media ID', value: 'mediaId', description: 'A media ID from Media → Upload' },
			{ name: 'URL', value: 'url', description: 'A public HTTPS URL' },
		],
		default: 'url',
		displayOptions: show,
	},
	{
		displayName: 'Media URL',
		name: 'mediaUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://example.com/menu.pdf',
		displayOptions: showSource('url'),
		routing: { send: { type: 'body', property: 'media_url' } },
	},
	{
		displayName: 'Media ID',
		name: 'mediaId',
		type: 'string',
		default: '',
		required: true,
		displayOptions: showSource('mediaId'),
		routing: { send: { type: 'body', property: 'media_id' } },
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
		displayOptions: show,
		options: [
			{ displayName: 'Caption', name: 'caption', type: 'string', default: '', description: 'Caption for an image, video or document (not audio)', routing: { send: { type: 'body', property: 'media_caption_text' } } },
			{
				displayName: 'Media Name',
				name: 'mediaName',
				type: 'string',
				default: '',
				description: 'File name shown for a document. Defaults to the uploaded file\'s name or the last part of the URL.',
				routing: { send: { type: 'body', property: 'media_name' } },
			},
			{
				displayName: 'Media Type',
				name: 'mediaType',
				type: 'options',
				options: [
					{ name: 'Audio', value: 'audio' },
					{ name: 'Document', value: 'document' },
					{ name: 'Image', value: 'image' },
					{ name: 'Video', value: 'video' },
				],
				default: 'image',
				description: 'When not set, it is read from the URL\'s file extension or the binary file\'s MIME type. Required with a media ID.',
				routing: { send: { type: 'body', property: 'media_type' } },
			},
		],
	},
];

const schema = z.object({
	phone_number_id: inputs.required.describe('WhatsApp Number'),
	phone_number: inputs.phoneNumber.describe('Phone Number'),
	media_url: z.string().url('must be a URL, e.g. https://example.com/menu.pdf').optional().describe('Media URL'),
	media_id: z.string().optional().describe('Media ID'),
	media_type: inputs.oneOf(['image', 'video', 'audio', 'document']).optional().describe('Media Type'),
	media_name: z.string().optional().describe('Media Name'),
	media_caption_text: z.string().optional().describe('Caption'),
});

function refuse(context: IExecuteSingleFunctions, message: string, description: string): never {
	throw new NodeOperationError(context.getNode(), message, { description: `${description} Nothing was sent to the platform.`, itemIndex: context.getItemIndex() });
}

/**
 * Send Media's preSend: a binary file is uploaded first (upload media) and then sent by its id,
 * in this one operation; the media type and a document's name are filled in when they can be read.
 */
export async function prepareMedia(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const validate = validateBody(schema);
	const body = { ...((requestOptions.body ?? {}) as IDataObject) };
	const source = this.getNodeParameter('source', 'url') as string;
	if (source === 'binary') {
		// Check the other inputs before uploading, so a bad phone number sends nothing.
		await validate.call(this, { ...requestOptions, body: { ...body, media_id: 'pending' } });
		const propertyName = String(this.getNodeParameter('binaryPropertyName', 'data'));
		const uploaded = await uploadBinary(this, String(body.phone_number_id), propertyName);
		body.media_id = uploaded.media_id;
		body.media_type = body.media_type || uploaded.media_type;
		body.media_name = body.media_name || uploaded.media_name;
	}
	const mediaUrl = String(body.media_url ?? '').trim();
	// An empty URL would otherwise be reported as a missing media type.
	if (source === 'url' && !mediaUrl) refuse(this, 'Media URL is required', 'Set "Media URL" to a public HTTPS address of the file.');
	if (!body.media_type && mediaUrl) body.media_type = mediaTypeFromUrl(mediaUrl);
	if (!body.media_type) {
		refuse(this, 'Media Type is required', source === 'url' ? 'The URL has no known file extension: set "Media Type".' : 'Set "Media Type" when sending by media ID.');
	}
	if (body.media_type === 'document' && !body.media_name && mediaUrl) body.media_name = fileNameFromUrl(mediaUrl);
	if (body.media_type === 'document' && !body.media_name) refuse(this, 'Media Name is required for a document', 'Set "Media Name" to the file name (as returned by Media → Upload).');
	if (body.media_type !== 'document') delete body.media_name;
	return await validate.call(this, { ...requestOptions, body });
}
