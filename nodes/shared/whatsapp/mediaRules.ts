/**
 * WhatsApp's media rules (Cloud API, "Supported media types"): the MIME types its media upload
 * accepts, the kind each one is, and the size limit of each kind. The platform uploads to WhatsApp,
 * so a file outside these rules fails there; the node checks them before anything is sent.
 */
export type MediaKind = 'image' | 'video' | 'audio' | 'document' | 'sticker';

const MB = 1024 * 1024;

/** Size limits per kind, in bytes (MB = 1,048,576 bytes). Stickers: 500 KB animated, 100 KB static. */
export const SIZE_LIMITS: Record<MediaKind, number> = {
	image: 5 * MB,
	video: 16 * MB,
	audio: 16 * MB,
	document: 100 * MB,
	sticker: 500 * 1024,
};

interface MediaMime {
	kind: MediaKind;
	extension: string;
}

/** The MIME types WhatsApp accepts, with their kind and usual file extension. */
export const ACCEPTED_MIME_TYPES: Record<string, MediaMime> = {
	'image/jpeg': { kind: 'image', extension: 'jpg' },
	'image/png': { kind: 'image', extension: 'png' },
	'image/webp': { kind: 'sticker', extension: 'webp' },
	'video/mp4': { kind: 'video', extension: 'mp4' },
	'video/3gpp': { kind: 'video', extension: '3gp' },
	'audio/aac': { kind: 'audio', extension: 'aac' },
	'audio/amr': { kind: 'audio', extension: 'amr' },
	'audio/mpeg': { kind: 'audio', extension: 'mp3' },
	'audio/mp4': { kind: 'audio', extension: 'm4a' },
	'audio/ogg': { kind: 'audio', extension: 'ogg' },
	'audio/opus': { kind: 'audio', extension: 'opus' },
	'text/plain': { kind: 'document', extension: 'txt' },
	'application/pdf': { kind: 'document', extension: 'pdf' },
	'application/msword': { kind: 'document', extension: 'doc' },
	'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
		kind: 'document',
		extension: 'docx',
	},
	'application/vnd.ms-excel': { kind: 'document', extension: 'xls' },
	'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
		kind: 'document',
		extension: 'xlsx',
	},
	'application/vnd.ms-powerpoint': { kind: 'document', extension: 'ppt' },
	'application/vnd.openxmlformats-officedocument.presentationml.presentation': {
		kind: 'document',
		extension: 'pptx',
	},
};

/** File extensions of the accepted types (and a few common spellings), to name a file whose MIME type is generic. */
const EXTENSION_MIME_TYPES: Record<string, string> = {
	...Object.fromEntries(
		Object.entries(ACCEPTED_MIME_TYPES).map(([mime, { extension }]) => [extension, mime]),
	),
	jpeg: 'image/jpeg',
	'3gpp': 'video/3gpp',
	oga: 'audio/ogg',
};

/** MIME types that say nothing about the content. */
const GENERIC = new Set([
	'',
	'application/octet-stream',
	'binary/octet-stream',
	'application/x-binary',
	'application/binary',
]);

/** `audio/ogg; codecs=opus` → `audio/ogg`. */
export function baseMimeType(mimeType: string | undefined): string {
	return String(mimeType ?? '')
		.split(';')[0]
		.trim()
		.toLowerCase();
}

export function isGenericMimeType(mimeType: string | undefined): boolean {
	return GENERIC.has(baseMimeType(mimeType));
}

/** The MIME type a file name's extension names, if it is one of WhatsApp's. */
export function mimeTypeFromFileName(fileName: string | undefined): string | undefined {
	const match = /\.([a-z0-9]+)$/i.exec(String(fileName ?? ''));
	return match ? EXTENSION_MIME_TYPES[match[1].toLowerCase()] : undefined;
}

/** The kind a file name's extension names, if it is one of WhatsApp's accepted types. */
export function mediaKindOfFileName(fileName: string | undefined): MediaKind | undefined {
	const mime = mimeTypeFromFileName(fileName);
	return mime ? ACCEPTED_MIME_TYPES[mime]?.kind : undefined;
}

/** The usual extension of a MIME type (WhatsApp's types, plus a few others a download may bring). */
export function extensionOf(mimeType: string): string | undefined {
	const base = baseMimeType(mimeType);
	return (
		ACCEPTED_MIME_TYPES[base]?.extension ??
		{ 'image/gif': 'gif', 'video/quicktime': 'mov', 'text/csv': 'csv', 'application/zip': 'zip' }[
			base
		]
	);
}

/** "5 MB", "500 KB", "1.2 MB" */
export function formatSize(bytes: number): string {
	if (bytes >= MB) return `${Number((bytes / MB).toFixed(1))} MB`;
	if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
	return `${bytes} bytes`;
}

const KIND_NAMES: Record<MediaKind, string> = {
	image: 'images',
	video: 'videos',
	audio: 'audio files',
	document: 'documents',
	sticker: 'stickers (WebP)',
};

/** "images up to 5 MB" */
export function limitText(kind: MediaKind): string {
	return `${KIND_NAMES[kind]} up to ${formatSize(SIZE_LIMITS[kind])}`;
}

/** Every accepted type, grouped by kind, for error descriptions. */
export function acceptedTypesText(): string {
	const byKind = new Map<MediaKind, string[]>();
	for (const [mime, { kind }] of Object.entries(ACCEPTED_MIME_TYPES))
		byKind.set(kind, [...(byKind.get(kind) ?? []), mime]);
	return [...byKind.entries()]
		.map(([kind, mimes]) => `${limitText(kind)}: ${mimes.join(', ')}`)
		.join('; ');
}
