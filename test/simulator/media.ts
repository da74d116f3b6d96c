/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test infrastructure runs in plain Node.js, not inside n8n */
/**
 * Media files the simulated platform serves, and the media messages that point at them.
 *
 * SPEC-GAP: the spec says only that `message_content` holds "the JSON of the message sent or
 * received". Integrators read the media link of a received message from it (spec/webhooks.md). The
 * simulator stores WhatsApp's own message shapes: `{"type":"image","image":{"link":…,"caption":…}}`
 * for a file the platform keeps (the link is a path on the platform, `/media/…`, as a PHP platform
 * stores its uploads, or an absolute URL), and `{"type":"audio","audio":{"id":…,"mime_type":…}}`
 * (WhatsApp's webhook shape: a media id and no link) for one it does not.
 */
import type http from 'node:http';
import { addMessage } from './control';
import type { ConversationMessage, SimState } from './state';

/** How a media address answers: the file, a 404 page, a login page (HTML with 200), or never (a timeout). */
export type MediaBehaviour = 'file' | 'missing' | 'html' | 'timeout';

export interface MediaFile {
	bytes: Buffer;
	contentType: string;
	/** Sent as Content-Disposition when set. */
	fileName?: string;
	behaviour: MediaBehaviour;
}

/** The files of each simulated world (a reset starts with none but the seed's). */
const filesOf = new WeakMap<SimState, Map<string, MediaFile>>();

function files(state: SimState): Map<string, MediaFile> {
	let map = filesOf.get(state);
	if (!map) filesOf.set(state, (map = new Map()));
	return map;
}

/** Registers a file at `/media/<name>`; returns that path. */
export function addMediaFile(
	state: SimState,
	input: {
		name: string;
		bytes: Buffer;
		contentType: string;
		fileName?: string;
		behaviour?: MediaBehaviour;
	},
): string {
	const path = `/media/${input.name.replace(/^\/+/, '')}`;
	files(state).set(path, {
		bytes: input.bytes,
		contentType: input.contentType,
		fileName: input.fileName,
		behaviour: input.behaviour ?? 'file',
	});
	return path;
}

export type MediaMessageType = 'image' | 'video' | 'audio' | 'voice' | 'document' | 'sticker';

export interface MediaMessageInput {
	phone_number_id?: string;
	phone_number: string;
	type: MediaMessageType;
	/** The file's bytes (base64 over the control API), or `path`: a file already served (e.g. one of SEED_FILES). */
	bytes?: Buffer | string;
	path?: string;
	mime_type: string;
	filename?: string;
	caption?: string;
	/** Where message_content points: a path on the platform (default), an absolute URL on `base`, or only a WhatsApp media id. */
	shape?: 'path' | 'absolute' | 'id';
	/** The simulator's root URL, for `shape: 'absolute'`. */
	base?: string;
	behaviour?: MediaBehaviour;
	sender?: string;
}

/** A customer (or the bot) sends a media message; its file is served unless the shape is an id. */
export function addMediaMessage(state: SimState, input: MediaMessageInput): ConversationMessage {
	const bytes = Buffer.isBuffer(input.bytes)
		? input.bytes
		: Buffer.from(input.bytes ?? '', 'base64');
	const extension =
		input.filename?.split('.').pop() ?? input.mime_type.split('/')[1]?.split(';')[0] ?? 'bin';
	const key = input.type === 'voice' ? 'audio' : input.type;
	const body: Record<string, unknown> = { mime_type: input.mime_type };
	if (input.shape === 'id') {
		body.id = String(1800000000000000 + state.nextId());
		body.sha256 = 'not-checked';
	} else {
		const path =
			input.path ??
			addMediaFile(state, {
				name: `${state.nextId()}.${extension}`,
				bytes,
				contentType: input.mime_type,
				fileName: input.filename,
				behaviour: input.behaviour,
			});
		body.link =
			input.shape === 'absolute' ? `${String(input.base ?? '').replace(/\/+$/, '')}${path}` : path;
	}
	if (input.filename) body.filename = input.filename;
	if (input.caption !== undefined) body.caption = input.caption;
	if (input.type === 'voice') body.voice = true;
	return addMessage(state, {
		phone_number_id: input.phone_number_id,
		phone_number: input.phone_number,
		sender: input.sender ?? 'user',
		content: { type: key, [key]: body },
	});
}

/** Files uploaded through upload media, kept so that the platform can serve them by media id (`/media/uploads/<media_id>`). */
export function keepUpload(
	state: SimState,
	mediaId: string,
	file: { bytes: Buffer; type: string; name: string },
): void {
	addMediaFile(state, {
		name: `uploads/${mediaId}`,
		bytes: file.bytes,
		contentType: file.type || 'application/octet-stream',
		fileName: file.name,
	});
}

const NOT_FOUND_PAGE = '<!DOCTYPE html><html><body><h1>404 Not Found</h1></body></html>';
const LOGIN_PAGE =
	'<!DOCTYPE html><html><head><title>Login</title></head><body><form action="/login"><input name="email"></form></body></html>';

/** Answers GET /media/… (no token: media links are public). Returns false when the path is not a media path. */
export function serveMedia(state: SimState, path: string, response: http.ServerResponse): boolean {
	if (!path.startsWith('/media/')) return false;
	const file = files(state).get(decodeURIComponent(path));
	const page = (status: number, html: string) => {
		response.writeHead(status, {
			'content-type': 'text/html; charset=UTF-8',
			'content-length': Buffer.byteLength(html),
		});
		response.end(html);
	};
	if (!file || file.behaviour === 'missing') page(404, NOT_FOUND_PAGE);
	else if (file.behaviour === 'html') page(200, LOGIN_PAGE);
	else if (file.behaviour === 'timeout')
		return true; // never answers; the client's timeout fires
	else {
		const headers: Record<string, string | number> = {
			'content-type': file.contentType,
			'content-length': file.bytes.length,
		};
		if (file.fileName)
			headers['content-disposition'] = `inline; filename="${file.fileName.replace(/"/g, '')}"`;
		response.writeHead(200, headers);
		response.end(file.bytes);
	}
	return true;
}

/** Small recognisable files for the seed: the bytes of a file that says what it is. */
function sampleBytes(label: string, size: number): Buffer {
	const text = Buffer.from(`${label} `);
	return Buffer.from(Array.from({ length: size }, (_, index) => text[index % text.length]));
}

/** Files every simulated world serves (stable paths, for examples' sample data), including ones that fail to download. */
export const SEED_FILES = {
	photo: '/media/seed/cake-photo.jpg',
	voiceNote: '/media/seed/voice-note.ogg',
	orderForm: '/media/seed/order-form.pdf',
	/** A 404 page. */
	missing: '/media/seed/missing.jpg',
	/** A login page answered with HTTP 200 (an expired or private link). */
	expired: '/media/seed/expired.jpg',
	/** Never answers. */
	stalled: '/media/seed/stalled.jpg',
} as const;

export function seedMediaFiles(state: SimState): void {
	const name = (path: string) => path.slice('/media/'.length);
	addMediaFile(state, {
		name: name(SEED_FILES.photo),
		bytes: sampleBytes('JPEG photo of a birthday cake', 48_000),
		contentType: 'image/jpeg',
	});
	addMediaFile(state, {
		name: name(SEED_FILES.voiceNote),
		bytes: sampleBytes('OGG Opus voice note', 24_000),
		contentType: 'audio/ogg; codecs=opus',
	});
	addMediaFile(state, {
		name: name(SEED_FILES.orderForm),
		bytes: sampleBytes('%PDF-1.4 order form', 60_000),
		contentType: 'application/pdf',
		fileName: 'order-form.pdf',
	});
	addMediaFile(state, {
		name: name(SEED_FILES.missing),
		bytes: Buffer.alloc(0),
		contentType: 'image/jpeg',
		behaviour: 'missing',
	});
	addMediaFile(state, {
		name: name(SEED_FILES.expired),
		bytes: Buffer.alloc(0),
		contentType: 'image/jpeg',
		behaviour: 'html',
	});
	addMediaFile(state, {
		name: name(SEED_FILES.stalled),
		bytes: Buffer.alloc(0),
		contentType: 'image/jpeg',
		behaviour: 'timeout',
	});
}

/**
 * Media messages for the seed (`seed: { media: true }`): from the first subscriber of the first
 * number, a photo with a caption and a voice note; from the second, a PDF; from the third, a
 * photo known only by its WhatsApp media id. Each sent seconds after the subscriber's first
 * message, so every conversation's newest message stays the seed's text.
 */
export function seedMedia(state: SimState): void {
	const bot = state.bots[0];
	const [first, second, third] = state.subscribersOf(bot.phone_number_id);
	const clock = state.clock;
	const add = (chatId: string, seconds: number, input: Omit<MediaMessageInput, 'phone_number'>) => {
		const subscriber = state.subscriber(bot.phone_number_id, chatId)!;
		const times = state.messages
			.filter(
				(message) =>
					message.whatsapp_bot_subscriber_subscriber_id === chatId &&
					message.phone_number_id === bot.phone_number_id,
			)
			.map((message) => message.conversation_time)
			.sort();
		const newest = subscriber.last_message_at;
		// state.now() adds a second before stamping.
		state.clock =
			Date.parse(`${(times[0] ?? subscriber.created_at).replace(' ', 'T')}Z`) +
			(seconds - 1) * 1000;
		addMediaMessage(state, { ...input, phone_number: chatId });
		// addMessage moved last_message_at to this message: the subscriber's newest message is still the later text.
		if (newest > subscriber.last_message_at) subscriber.last_message_at = newest;
	};
	add(first.chat_id, 10, {
		type: 'image',
		path: SEED_FILES.photo,
		mime_type: 'image/jpeg',
		caption: 'Can you make this cake?',
	});
	add(first.chat_id, 20, {
		type: 'voice',
		path: SEED_FILES.voiceNote,
		mime_type: 'audio/ogg; codecs=opus',
	});
	add(second.chat_id, 10, {
		type: 'document',
		path: SEED_FILES.orderForm,
		mime_type: 'application/pdf',
		filename: 'order-form.pdf',
		caption: 'My order',
	});
	add(third.chat_id, 10, {
		type: 'image',
		mime_type: 'image/jpeg',
		shape: 'id',
		caption: 'Photo of the shop',
	});
	state.clock = clock;
}
