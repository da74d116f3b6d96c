import type { INodeProperties } from 'n8n-workflow';

/** Media types of the send endpoints, read from a URL's extension or a MIME type (spec: Send file / media). */
const EXTENSIONS: Record<string, string> = {
	jpg: 'image',
	jpeg: 'image',
	png: 'image',
	webp: 'image',
	gif: 'image',
	mp4: 'video',
	'3gp': 'video',
	mov: 'video',
	mp3: 'audio',
	ogg: 'audio',
	aac: 'audio',
	amr: 'audio',
	m4a: 'audio',
	opus: 'audio',
	pdf: 'document',
	doc: 'document',
	docx: 'document',
	xls: 'document',
	xlsx: 'document',
	ppt: 'document',
	pptx: 'document',
	txt: 'document',
	csv: 'document',
	zip: 'document',
};

/** The type a URL's file extension names, or undefined when it has no known extension. */
export function mediaTypeFromUrl(url: string): string | undefined {
	const path = url.split(/[?#]/)[0];
	const match = /\.([a-z0-9]+)$/i.exec(path.slice(path.lastIndexOf('/') + 1));
	return match ? EXTENSIONS[match[1].toLowerCase()] : undefined;
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
