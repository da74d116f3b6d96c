import type {
	IBinaryData,
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	PreSendAction,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import {
	ACCEPTED_MIME_TYPES,
	acceptedTypesText,
	baseMimeType,
	extensionOf,
	formatSize,
	isGenericMimeType,
	limitText,
	mimeTypeFromFileName,
	SIZE_LIMITS,
	type MediaKind,
} from '../../shared/whatsapp/mediaRules';
import { sendItemOf, type SendItem } from './sendItem';
import { errorMessage, requestBody } from '../../shared/parameters/values';

/** What the platform returns for an uploaded file (spec: "Uploaded media"). */
export interface UploadedMedia {
	media_id: string;
	media_type: string;
	media_name: string;
}

/** The item's binary property, or a clear error naming the missing property and the ones there are. */
export function binaryFile(item: SendItem, propertyName: string): IBinaryData {
	const name = propertyName.trim();
	const binary = item.binaries();
	if (!name || !binary[name]) {
		const available = Object.keys(binary);
		throw new NodeOperationError(
			item.getNode(),
			`The input item has no binary property "${name}"`,
			{
				description: available.length
					? `Binary properties on this item: ${available.join(', ')}. Set "Input Binary Field" to one of them.`
					: 'This item carries no binary data. Add a node that reads or downloads the file before this one.',
				itemIndex: item.getItemIndex(),
			},
		);
	}
	return binary[name];
}

/** A binary file checked against WhatsApp's rules: what it is and how big, read without reading the file. */
export interface CheckedFile {
	propertyName: string;
	binary: IBinaryData;
	fileName: string;
	/** The MIME type sent (the binary's own, or the one its extension names when the binary's is generic). */
	mimeType: string;
	kind: MediaKind;
	size: number;
}

/** The size in bytes: stored binaries (filesystem, S3, database modes) from their metadata, in-memory ones from their base64. */
async function binarySize(item: SendItem, binary: IBinaryData): Promise<number> {
	if (!binary.id) return Buffer.byteLength(binary.data ?? '', 'base64');
	if (typeof binary.bytes === 'number') return binary.bytes;
	try {
		return (await item.binaryMetadata(binary.id)).fileSize;
	} catch (error) {
		throw new NodeOperationError(
			item.getNode(),
			`The binary file "${binary.fileName ?? binary.id}" could not be read`,
			{
				description: `n8n's binary data store did not find it: ${errorMessage(error)}`,
				itemIndex: item.getItemIndex(),
			},
		);
	}
}

/**
 * The item's binary property checked before anything is sent: a type WhatsApp accepts, not empty,
 * within the limit of its kind. A failure names the file, its type or size, and the limit.
 */
export async function checkedFile(item: SendItem, propertyName: string): Promise<CheckedFile> {
	const name = propertyName.trim();
	const binary = binaryFile(item, name);
	const ownType = baseMimeType(binary.mimeType);
	const fromName =
		mimeTypeFromFileName(binary.fileName) ??
		mimeTypeFromFileName(binary.fileExtension ? `.${binary.fileExtension}` : undefined);
	const mimeType = isGenericMimeType(ownType) && fromName ? fromName : ownType;
	const fileName =
		binary.fileName ?? `${name}.${binary.fileExtension ?? extensionOf(mimeType) ?? 'bin'}`;
	const fail = (message: string, description: string) =>
		new NodeOperationError(item.getNode(), message, {
			description: `${description} Nothing was uploaded.`,
			itemIndex: item.getItemIndex(),
		});
	const accepted = ACCEPTED_MIME_TYPES[mimeType];
	if (!accepted) {
		throw fail(
			`The file "${fileName}" is of type ${mimeType || 'unknown'}, which WhatsApp does not accept`,
			`WhatsApp accepts ${acceptedTypesText()}. Convert the file, or correct its MIME type if it is wrong.`,
		);
	}
	const size = await binarySize(item, binary);
	if (size === 0) throw fail(`The file "${fileName}" is empty`, 'WhatsApp refuses empty files.');
	if (size > SIZE_LIMITS[accepted.kind]) {
		throw fail(
			`The file "${fileName}" is ${formatSize(size)} (${size.toLocaleString('en-US')} bytes): WhatsApp accepts ${limitText(accepted.kind)}`,
			`Its type is ${mimeType}. Compress or split it, or send a link to it (Source: URL).`,
		);
	}
	return { propertyName: name, binary, fileName, mimeType, kind: accepted.kind, size };
}

/**
 * A file whose bytes are read only when the request body is written, in chunks: a stored binary
 * streams from n8n's binary data store (filesystem, S3, database), an in-memory one is its buffer.
 * Native FormData keeps a File as is, and n8n's HTTP client (axios) writes a File's `stream()` and
 * announces its `size` as the multipart Content-Length, so the file is never held whole in memory.
 * Each `stream()` opens the binary afresh, so a body can be written more than once.
 */
class BinaryFile extends File {
	constructor(
		name: string,
		type: string,
		size: number,
		private readonly open: () => Promise<AsyncIterable<Uint8Array> | Iterable<Uint8Array>>,
	) {
		super([], name, { type });
		Object.defineProperty(this, 'size', { value: size });
	}

	stream(): ReturnType<File['stream']> {
		const open = this.open;
		return ReadableStream.from(
			(async function* () {
				yield* await open();
			})(),
		) as ReturnType<File['stream']>;
	}

	async bytes(): ReturnType<File['bytes']> {
		const chunks: Uint8Array[] = [];
		for await (const chunk of await this.open()) chunks.push(chunk);
		return new Uint8Array(Buffer.concat(chunks)) as Awaited<ReturnType<File['bytes']>>;
	}

	async arrayBuffer(): Promise<ArrayBuffer> {
		return (await this.bytes()).buffer as ArrayBuffer;
	}

	async text(): Promise<string> {
		return Buffer.from(await this.bytes()).toString('utf8');
	}
}

/** The multipart body of upload media: phone_number_id and the file as media_file (the credential adds the token). */
function mediaFormData(item: SendItem, phoneNumberId: string, file: CheckedFile): FormData {
	const { binary, propertyName } = file;
	const id = binary.id;
	const open = id
		? async () => await item.binaryStream(id)
		: async () => [await item.binaryBuffer(propertyName)];
	const form = new FormData();
	form.append('phone_number_id', phoneNumberId);
	// Without a file name argument FormData keeps this File object (with one, it would copy its bytes).
	form.append('media_file', new BinaryFile(file.fileName, file.mimeType, file.size, open));
	return form;
}

/** Request headers without a Content-Type: n8n's HTTP client sets multipart with its boundary from the FormData. */
function withoutContentType(headers: IHttpRequestOptions['headers']): IDataObject {
	return Object.fromEntries(
		Object.entries(headers ?? {}).filter(([key]) => key.toLowerCase() !== 'content-type'),
	);
}

/**
 * Upload requests do not follow redirects: a redirect-following client keeps every byte it wrote,
 * to write it again after a redirect. A redirect here is a login page, reported as such.
 */
const NO_REDIRECTS = { disableFollowRedirect: true } as const;

/**
 * The preSend of Media → Upload: the file is checked (nothing is sent when it fails), then the form
 * body the routing built (phone_number_id) becomes multipart/form-data with the file as media_file.
 */
export function multipartUpload(binaryPropertyParameter: string): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const fields = requestBody(requestOptions);
		const phoneNumberId = String(fields.phone_number_id ?? '').trim();
		if (!phoneNumberId) {
			throw new NodeOperationError(this.getNode(), 'WhatsApp Number is required', {
				itemIndex: this.getItemIndex(),
			});
		}
		const item = sendItemOf(this);
		const file = await checkedFile(
			item,
			String(this.getNodeParameter(binaryPropertyParameter, 'data')),
		);
		const body = mediaFormData(item, phoneNumberId, file);
		return {
			...requestOptions,
			...NO_REDIRECTS,
			body,
			headers: withoutContentType(requestOptions.headers),
		};
	};
}

/** Uploads a checked file to a number and returns the media id to send it by (a step of Send Media). */
export async function uploadBinary(
	item: SendItem,
	phoneNumberId: string,
	file: CheckedFile,
): Promise<UploadedMedia> {
	const body = mediaFormData(item, phoneNumberId, file);
	// The node's Options → Timeout (n8n adds it to declarative nodes) applies to this step too.
	const timeout = Number(item.param('requestOptions.timeout', 300_000)) || 300_000;
	const envelope = await item.request({
		method: 'POST',
		url: '/whatsapp/upload/media',
		body,
		headers: { Accept: 'application/json' },
		timeout,
		...NO_REDIRECTS,
	});
	return {
		media_id: String(envelope.media_id ?? ''),
		media_type: String(envelope.media_type ?? ''),
		media_name: String(envelope.media_name ?? ''),
	};
}
