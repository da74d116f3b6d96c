import type { INodeProperties } from 'n8n-workflow';
import { mediaKindOfFileName } from '../../../shared/whatsapp/mediaRules';

/**
 * The media type a URL's file extension names, from WhatsApp's own table (shared/whatsapp/mediaRules.ts, which the uploads
 * check too): only where WhatsApp accepts that file as that type. Elsewhere (a `.webp`, which WhatsApp sends only as
 * a sticker; `.gif`, `.mov`, `.zip`, which it does not accept; no extension) the node does not guess: Media Type
 * must be set, and the platform decides.
 */
export function mediaTypeFromUrl(url: string): string | undefined {
	const path = url.split(/[?#]/)[0];
	const kind = mediaKindOfFileName(path.slice(path.lastIndexOf('/') + 1));
	return kind === 'sticker' ? undefined : kind;
}

/** The file name at the end of a URL, used as a document's media_name when none is given. */
export function fileNameFromUrl(url: string): string | undefined {
	const path = url.split(/[?#]/)[0];
	const name = decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
	return name || undefined;
}

const MEDIA_TYPE_NAMES = {
	audio: 'Audio',
	document: 'Document',
	image: 'Image',
	video: 'Video',
} as const;

/** The Media Type of an attached file (Send Media) or a media header (Send Buttons): the types the send accepts. */
export function mediaTypeOption(
	types: Array<keyof typeof MEDIA_TYPE_NAMES>,
	description: string,
): INodeProperties {
	return {
		displayName: 'Media Type',
		name: 'mediaType',
		type: 'options',
		options: types.map((type) => ({ name: MEDIA_TYPE_NAMES[type], value: type })),
		default: 'image',
		description,
	};
}

/** The Media Name of an attached file or media header: sent only for a document. */
export function mediaNameOption(description: string): INodeProperties {
	return { displayName: 'Media Name', name: 'mediaName', type: 'string', default: '', description };
}
