/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test infrastructure runs in plain Node.js, not inside n8n */
/**
 * The customer's phone: a page the simulator serves at /phone (phone.html: plain HTML and JavaScript, no build, no
 * download, no token) that shows a subscriber's conversation as the customer sees it on WhatsApp, and two control
 * actions it reads (POST /__control/phone-subscribers, /__control/phone-conversation). What the customer writes or
 * taps goes through the existing /__control/message, which posts the incoming-message webhook like the curl does.
 */
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import { join } from 'node:path';
import { insideWindow, lastIncomingAt, type ConversationMessage, type SimState } from './state';

let page: string | undefined;

/** Serves the phone page at /phone (and /phone/); false for any other path. */
export function servePhone(path: string, response: http.ServerResponse): boolean {
	if (path !== '/phone' && path !== '/phone/') return false;
	page ??= readFileSync(join(__dirname, 'phone.html'), 'utf8');
	response.writeHead(200, {
		'content-type': 'text/html; charset=UTF-8',
		'content-length': Buffer.byteLength(page),
		'cache-control': 'no-store',
	});
	response.end(page);
	return true;
}

export interface PhoneButton {
	title: string;
	/** A reply button's id (tapping it answers with it); absent for a link button. */
	id?: string;
	/** A URL button's link, its variable filled. */
	url?: string;
}

/** One message as the customer's phone shows it. */
export interface PhoneMessage {
	id: number;
	/** Who wrote it, from the customer's side: the customer (`me`) or the business. */
	from: 'me' | 'business';
	time: string;
	text: string;
	header?: string;
	footer?: string;
	media?: { type: string; url?: string; name?: string };
	buttons: PhoneButton[];
	/** The outgoing message's status (sent, delivered, read, failed), null for the customer's own. */
	status: string | null;
	failedReason?: string;
	/** The template's name, for a template message. */
	template?: string;
	/** A customer's message whose incoming-message webhook the receiver refused or never answered: why, in its words. */
	refused?: string;
}

type Json = Record<string, unknown>;

function parse(text: string): Json | undefined {
	try {
		const value = JSON.parse(text) as unknown;
		return value && typeof value === 'object' ? (value as Json) : undefined;
	} catch {
		return undefined;
	}
}

function buttonsOf(list: unknown): PhoneButton[] {
	if (!Array.isArray(list)) return [];
	return list.map((button, index) => {
		if (typeof button === 'string') return { title: button, id: button };
		const entry = button as Json;
		const title = String(entry.title ?? entry.text ?? `Button ${index + 1}`);
		return entry.url === undefined
			? { title, id: String(entry.id ?? title) }
			: { title, url: String(entry.url) };
	});
}

/** A template send with its variables filled in: `#label#` in the texts, `{{n}}` at the end of URL buttons. */
function templateMessage(
	state: SimState,
	phoneNumberId: string,
	sent: Json,
): Partial<PhoneMessage> {
	const name = String(sent.name ?? '');
	const variables = (sent.variables ?? {}) as Record<string, unknown>;
	const template = state.templates.find(
		(entry) => entry.phone_number_id === phoneNumberId && entry.template_name === name,
	);
	if (!template) return { text: `(template ${name})`, template: name };
	// templateVariable-{LABEL}-{POSITION} → LABEL → value
	const values = new Map(
		Object.entries(variables)
			.map(([key, value]) => [key.split('-'), String(value)] as const)
			.filter(([parts]) => parts.length >= 3)
			.map(([parts, value]) => [parts.slice(1, -1).join('-'), value] as const),
	);
	const fill = (text: unknown) =>
		String(text ?? '').replace(/#!?([A-Za-z0-9_]+)!?#/g, (tag, label: string) =>
			values.has(label) ? values.get(label)! : tag,
		);
	const map = (parse(String(template.variable_map ?? '{}')) ?? {}) as {
		button?: Array<{ label: string; position: number }>;
	};
	const buttons = buttonsOf(parse(`{"b":${String(template.button_content ?? '[]')}}`)?.b).map(
		(button, index) => {
			if (!button.url) return button;
			const variable = map.button?.find((entry) => entry.position === index + 1);
			const value = variable ? (values.get(variable.label) ?? '') : '';
			return { ...button, url: button.url.replace(/\{\{1\}\}$/, value) };
		},
	);
	const headerMedia = sent.header_media_url ? String(sent.header_media_url) : undefined;
	return {
		template: name,
		text: fill(template.body_content),
		header: headerMedia ? undefined : fill(template.header_content) || undefined,
		footer: fill(template.footer_content) || undefined,
		media: headerMedia ? { type: 'image', url: headerMedia } : undefined,
		buttons,
	};
}

/** What one stored conversation row looks like on the customer's phone. */
export function phoneMessage(state: SimState, row: ConversationMessage): PhoneMessage {
	const base: PhoneMessage = {
		id: row.id,
		from: row.sender === 'user' ? 'me' : 'business',
		time: row.conversation_time,
		text: '',
		buttons: [],
		status: row.sender === 'user' ? null : row.message_status,
		failedReason: row.message_status === 'failed' ? row.failed_reason : undefined,
	};
	const content = parse(row.message_content);
	if (!content) return { ...base, text: row.message_content };
	// A Meta webhook stored whole (state.incomingAsMetaWebhook): the message inside it.
	const entry = (content.entry as Json[] | undefined)?.[0];
	const inner =
		((entry?.changes as Json[] | undefined)?.[0]?.value as Json | undefined)?.messages ?? undefined;
	const message = (Array.isArray(inner) ? (inner[0] as Json) : undefined) ?? content;
	const type = String(message.type ?? (message.components ? 'template' : ''));
	const body = (message[type] ?? {}) as Json;
	switch (type) {
		case 'text':
			return { ...base, text: String(body.body ?? '') };
		case 'template':
			if (message.components) {
				const component = (message.components as Json[]).find((part) => part.type === 'body');
				return { ...base, text: String(component?.text ?? ''), template: String(message.name) };
			}
			return { ...base, ...templateMessage(state, row.phone_number_id, body) };
		case 'interactive': {
			const reply = (body.button_reply ?? body.list_reply) as Json | undefined;
			if (reply) return { ...base, text: String(reply.title ?? '') };
			const header = body.header as Json | string | undefined;
			return {
				...base,
				text: String(body.body ?? ''),
				footer: body.footer ? String(body.footer) : undefined,
				header: typeof header === 'string' ? header : undefined,
				media:
					header && typeof header === 'object'
						? { type: String(header.type), url: header.url ? String(header.url) : undefined }
						: undefined,
				buttons: buttonsOf(body.buttons),
			};
		}
		case 'button':
			return { ...base, text: String(body.text ?? '') };
		case 'reaction':
			return { ...base, text: String(body.emoji ?? '') };
		case 'image':
		case 'video':
		case 'audio':
		case 'document':
		case 'sticker':
			return {
				...base,
				text: String(body.caption ?? ''),
				media: {
					type,
					url: body.link ? String(body.link) : undefined,
					name: body.filename ? String(body.filename) : undefined,
				},
			};
		default:
			return { ...base, text: row.message_content };
	}
}

/** The subscribers to pick from: the most recent conversations first, with whether the window is open. */
export function phoneSubscribers(state: SimState, input: { limit?: number }) {
	return [...state.subscribers]
		.sort((a, b) => (a.last_message_at < b.last_message_at ? 1 : -1))
		.slice(0, input.limit ?? 60)
		.map((subscriber) => {
			const bot = state.bot(subscriber.phone_number_id);
			return {
				phone_number_id: subscriber.phone_number_id,
				phone_number: subscriber.chat_id,
				name: `${subscriber.first_name} ${subscriber.last_name}`.trim(),
				business: bot?.whatsapp_business_name ?? '',
				business_phone: bot?.display_phone_number ?? '',
				last_message_at: subscriber.last_message_at,
				last_incoming_at:
					lastIncomingAt(state, subscriber.phone_number_id, subscriber.chat_id) ?? null,
				inside_window: insideWindow(state, subscriber.phone_number_id, subscriber.chat_id),
			};
		});
}

/**
 * The customer's messages whose incoming-message webhook was refused (HTTP 300 or more, e.g. n8n's 401 for a missing
 * secret) or failed, by wa_message_id: the phone marks them, so a demo whose workflow refuses is seen where one writes.
 */
function refusedDeliveries(state: SimState): Map<string, string> {
	const refused = new Map<string, string>();
	for (const delivery of state.webhooks.deliveries) {
		if (delivery.event !== 'incoming_message') continue;
		const id = String(delivery.body.wa_message_id);
		if (delivery.error)
			refused.set(id, `${delivery.url.split('?')[0]} did not answer: ${delivery.error}`);
		else if (delivery.status !== undefined && delivery.status >= 300)
			refused.set(id, `HTTP ${delivery.status} ${delivery.answer ?? ''}`.trim());
		else if (delivery.status !== undefined) refused.delete(id); // a later copy went through
	}
	return refused;
}

/** One subscriber's conversation, oldest first, as the phone shows it. */
export function phoneConversation(
	state: SimState,
	input: { phone_number_id?: string; phone_number: string; limit?: number },
) {
	const phoneNumberId = input.phone_number_id ?? state.bots[0].phone_number_id;
	const subscriber = state.subscriber(phoneNumberId, input.phone_number);
	if (!subscriber) throw new Error(`unknown subscriber ${input.phone_number}`);
	const bot = state.bot(phoneNumberId)!;
	const refused = refusedDeliveries(state);
	const rows = state.messages.filter(
		(row) =>
			row.phone_number_id === phoneNumberId &&
			row.whatsapp_bot_subscriber_subscriber_id === input.phone_number &&
			row.sender !== 'system',
	);
	return {
		business: bot.whatsapp_business_name,
		business_phone: bot.display_phone_number,
		name: `${subscriber.first_name} ${subscriber.last_name}`.trim(),
		inside_window: insideWindow(state, phoneNumberId, input.phone_number),
		messages: rows.slice(-(input.limit ?? 100)).map((row) => {
			const message = phoneMessage(state, row);
			const why = row.sender === 'user' ? refused.get(row.wa_message_id) : undefined;
			return why ? { ...message, refused: why } : message;
		}),
	};
}

/** The phone page's control actions (merged into control.ts's controlRoutes). */
export const phoneControlRoutes: Record<
	string,
	(context: { state: SimState; input: Json }) => unknown
> = {
	'phone-subscribers': ({ state, input }) => phoneSubscribers(state, input),
	'phone-conversation': ({ state, input }) =>
		phoneConversation(state, input as { phone_number: string }),
};
