import type {
	BinaryHelperFunctions,
	FunctionsBase,
	IBinaryData,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	RequestHelperFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { apiBaseUrl, CREDENTIAL_TYPE } from '../http/credential';
import {
	baseMimeType,
	extensionOf,
	formatSize,
	isGenericMimeType,
	mimeTypeFromFileName,
} from './mediaRules';
import { errorMessage, isRecord, text } from '../parameters/values';
import { innerMessage } from '../conversation/messageContent';
import { jsonFromText } from '../parameters/jsonStrings';

/**
 * The media customers send: where a message's `message_content` keeps its file, and the download that
 * hands it over as n8n binary data. Used by Message → Download Media and by both triggers' Download Media.
 */

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
export function findMedia(stored: unknown): MessageMedia | undefined {
	// A row stored in Meta's webhook format holds the message inside (messageContent.ts).
	const content = innerMessage(stored);
	if (typeof content === 'string') {
		const trimmed = content.trim();
		if (!trimmed.startsWith('{')) return undefined;
		const parsed = jsonFromText(trimmed);
		return parsed === undefined ? undefined : findMedia(parsed);
	}
	if (!isRecord(content)) return undefined;
	const type = text(content.type);
	const candidates =
		type && MEDIA_MESSAGE_TYPES.includes(type)
			? [type, ...(type === 'voice' ? ['audio'] : [])]
			: type
				? []
				: MEDIA_MESSAGE_TYPES;
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
	helpers: Pick<RequestHelperFunctions, 'httpRequest'> &
		Pick<BinaryHelperFunctions, 'prepareBinaryData'>;
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
				for (const event of ['readable', 'end', 'error', 'close'])
					stream.removeListener(event, done);
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
	const match =
		/filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition) ??
		/filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
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
async function mediaUrl(
	context: DownloadContext,
	media: MessageMedia,
	options: DownloadOptions,
): Promise<URL> {
	const node = context.getNode();
	const itemIndex = options.itemIndex;
	let address = media.link;
	if (!address && media.id) {
		if (!/\{id\}/i.test(options.idUrl ?? '')) {
			throw new NodeOperationError(
				node,
				`The message carries WhatsApp media ID ${media.id} but no link to download it from`,
				{
					description:
						'The platform stored only the media ID that WhatsApp sends (its API has no endpoint that returns a file by ID). If your platform serves media by ID, set Options → Media URL for IDs, e.g. https://your-platform.example/media/{ID}.',
					itemIndex,
				},
			);
		}
		address = String(options.idUrl).replace(/\{id\}/gi, encodeURIComponent(media.id));
	}
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	const root = `${apiBaseUrl(credentials.baseUrl).replace(/\/api\/v1$/, '')}/`;
	let url: URL;
	try {
		url = new URL(String(address), root);
	} catch {
		throw new NodeOperationError(node, `The media link "${address}" is not a web address`, {
			itemIndex,
		});
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		throw new NodeOperationError(node, `The media link "${address}" is not a web address`, {
			description: 'Download Media reads http and https links.',
			itemIndex,
		});
	}
	return url;
}

/**
 * Downloads a message's media into n8n's binary data: streamed into the binary store (a file in
 * filesystem/S3 mode), with MIME type, file name and size. A 404, an HTML page (a login or error
 * page, never stored as the file), an empty body or a timeout fails with a clear error.
 */
export async function downloadMedia(
	context: DownloadContext,
	media: MessageMedia,
	options: DownloadOptions,
): Promise<IBinaryData> {
	const node = context.getNode();
	const { itemIndex } = options;
	const url = await mediaUrl(context, media, options);
	const fail = (message: string, description: string) =>
		new NodeOperationError(node, message, {
			description: `${description} URL: ${shown(url)}`,
			itemIndex,
		});
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
			throw fail(
				`The media download timed out after ${seconds} s`,
				'The server holding the file did not answer in time. Retry later, or raise Options → Timeout.',
			);
		}
		throw fail(
			`The media download failed: ${cause.message}`,
			'The server holding the file could not be reached.',
		);
	}
	const body = response.body as BodyStream;
	const statusCode = response.statusCode ?? 200;
	const contentType = header(response, 'content-type');
	if (statusCode >= 400) {
		body.destroy();
		throw fail(
			`The media link answered HTTP ${statusCode}${response.statusMessage ? ` ${response.statusMessage}` : ''}`,
			statusCode === 404 || statusCode === 410
				? 'The file is no longer there (or the link is wrong).'
				: 'The server holding the file refused to send it.',
		);
	}
	const expected = media.mimeType ? baseMimeType(media.mimeType) : `${media.type} file`;
	const htmlPage = () => {
		body.destroy();
		return fail(
			'The media link answered with a web page, not the file',
			`Expected ${expected}; got an HTML page (a login or error page: the link may have expired or be private). Nothing was saved.`,
		);
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
		media.fileName ??
		dispositionFileName(header(response, 'content-disposition')) ??
		(media.link ? urlFileName(url) : undefined) ??
		options.fallbackName;
	const mimeType =
		media.mimeType && (!served || baseMimeType(media.mimeType) === served)
			? media.mimeType
			: (served ?? mimeTypeFromFileName(fileName) ?? 'application/octet-stream');
	const named = /\.[a-z0-9]{1,5}$/i.test(fileName)
		? fileName
		: `${fileName}.${extensionOf(mimeType) ?? 'bin'}`;

	let binary: IBinaryData;
	try {
		binary = await context.helpers.prepareBinaryData(
			body as unknown as Parameters<BinaryHelperFunctions['prepareBinaryData']>[0],
			named,
			mimeType,
		);
	} catch (error) {
		body.destroy();
		throw fail(
			`The media download was interrupted: ${errorMessage(error)}`,
			`The connection broke or went quiet for ${seconds} s before the whole file arrived. Nothing was saved.`,
		);
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
export async function withMedia(
	context: DownloadContext,
	json: IDataObject,
	property = 'data',
	timeout = 60_000,
): Promise<INodeExecutionData> {
	const media = findMedia(json.message_content);
	if (!media) return { json };
	const reference = text(json.wa_message_id) ?? text(json.id) ?? media.id ?? 'message';
	try {
		const binary = await downloadMedia(context, media, {
			timeout,
			fallbackName: `${media.type}-${reference}`.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120),
		});
		return { json, binary: { [property]: binary } };
	} catch (error) {
		return { json: { ...json, media_download_error: errorMessage(error) } };
	}
}
