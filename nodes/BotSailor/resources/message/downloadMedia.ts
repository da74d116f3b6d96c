import type {
	BinaryHelperFunctions,
	DeclarativeRestApiSettings,
	FunctionsBase,
	IBinaryData,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	INodeProperties,
	INodePropertyRouting,
	RequestHelperFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { apiBaseUrl } from '../../../../credentials/BotSailorApi.credentials';
import { recipient, whatsAppNumber } from '../common';
import type { OperationDescription } from '../resource';
import { listRecords } from '../../shared/envelope';
import { inputs } from '../../shared/inputs';
import { decodeJsonFields } from '../../shared/jsonStrings';
import { CREDENTIAL_TYPE, FORM_CONTENT_TYPE, sendRequest, usesEarlierForm } from '../../shared/request';
import { limiterFor } from '../../shared/delivery';
import { asNodeError, errorItem } from '../../shared/sendDefinition';
import { baseMimeType, extensionOf, formatSize, isGenericMimeType, mimeTypeFromFileName } from '../media/types';

const showBy = (source: string) => ({ show: { messageSource: [source] } });

/** Message types that carry a file, and the key their content object sits under (WhatsApp's message JSON). */
export const MEDIA_MESSAGE_TYPES = ['image', 'video', 'audio', 'voice', 'document', 'sticker'];

/** The media a message carries, as read from its `message_content`. */
export interface MessageMedia {
	/** image, video, audio, voice, document or sticker. */
	type: string;
	/** Where the file is: an absolute URL, or a path on the platform. */
	link?: string;
	/** WhatsApp's media id (its webhook shape has an id and no link). */
	id?: string;
	mimeType?: string;
	fileName?: string;
	caption?: string;
}

const LINK_KEYS = ['link', 'url', 'media_url', 'file_url', 'path'];

function text(value: unknown): string | undefined {
	if (typeof value === 'number') return String(value);
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function isRecord(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

function mediaOf(type: string, body: IDataObject): MessageMedia | undefined {
	const link = LINK_KEYS.map((key) => text(body[key])).find(Boolean);
	const id = text(body.id);
	if (!link && !id) return undefined;
	return {
		type: type === 'audio' && body.voice === true ? 'voice' : type,
		link,
		id,
		mimeType: text(body.mime_type) ?? text(body.mimetype) ?? text(body.mime),
		fileName: text(body.filename) ?? text(body.file_name),
		caption: text(body.caption),
	};
}

/**
 * The media of a decoded `message_content` (WhatsApp's message JSON): `{"type":"image","image":{…}}`
 * with a `link` (or `url`, `media_url`, `file_url`, `path`), or WhatsApp's `id` with `mime_type`,
 * `filename`, `caption`; a voice note is `audio` with `voice: true` or type `voice`. Also a flat
 * `{"type":"image","link":…}`. Undefined when the message carries no file.
 */
export function findMedia(content: unknown): MessageMedia | undefined {
	if (typeof content === 'string') {
		const trimmed = content.trim();
		if (!trimmed.startsWith('{')) return undefined;
		try {
			return findMedia(JSON.parse(trimmed));
		} catch {
			return undefined;
		}
	}
	if (!isRecord(content)) return undefined;
	const type = text(content.type);
	const candidates = type && MEDIA_MESSAGE_TYPES.includes(type) ? [type, ...(type === 'voice' ? ['audio'] : [])] : type ? [] : MEDIA_MESSAGE_TYPES;
	for (const key of candidates) {
		const body = content[key];
		const media = isRecord(body) ? mediaOf(key, body) : undefined;
		if (media) return { ...media, type: type === 'voice' ? 'voice' : media.type };
	}
	if (type && MEDIA_MESSAGE_TYPES.includes(type)) return mediaOf(type, content);
	return undefined;
}

/** What a download needs of n8n: the node, the credential (for the Base URL), an HTTP client and the binary store. */
export interface DownloadContext {
	getNode(): INode;
	getCredentials: FunctionsBase['getCredentials'];
	helpers: Pick<RequestHelperFunctions, 'httpRequest'> & Pick<BinaryHelperFunctions, 'prepareBinaryData'>;
}

export interface DownloadOptions {
	/** ms; the download fails when the server has not answered (or gone quiet) for this long. */
	timeout: number;
	/** An address with `{ID}` to download media known only by WhatsApp media id. */
	idUrl?: string;
	/** A name for the file when neither the message nor the server gives one (no extension). */
	fallbackName: string;
	itemIndex?: number;
	skipSslCertificateValidation?: boolean;
	/** The node's Options → Proxy. */
	proxy?: IHttpRequestOptions['proxy'];
}

/** The response stream, as much of Node's Readable as the download uses. */
interface BodyStream {
	read(): Buffer | null;
	unshift(chunk: Buffer): void;
	once(event: string, listener: () => void): unknown;
	removeListener(event: string, listener: () => void): unknown;
	readableEnded?: boolean;
	destroy(): unknown;
}

/** The first bytes of a stream, put back so the stream still yields everything. */
async function firstBytes(stream: BodyStream): Promise<Buffer | undefined> {
	for (;;) {
		const chunk = stream.read();
		if (chunk !== null) {
			stream.unshift(chunk);
			return chunk;
		}
		if (stream.readableEnded) return undefined;
		await new Promise<void>((resolve) => {
			const done = () => {
				for (const event of ['readable', 'end', 'error', 'close']) stream.removeListener(event, done);
				resolve();
			};
			for (const event of ['readable', 'end', 'error', 'close']) stream.once(event, done);
		});
		if (stream.readableEnded) return undefined;
	}
}

const HTML_START = /^\s*<(!doctype html|html|head|body)[\s>]/i;

function header(response: IN8nHttpFullResponse, name: string): string | undefined {
	const value = response.headers?.[name];
	return Array.isArray(value) ? String(value[0]) : value === undefined ? undefined : String(value);
}

function dispositionFileName(disposition: string | undefined): string | undefined {
	if (!disposition) return undefined;
	const match = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition) ?? /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
	if (!match) return undefined;
	try {
		return decodeURIComponent(match[1].trim().replace(/^"|"$/g, ''));
	} catch {
		return match[1].trim();
	}
}

/** The last path segment of a URL when it looks like a file name (has an extension). */
function urlFileName(url: URL): string | undefined {
	const last = decodeURIComponent(url.pathname.split('/').pop() ?? '');
	return /\.[a-z0-9]{1,5}$/i.test(last) ? last : undefined;
}

/** A URL for display: no query string (signed links carry their signature there). */
function shown(url: URL): string {
	return `${url.origin}${url.pathname}`;
}

/** Where the media is: its link (a path is taken relative to the platform's address), or the ID URL with its id. */
async function mediaUrl(context: DownloadContext, media: MessageMedia, options: DownloadOptions): Promise<URL> {
	const node = context.getNode();
	const itemIndex = options.itemIndex;
	let address = media.link;
	if (!address && media.id) {
		if (!/\{id\}/i.test(options.idUrl ?? '')) {
			throw new NodeOperationError(node, `The message carries WhatsApp media ID ${media.id} but no link to download it from`, {
				description:
					'The platform stored only the media ID that WhatsApp sends (its API has no endpoint that returns a file by ID). If your platform serves media by ID, set Options → Media URL for IDs, e.g. https://your-platform.example/media/{ID}.',
				itemIndex,
			});
		}
		address = String(options.idUrl).replace(/\{id\}/gi, encodeURIComponent(media.id));
	}
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	const root = `${apiBaseUrl(credentials.baseUrl).replace(/\/api\/v1$/, '')}/`;
	let url: URL;
	try {
		url = new URL(String(address), root);
	} catch {
		throw new NodeOperationError(node, `The media link "${address}" is not a web address`, { itemIndex });
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		throw new NodeOperationError(node, `The media link "${address}" is not a web address`, { description: 'Download Media reads http and https links.', itemIndex });
	}
	return url;
}

/**
 * Downloads a message's media into n8n's binary data: streamed into the binary store (a file in
 * filesystem/S3 mode), with MIME type, file name and size. A 404, an HTML page (a login or error
 * page, never stored as the file), an empty body or a timeout fails with a clear error.
 */
export async function downloadMedia(context: DownloadContext, media: MessageMedia, options: DownloadOptions): Promise<IBinaryData> {
	const node = context.getNode();
	const { itemIndex } = options;
	const url = await mediaUrl(context, media, options);
	const fail = (message: string, description: string) => new NodeOperationError(node, message, { description: `${description} URL: ${shown(url)}`, itemIndex });
	const seconds = Math.round(options.timeout / 100) / 10;

	let response: IN8nHttpFullResponse;
	try {
		response = (await context.helpers.httpRequest({
			method: 'GET',
			url: url.toString(),
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: options.timeout,
			skipSslCertificateValidation: options.skipSslCertificateValidation,
			...(options.proxy ? { proxy: options.proxy } : {}),
		})) as IN8nHttpFullResponse;
	} catch (error) {
		const cause = error as Error & { code?: string; cause?: Error & { code?: string } };
		const code = cause.code ?? cause.cause?.code;
		if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(cause.message)) {
			throw fail(`The media download timed out after ${seconds} s`, 'The server holding the file did not answer in time. Retry later, or raise Options → Timeout.');
		}
		throw fail(`The media download failed: ${cause.message}`, 'The server holding the file could not be reached.');
	}
	const body = response.body as BodyStream;
	const statusCode = response.statusCode ?? 200;
	const contentType = header(response, 'content-type');
	if (statusCode >= 400) {
		body.destroy();
		throw fail(
			`The media link answered HTTP ${statusCode}${response.statusMessage ? ` ${response.statusMessage}` : ''}`,
			statusCode === 404 || statusCode === 410 ? 'The file is no longer there (or the link is wrong).' : 'The server holding the file refused to send it.',
		);
	}
	const expected = media.mimeType ? baseMimeType(media.mimeType) : `${media.type} file`;
	const htmlPage = () => {
		body.destroy();
		return fail('The media link answered with a web page, not the file', `Expected ${expected}; got an HTML page (a login or error page: the link may have expired or be private). Nothing was saved.`);
	};
	if (/^(text\/html|application\/xhtml\+xml)/i.test(String(contentType ?? ''))) throw htmlPage();
	let first: Buffer | undefined;
	try {
		first = await firstBytes(body);
	} catch {
		first = undefined;
	}
	if (!first) {
		body.destroy();
		throw fail('The media link answered with an empty file', 'The server sent no bytes.');
	}
	if (HTML_START.test(first.subarray(0, 256).toString('latin1'))) throw htmlPage();

	const served = isGenericMimeType(contentType) ? undefined : baseMimeType(contentType);
	const fileName =
		media.fileName ?? dispositionFileName(header(response, 'content-disposition')) ?? (media.link ? urlFileName(url) : undefined) ?? options.fallbackName;
	const mimeType = media.mimeType && (!served || baseMimeType(media.mimeType) === served) ? media.mimeType : (served ?? mimeTypeFromFileName(fileName) ?? 'application/octet-stream');
	const named = /\.[a-z0-9]{1,5}$/i.test(fileName) ? fileName : `${fileName}.${extensionOf(mimeType) ?? 'bin'}`;

	let binary: IBinaryData;
	try {
		binary = await context.helpers.prepareBinaryData(body as unknown as Parameters<BinaryHelperFunctions['prepareBinaryData']>[0], named, mimeType);
	} catch (error) {
		body.destroy();
		throw fail(`The media download was interrupted: ${(error as Error).message}`, `The connection broke or went quiet for ${seconds} s before the whole file arrived. Nothing was saved.`);
	}
	binary.fileName = named;
	binary.mimeType = mimeType;
	if (typeof binary.bytes === 'number') binary.fileSize = formatSize(binary.bytes);
	return binary;
}

/**
 * A message item with its media attached as binary (`property`), for triggers: a message without
 * media passes as it is; a failed download does not fail the item (a trigger would otherwise repeat
 * its window forever on a dead link): its error is in `media_download_error`.
 */
export async function withMedia(context: DownloadContext, json: IDataObject, property = 'data', timeout = 60_000): Promise<INodeExecutionData> {
	const media = findMedia(json.message_content);
	if (!media) return { json };
	const reference = text(json.wa_message_id) ?? text(json.id) ?? media.id ?? 'message';
	try {
		const binary = await downloadMedia(context, media, { timeout, fallbackName: `${media.type}-${reference}`.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120) });
		return { json, binary: { [property]: binary } };
	} catch (error) {
		return { json: { ...json, media_download_error: (error as Error).message } };
	}
}

/** The message's `message_content`, decoded. */
function contentOf(record: IDataObject): unknown {
	const content = record.message_content;
	if (typeof content !== 'string') return content;
	try {
		return JSON.parse(content);
	} catch {
		return content;
	}
}

/** The conversation endpoint with the node's request options (Options → Timeout, proxy, certificates), as the routing would send it. */
type ConversationReader = (fields: IDataObject) => Promise<IDataObject>;

function conversationReader(context: IExecutePaginationFunctions, request: IHttpRequestOptions): ConversationReader {
	const itemIndex = context.getItemIndex();
	return async (fields) =>
		await sendRequest.call(
			context,
			{
				method: 'POST',
				url: '/whatsapp/get/conversation',
				headers: { 'Content-Type': FORM_CONTENT_TYPE, Accept: 'application/json' },
				body: fields,
				timeout: Number(request.timeout) || 60_000,
				...(request.proxy ? { proxy: request.proxy } : {}),
				...(request.skipSslCertificateValidation ? { skipSslCertificateValidation: true } : {}),
			},
			itemIndex,
		);
}

/** A message of a conversation by id or wa_message_id, newest pages first. The earlier API form has no pages. */
async function findInConversation(context: IExecutePaginationFunctions, read: ConversationReader, phoneNumberId: string, phoneNumber: string, messageId: string): Promise<IDataObject | undefined> {
	const matches = (record: IDataObject) => String(record.id ?? '') === messageId || String(record.wa_message_id ?? '') === messageId;
	if (await usesEarlierForm(context)) return (listRecords(await read({ phone_number_id: phoneNumberId, phone_number: phoneNumber })) ?? []).find(matches);
	for (let page = 1; page <= MAX_PAGES; page++) {
		const envelope = await read({ phone_number_id: phoneNumberId, phone_number: phoneNumber, limit: 50, offset: page });
		const found = (listRecords(envelope) ?? []).find(matches);
		if (found) return found;
		if (envelope.nextOffset === undefined || envelope.nextOffset === null) return undefined;
	}
	return undefined;
}

/** At most this many pages of 50 are searched for a message by id. */
const MAX_PAGES = 100;

/** The message a run item is about: the input item's record, or the one found by id (also for an input item without message_content). */
async function messageRecord(context: IExecutePaginationFunctions, read: ConversationReader): Promise<{ record: IDataObject; fromInput: boolean }> {
	const node = context.getNode();
	const itemIndex = context.getItemIndex();
	const lookUp = async (phoneNumberId: string, phoneNumber: string, messageId: string) => {
		const found = await findInConversation(context, read, phoneNumberId, phoneNumber, messageId);
		if (!found) {
			throw new NodeOperationError(node, `Message ${messageId} was not found in the conversation with ${phoneNumber}`, {
				description: `Searched the newest ${MAX_PAGES * 50} messages of the conversation on WhatsApp number ${phoneNumberId}. Use the message's id or wa_message_id.`,
				itemIndex,
			});
		}
		return decodeJsonFields(found);
	};
	if (context.getNodeParameter('messageSource', 'input') === 'id') {
		const phoneNumberId = String(context.getNodeParameter('phoneNumberId', '', { extractValue: true }) ?? '').trim();
		const phone = inputs.phoneNumber.safeParse(String(context.getNodeParameter('phoneNumber', '', { extractValue: true }) ?? ''));
		const messageId = String(context.getNodeParameter('messageId', '') ?? '').trim();
		if (!phoneNumberId) throw new NodeOperationError(node, 'WhatsApp Number is required', { itemIndex });
		if (!phone.success) throw new NodeOperationError(node, `Subscriber ${phone.error.issues[0].message}`, { itemIndex });
		if (!messageId) throw new NodeOperationError(node, 'Message ID is required', { description: "Set it to the message's id or wa_message_id.", itemIndex });
		return { record: await lookUp(phoneNumberId, phone.data, messageId), fromInput: false };
	}
	const json = context.getInputData().json ?? {};
	if (json.message_content !== undefined && json.message_content !== null) return { record: json, fromInput: true };
	// An item with the message's ids but no content (e.g. from a webhook): the content is read from the conversation.
	const messageId = text(json.wa_message_id) ?? text(json.id);
	const phoneNumberId = text(json.phone_number_id);
	const phoneNumber = text(json.phone_number) ?? text(json.chat_id) ?? text(json.whatsapp_bot_subscriber_subscriber_id);
	if (messageId && phoneNumberId && phoneNumber) return { record: { ...json, message_content: (await lookUp(phoneNumberId, phoneNumber, messageId)).message_content }, fromInput: true };
	throw new NodeOperationError(node, 'The input item is not a message: it has no message_content', {
		description:
			'Connect BotSailor Trigger (New Message) or Message → Get Many, or set Message to "By ID" and give the WhatsApp number, the subscriber and the message ID.',
		itemIndex,
	});
}

const DOWNLOADS_AT_ONCE = 4;

/** Message → Download Media, one input item (RoutingNode calls an operation's pagination function in place of its request). */
async function downloadMessageMedia(this: IExecutePaginationFunctions, requestData: DeclarativeRestApiSettings.ResultOptions): Promise<INodeExecutionData[]> {
	const itemIndex = this.getItemIndex();
	const input = this.getInputData();
	try {
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const { record } = await messageRecord(this, conversationReader(this, requestData.options as IHttpRequestOptions));
		const media = findMedia(contentOf(record));
		if (!media) {
			if (options.passThrough === true) return [{ json: record, ...(input.binary ? { binary: input.binary } : {}), pairedItem: { item: itemIndex } }];
			const content = contentOf(record);
			const type = isRecord(content) ? text(content.type) : typeof content === 'string' ? 'text' : undefined;
			throw new NodeOperationError(this.getNode(), `The message has no media${type ? ` (it is a ${type} message)` : ''}`, {
				description: `Download Media reads ${MEDIA_MESSAGE_TYPES.join(', ')} messages. To let other messages through unchanged, turn on Options → Pass Through Messages Without Media.`,
				itemIndex,
			});
		}
		const property = String(this.getNodeParameter('binaryPropertyName', 'data')).trim() || 'data';
		const reference = text(record.wa_message_id) ?? text(record.id) ?? media.id ?? 'message';
		// n8n's declarative engine starts every item at once: a few downloads at a time.
		const limiter = limiterFor(this.getNode(), DOWNLOADS_AT_ONCE);
		await limiter.acquire();
		let binary: IBinaryData;
		try {
			binary = await downloadMedia(this, media, {
				timeout: Number(options.timeout) > 0 ? Number(options.timeout) : Number(requestData.options.timeout) || 60_000,
				idUrl: text(options.mediaIdUrl),
				fallbackName: `${media.type}-${reference}`.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120),
				itemIndex,
				skipSslCertificateValidation: requestData.options.skipSslCertificateValidation === true,
				proxy: (requestData.options as IHttpRequestOptions).proxy,
			});
		} finally {
			limiter.release();
		}
		return [{ json: record, binary: { ...(input.binary ?? {}), [property]: binary }, pairedItem: { item: itemIndex } }];
	} catch (error) {
		const failure = asNodeError(this.getNode(), error, itemIndex);
		if (!this.continueOnFail()) throw failure;
		return [errorItem(failure, itemIndex)];
	}
}

/** The operation's routing: RoutingNode calls `pagination` in place of the request, once per item. */
const downloadMediaRouting: INodePropertyRouting = {
	request: { url: '/whatsapp/get/conversation' },
	operations: { pagination: downloadMessageMedia },
};

const downloadMediaFields: INodeProperties[] = [
	{
		displayName: 'Message',
		name: 'messageSource',
		type: 'options',
		options: [
			{
				name: 'From Input Item',
				value: 'input',
				description: 'The message record in the input item, as BotSailor Trigger (New Message) or Message → Get Many output it',
			},
			{ name: 'By ID', value: 'id', description: 'A message of a conversation, by its ID' },
		],
		default: 'input',
	},
	{ ...whatsAppNumber(), displayOptions: showBy('id'), routing: undefined },
	{ ...recipient(), displayOptions: showBy('id'), routing: undefined },
	{
		displayName: 'Message ID',
		name: 'messageId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. wamid.HBgLMTU1NTAxMDAwMDAVAgARGBI',
		description: "The message's ID or wa_message_id, as Message → Get Many outputs them",
		displayOptions: showBy('id'),
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the output binary field to put the file in',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Media URL for IDs',
				name: 'mediaIdUrl',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://your-platform.example/media/{ID}',
				description:
					'For messages that carry only a WhatsApp media ID (no link): an address that serves the file by ID, with {ID} where the ID goes',
			},
			{
				displayName: 'Pass Through Messages Without Media',
				name: 'passThrough',
				type: 'boolean',
				default: false,
				description: 'Whether to output a message without media unchanged (no binary) instead of failing its item',
			},
			{
				displayName: 'Timeout',
				name: 'timeout',
				type: 'number',
				default: 60000,
				typeOptions: { minValue: 1 },
				description: 'Time in ms to wait for the server holding the file before the download fails',
			},
		],
	},
];

export const downloadMediaOperation: OperationDescription = {
	option: {
		name: 'Download Media',
		value: 'downloadMedia',
		action: 'Download the media of a message',
		description: 'Download the image, video, audio, voice note, document or sticker of a message, as binary data',
		routing: downloadMediaRouting,
	},
	fields: downloadMediaFields,
};
