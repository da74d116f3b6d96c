import { z } from 'zod';
import { addMessage } from '../control';
import { keepUpload } from '../media';
import {
	fail,
	ok,
	OUTSIDE_WINDOW_TEXT,
	p,
	page,
	SUBSCRIBER_LIMIT_TEXT,
	type Route,
} from '../route';
import { insideWindow, type ConversationMessage, type Row, type SimState } from '../state';
import { failedReasonOf } from '../statuses';

/** The spec's "Conversation message" fields, without the simulator's bookkeeping (phone_number_id, read/failed times). */
export function conversationMessage(message: ConversationMessage) {
	const {
		id,
		whatsapp_bot_subscriber_subscriber_id,
		whatsapp_bot_id,
		sender,
		agent_name,
		message_content,
		conversation_time,
		wa_message_id,
		reaction_data,
		message_status,
		delivery_status_updated_at,
		failed_reason,
	} = message;
	return {
		id,
		whatsapp_bot_subscriber_subscriber_id,
		whatsapp_bot_id,
		sender,
		agent_name,
		message_content,
		conversation_time,
		// A panel event (sender "system") has none: SPEC-GAP, see control.ts addMessage.
		wa_message_id: wa_message_id === '' ? null : wa_message_id,
		reaction_data,
		message_status,
		delivery_status_updated_at,
		failed_reason,
	};
}

/** The spec's "Message template (template list)" fields; the access token inside template_json is hidden. */
export function listedTemplate(template: Row, hideToken = true) {
	const templateJson = (() => {
		if (!hideToken) return template.template_json;
		try {
			const parsed = JSON.parse(String(template.template_json));
			delete parsed.access_token;
			return JSON.stringify(parsed);
		} catch {
			return template.template_json;
		}
	})();
	return {
		id: template.id,
		template_id: template.template_id,
		whatsapp_business_id: template.whatsapp_business_id,
		template_name: template.template_name,
		template_type: template.template_type,
		locale: template.locale,
		header_type: template.header_type,
		header_subtype: template.header_subtype,
		header_content: template.header_content,
		body_content: template.body_content,
		footer_content: template.footer_content,
		button_content: template.button_content,
		template_json: templateJson,
		button_type: template.button_type,
		variable_map: template.variable_map,
		updated_at: template.updated_at,
		user_id: template.user_id,
		status: template.status,
		system_template: template.system_template,
		map_needed: template.map_needed,
		check_wp_type: template.check_wp_type,
	};
}

/**
 * A subscriber's conversation, newest first (what a chat API returns: page 1 is the latest messages;
 * ties on the timestamp fall back to the later record first).
 */
export function conversationOf(
	state: SimState,
	phoneNumberId: string,
	phoneNumber: string,
): ConversationMessage[] {
	return state.messages
		.filter(
			(message) =>
				message.phone_number_id === phoneNumberId &&
				message.whatsapp_bot_subscriber_subscriber_id === phoneNumber,
		)
		.sort((a, b) => b.conversation_time.localeCompare(a.conversation_time) || b.id - a.id);
}

const limit50 = p.integer.refine(
	(value) => Number(value) >= 1 && Number(value) <= 50,
	'must be between 1 and 50',
);

/**
 * The conversation's `message` as the deployment serves it (state.conversationListShape).
 * SPEC-GAP: the spec shows an array; five integrators report JSON text of an array, of an object keyed
 * "0","1",…, or of an object keyed by the row id (in the page's order in the text; JSON keeps none).
 */
function listAsServed(state: SimState, rows: Array<{ id: number }>): unknown {
	switch (state.conversationListShape) {
		case 'jsonArray':
			return JSON.stringify(rows);
		case 'jsonIndexed':
			return JSON.stringify(Object.fromEntries(rows.map((row, index) => [String(index), row])));
		case 'jsonById':
			// Written by hand: PHP keeps the page's order in the text; JSON.stringify would sort integer keys.
			return `{${rows.map((row) => `${JSON.stringify(String(row.id))}:${JSON.stringify(row)}`).join(',')}}`;
		default:
			return rows;
	}
}

/** Reads of the spec's "Account and messaging group". */
export const messagingReadRoutes: Route[] = [
	{
		path: '/whatsapp/get/conversation',
		// limit is required in the current form; a deployment on the earlier form only (state.earlierFormOnly) has no pagination.
		params: z.object({
			phone_number_id: p.required,
			phone_number: p.required,
			limit: limit50.optional(),
			offset: p.integer.optional(),
		}),
		handle: ({ params, state }) => {
			const rows = conversationOf(state, params.phone_number_id, params.phone_number).map(
				conversationMessage,
			);
			// SPEC-GAP: the page order's variants (state.conversationOrder); `unordered` interleaves the newest-first list.
			if (state.conversationOrder === 'oldestFirst') rows.reverse();
			if (state.conversationOrder === 'unordered')
				rows.sort((a, b) => (a.id % 3) - (b.id % 3) || a.id - b.id);
			if (state.earlierFormOnly) {
				const stray = ['limit', 'offset'].filter((key) => params[key] !== undefined);
				return stray.length
					? fail(`Unknown parameter: ${stray.join(', ')}.`)
					: ok({ message: listAsServed(state, rows) });
			}
			if (params.limit === undefined) return fail('The limit field is required.');
			const answer = page(rows, params.limit, params.offset, { defaultLimit: 50, maxLimit: 50 });
			return ok({ ...answer, message: listAsServed(state, answer.message) });
		},
	},
	{
		path: '/whatsapp/get/message-status',
		params: z.object({ wa_message_id: p.required }),
		handle: ({ params, state }) => {
			const message = state.messages.find((entry) => entry.wa_message_id === params.wa_message_id);
			// Failure text for an unknown id: not shown in the spec; a plain reason is returned.
			if (!message) return fail('Message not found.');
			const { message_status, delivery_status_updated_at, read_time, failed_time, failed_reason } =
				message;
			return ok({
				message: {
					message_status,
					delivery_status_updated_at,
					read_time,
					failed_time,
					failed_reason,
				},
			});
		},
	},
	{
		path: '/whatsapp/template/list',
		params: z.object({ phone_number_id: p.required }),
		handle: ({ params, state }) =>
			ok({
				message: state.templates
					.filter((entry) => entry.phone_number_id === params.phone_number_id)
					.map((template) => listedTemplate(template, state.hidesTemplateTokens)),
			}),
	},
];

const ACCOUNT_NOT_FOUND = 'WhatsApp account not found.';
const SENT = 'Message sent successfully.';
const BUTTON_COUNT_TEXT = 'You can send between 1 and 3 reply buttons.';
const BUTTON_ID_MAX = 256;
const BUTTON_ID_TEXT = 'A button id can have at most 256 characters.';
const BUTTON_MEDIA_TEXT =
	'When sending media with buttons, media_type must be one of: image, video, document.';
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

/** The media type a URL's file extension names, if any. */
export function typeFromUrl(url: string): string | undefined {
	const path = url.split(/[?#]/)[0];
	const match = /\.([a-z0-9]+)$/i.exec(path.slice(path.lastIndexOf('/') + 1));
	return match ? EXTENSIONS[match[1].toLowerCase()] : undefined;
}

/** image/*, video/*, audio/* by MIME type; anything else is a document. */
export function typeFromMime(mime: string): string {
	const kind = mime.split('/')[0];
	return ['image', 'video', 'audio'].includes(kind) ? kind : 'document';
}

/**
 * Sends go to a subscriber; a number that is not one yet becomes one, which the package's
 * subscriber cap can refuse (spec, Limits: "user and message operations").
 */
function deliver(
	state: SimState,
	phoneNumberId: string,
	phoneNumber: string,
	content: unknown,
	{ session = false }: { session?: boolean } = {},
) {
	if (!state.bot(phoneNumberId)) return fail(ACCOUNT_NOT_FOUND);
	// Meta refuses this customer (SPEC-GAP: the platform's relay of Meta's refusal, state.ts metaRefusals).
	const refusal = state.metaRefusals[phoneNumber];
	if (refusal && (refusal.times === undefined || refusal.times-- > 0))
		return { httpStatus: state.metaRefusalHttpStatus, body: fail(failedReasonOf(refusal.code)) };
	// Free-form (session) messages only reach a subscriber who wrote in the last 24 hours (spec, Send text message).
	if (
		session &&
		state.sessionWindow === 'enforced' &&
		!insideWindow(state, phoneNumberId, phoneNumber)
	)
		return fail(OUTSIDE_WINDOW_TEXT);
	if (
		!state.subscriber(phoneNumberId, phoneNumber) &&
		state.subscribers.length >= state.subscriberLimit
	)
		return fail(SUBSCRIBER_LIMIT_TEXT);
	const message = addMessage(state, {
		phone_number_id: phoneNumberId,
		phone_number: phoneNumber,
		content,
		sender: 'bot',
		status: 'sent',
	});
	// What happens to it next, when the delivery statuses are switched on (statuses.ts; off by default).
	state.statuses.planFor(state, message, { template: !session });
	return message.wa_message_id;
}

function sent(result: string | Record<string, unknown>, text = SENT) {
	return typeof result === 'string' ? ok({ wa_message_id: result, message: text }) : result;
}

/** The tags of a template text (`#NAME#` or `#!name!#`) as the position → tag map of a Created template. */
function tagMap(text: unknown): Record<string, string> {
	const tags = String(text ?? '').match(/#!?[A-Za-z0-9_]+!?#/g) ?? [];
	return Object.fromEntries(tags.map((tag, index) => [String(index + 1), tag]));
}

/** A JSON value sent either typed (JSON body) or as text (form body). */
const jsonValue = z.preprocess((value) => {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value);
	} catch {
		return value;
	}
}, z.unknown());
const arrayValue = z.preprocess(
	(value) => {
		if (typeof value !== 'string') return value;
		try {
			return JSON.parse(value);
		} catch {
			return value;
		}
	},
	z.array(z.unknown(), { message: 'must be an array' }),
);

const TEMPLATE_CREATED_TEXT =
	'WhatsApp template has been created and submitted successfully. It needs approval before it can be used.';

/** Writes of the spec's "Account and messaging group". */
export const messagingWriteRoutes: Route[] = [
	{
		path: '/whatsapp/account/connect',
		params: z.object({
			user_id: p.integer,
			whatsapp_business_account_id: p.required,
			access_token: p.required,
		}),
		handle: ({ params, state }) => {
			// The access token is kept only as a fingerprint: the simulator never echoes it.
			state.connectedAccounts.push({
				user_id: Number(params.user_id),
				whatsapp_business_account_id: params.whatsapp_business_account_id,
				access_token_length: params.access_token.length,
				connected_at: state.now(),
			});
			return ok({ message: 'Whatsapp account has been connect successfully.' });
		},
	},
	{
		path: '/whatsapp/send',
		params: z.object({
			phone_number_id: p.required,
			message: p.required,
			phone_number: p.required,
		}),
		handle: ({ params, state }) =>
			sent(
				deliver(
					state,
					params.phone_number_id,
					params.phone_number,
					{ type: 'text', text: { body: params.message } },
					{ session: true },
				),
			),
	},
	{
		path: '/whatsapp/send/template',
		params: z
			.object({
				phone_number_id: p.required,
				template_id: p.required,
				phone_number: p.required,
				template_header_media_url: p.string.optional(),
			})
			.passthrough(),
		extraParams: /^templateVariable-.+-\d+$/,
		handle: ({ params, state }) => {
			if (!state.bot(params.phone_number_id)) return fail(ACCOUNT_NOT_FOUND);
			// template_id is the template list's `template_id` (the id assigned at creation), as template status also uses it.
			const template = state.templates.find(
				(entry) =>
					entry.phone_number_id === params.phone_number_id &&
					String(entry.template_id) === params.template_id,
			);
			if (!template) return fail('Message template not found.');
			const map = JSON.parse(String(template.variable_map ?? '{}')) as {
				header?: Array<{ label: string; position: number }>;
				body?: Array<{ label: string; position: number }>;
				button?: Array<{ label: string; position: number }>;
			};
			// SPEC-GAP: the spec names header and body variables only; whether a URL button's variable
			// can be sent is not shown. The simulator accepts it the way the spec's variables work (a
			// `button` entry of the variable map, sent as templateVariable-{LABEL}-{POSITION}) and
			// records its value with the others, as given (WhatsApp appends it to the button's fixed URL).
			const known = [...(map.header ?? []), ...(map.body ?? []), ...(map.button ?? [])].map(
				(entry) => `templateVariable-${entry.label}-${entry.position}`,
			);
			const variables = Object.fromEntries(
				Object.entries(params).filter(([key]) => key.startsWith('templateVariable-')),
			);
			const stray = Object.keys(variables).filter((key) => !known.includes(key));
			if (stray.length) return fail(`Unknown parameter: ${stray.join(', ')}.`);
			// SPEC-GAP (state.templateSendsAsTemplate): deployments store a template send as the template
			// itself, without a top-level `type`, its body text in the body component.
			const content = state.templateSendsAsTemplate
				? {
						name: template.template_name,
						language: { code: template.locale },
						components: [
							{
								type: 'body',
								text: Object.entries(variables).reduce(
									(body, [key, value]) => body.split(`#${key.split('-')[1]}#`).join(String(value)),
									String(template.body_content ?? ''),
								),
							},
						],
					}
				: {
						type: 'template',
						template: {
							name: template.template_name,
							language: template.locale,
							variables,
							header_media_url: params.template_header_media_url,
						},
					};
			return sent(
				deliver(state, params.phone_number_id, params.phone_number, content),
				'Template message has been sent successfully.',
			);
		},
	},
	{
		path: '/whatsapp/send/interactive-buttons',
		params: z.object({
			phone_number_id: p.required,
			phone_number: p.required,
			message: p.required,
			buttons: p.json,
			button_header_text: p.string.optional(),
			button_footer_text: p.string.optional(),
			media_url: p.string.optional(),
			media_id: p.string.optional(),
			media_type: p.string.optional(),
			media_name: p.string.optional(),
		}),
		handle: ({ params, state }) => {
			const buttons = JSON.parse(params.buttons);
			if (!Array.isArray(buttons) || buttons.length < 1 || buttons.length > 3)
				return fail(BUTTON_COUNT_TEXT);
			const wellFormed = buttons.every(
				(button) =>
					(typeof button === 'string' && button !== '') ||
					(button &&
						typeof button === 'object' &&
						typeof button.title === 'string' &&
						button.title !== ''),
			);
			if (!wellFormed)
				return fail(
					'The buttons field is invalid: each button is a string or an object with id and title.',
				);
			// SPEC-GAP: the spec gives no length of a button's id (nor says the conversation read returns it; the tap's row
			// and the question's row carry it as Meta's Cloud API does, see control.ts tapButton). The simulator takes
			// Meta's limit of a reply button's id, 256 characters, and refuses a longer one with an assumed text, as Meta
			// refuses it after the platform took the message. Send and Wait in the chat carries its answer link there.
			if (
				buttons.some(
					(button) => typeof button === 'object' && String(button.id ?? '').length > BUTTON_ID_MAX,
				)
			)
				return fail(BUTTON_ID_TEXT);
			const hasMedia = Boolean(params.media_url || params.media_id);
			const mediaType =
				params.media_type || (params.media_url ? typeFromUrl(params.media_url) : undefined);
			if (params.media_type && !['image', 'video', 'document'].includes(params.media_type))
				return fail(BUTTON_MEDIA_TEXT);
			if (hasMedia && !mediaType) return fail('The media_type field is required.');
			if (hasMedia && !['image', 'video', 'document'].includes(String(mediaType)))
				return fail(BUTTON_MEDIA_TEXT);
			const content = {
				type: 'interactive',
				interactive: {
					body: params.message,
					buttons,
					header: hasMedia
						? { type: mediaType, url: params.media_url, id: params.media_id }
						: params.button_header_text,
					footer: params.button_footer_text,
				},
			};
			return sent(
				deliver(state, params.phone_number_id, params.phone_number, content, { session: true }),
			);
		},
	},
	{
		path: '/whatsapp/send/file',
		params: z.object({
			phone_number_id: p.required,
			phone_number: p.required,
			media_url: p.string.optional(),
			media_id: p.string.optional(),
			media_type: p.oneOf(['image', 'video', 'audio', 'document']).optional(),
			media_name: p.string.optional(),
			media_caption_text: p.string.optional(),
			message: p.string.optional(),
		}),
		handle: ({ params, state }) => {
			if (!params.media_url && !params.media_id)
				return fail('The media_url field is required when media_id is not present.');
			if (params.media_id && !state.media.some((entry) => entry.media_id === params.media_id))
				return fail('Media not found.');
			const mediaType =
				params.media_type ??
				(params.media_url && !params.media_id ? typeFromUrl(params.media_url) : undefined);
			if (!mediaType) return fail('The media_type field is required.');
			if (mediaType === 'document' && !params.media_name)
				return fail('The media_name field is required when media_type is document.');
			const content = {
				type: mediaType,
				[mediaType]: {
					link: params.media_url,
					id: params.media_id,
					filename: params.media_name,
					caption: params.media_caption_text ?? params.message,
				},
			};
			return sent(
				deliver(state, params.phone_number_id, params.phone_number, content, { session: true }),
			);
		},
	},
	{
		path: '/whatsapp/upload/media',
		methods: ['POST'],
		multipart: true,
		params: z.object({ phone_number_id: p.required }),
		handle: ({ params, files, state }) => {
			if (!state.bot(params.phone_number_id)) return fail(ACCOUNT_NOT_FOUND);
			const file = files.media_file;
			if (!file) return fail('The media_file field is required.');
			if (file.size === 0) return fail('The uploaded file is empty.');
			const media = {
				media_id: `${1700000000000000 + state.nextId()}`,
				media_type: typeFromMime(file.type),
				media_name: file.name,
				phone_number_id: params.phone_number_id,
				sha256: file.sha256,
				size: file.size,
			};
			state.media.push(media);
			keepUpload(state, media.media_id, file);
			return ok({
				media_id: media.media_id,
				media_type: media.media_type,
				media_name: media.media_name,
				message:
					'Media has been uploaded successfully. Use the media_id, media_type and media_name with the send file endpoint.',
			});
		},
	},
	{
		path: '/whatsapp/get/post-back-list',
		params: z.object({ phone_number_id: p.required }),
		handle: ({ params, state }) =>
			ok({
				message: state.postBacks
					.filter((entry) => entry.phone_number_id === params.phone_number_id)
					.map((entry) =>
						Object.fromEntries(Object.entries(entry).filter(([key]) => key !== 'phone_number_id')),
					),
			}),
	},
	{
		path: '/whatsapp/get/bot-flow-list',
		params: z.object({ phone_number_id: p.required }),
		handle: ({ params, state }) =>
			ok({
				message: state.botFlows
					.filter((entry) => entry.phone_number_id === params.phone_number_id)
					.map(({ id, name, unique_id, status }) => ({ id, name, unique_id, status })),
			}),
	},
	{
		path: '/whatsapp/trigger-bot',
		params: z.object({
			phone_number_id: p.required,
			bot_flow_unique_id: p.required,
			phone_number: p.required,
		}),
		handle: ({ params, state }) => {
			if (!state.bot(params.phone_number_id)) return fail(ACCOUNT_NOT_FOUND);
			const flow = state.botFlows.find(
				(entry) =>
					entry.phone_number_id === params.phone_number_id &&
					entry.unique_id === params.bot_flow_unique_id,
			);
			// No failure text in the spec for an unknown flow; a plain reason is returned.
			if (!flow) return fail('Bot flow not found.');
			state.botFlowTriggers.push({ ...params, triggered_at: state.now() });
			return ok({ message: 'Bot has been trigger successfully.' });
		},
	},
	{
		path: '/whatsapp/template/create',
		methods: ['POST'],
		json: true,
		params: z.object({
			phone_number_id: p.required,
			name: z.string().regex(/^[a-z_]+$/, 'must be lowercase letters and underscores only'),
			category: z.enum(['MARKETING', 'UTILITY', 'AUTHENTICATION']),
			language: z.string().optional(),
			template_type: z
				.enum(['mixed', 'wp', 'authentication', 'carousel', 'carousel_product'])
				.optional(),
			body_text: z.string().optional(),
			header: jsonValue.optional(),
			footer_text: z.string().optional(),
			buttons: arrayValue.optional(),
			verification_code: z.string().optional(),
			add_security_recommendation: z
				.union([z.boolean(), z.enum(['0', '1', 'true', 'false'])])
				.optional(),
			code_expiration_minutes: z.coerce.number().int().min(1).max(90).optional(),
			bubble_body_text: z.string().optional(),
			cards: arrayValue.optional(),
		}),
		handle: ({ params, state }) => {
			const bot = state.bot(params.phone_number_id);
			if (!bot) return fail(ACCOUNT_NOT_FOUND);
			if (
				state.templates.some(
					(entry) =>
						entry.phone_number_id === bot.phone_number_id && entry.template_name === params.name,
				)
			)
				return fail('WhatsApp template name already exists.');
			const carousel =
				params.template_type === 'carousel' || params.template_type === 'carousel_product';
			const authentication =
				params.category === 'AUTHENTICATION' || params.template_type === 'authentication';
			let variableMap: Record<string, unknown>;
			let bodyText: string;
			if (authentication) {
				if (params.category !== 'AUTHENTICATION')
					return fail('The category field is invalid: must be AUTHENTICATION.');
				if (!params.verification_code)
					return fail('Authentication template requires verification_code.');
				bodyText = `${params.verification_code} is your verification code.`;
				variableMap = { body: { 1: params.verification_code } };
			} else if (carousel) {
				if (params.category !== 'MARKETING')
					return fail('The category field is invalid: must be MARKETING.');
				if (!params.bubble_body_text) return fail('The bubble_body_text field is required.');
				const cards = (params.cards ?? []) as Array<Record<string, unknown>>;
				if (cards.length < 1 || cards.length > 10)
					return fail('The cards field is invalid: must have 1 to 10 cards.');
				const badCard = cards.findIndex(
					(card) =>
						!['image', 'video'].includes(String(card?.media_type)) ||
						!card.media_url ||
						!card.body_text,
				);
				if (badCard >= 0)
					return fail(
						`The cards.${badCard} field is invalid: needs media_type (image or video), media_url and body_text.`,
					);
				if (state.carouselLimit <= 0)
					return fail('WhatsApp Carousel module limit has been exceeded.');
				state.carouselLimit -= 1;
				bodyText = params.bubble_body_text;
				variableMap = {
					body: tagMap(bodyText),
					cards: cards.map((card) => ({ body: tagMap(card.body_text) })),
				};
			} else {
				if (!params.body_text) return fail('The body_text field is required.');
				if (params.category === 'AUTHENTICATION')
					return fail('Authentication template requires verification_code.');
				bodyText = params.body_text;
				variableMap = { body: tagMap(bodyText) };
			}
			const header = (params.header ?? {}) as Record<string, unknown>;
			const id = state.nextId();
			const language = params.language ?? 'en_US';
			const templateType = params.template_type ?? (authentication ? 'authentication' : 'mixed');
			const labels = (map: Record<string, string>) =>
				Object.entries(map).map(([position, tag]) => ({
					position: Number(position),
					label: tag.replace(/[#!]/g, ''),
				}));
			const template = {
				id,
				template_id: String(1200000000000000 + id),
				phone_number_id: bot.phone_number_id,
				whatsapp_business_id: bot.whatsapp_business_account_id,
				template_name: params.name,
				template_type: templateType,
				locale: language,
				header_type: String(header.type ?? ''),
				header_subtype: '',
				header_content: String(header.text ?? header.media_url ?? ''),
				body_content: bodyText,
				footer_content: params.footer_text ?? '',
				button_content: JSON.stringify(params.buttons ?? []),
				template_json: JSON.stringify({
					name: params.name,
					language,
					category: params.category,
					components: [{ type: 'BODY', text: bodyText }],
				}),
				button_type: String(
					((params.buttons ?? [])[0] as Record<string, unknown> | undefined)?.type ?? '',
				),
				variable_map: JSON.stringify({
					header: [],
					body: labels(variableMap.body as Record<string, string>),
				}),
				updated_at: state.now(),
				user_id: 1,
				status: 'Submitted',
				system_template: '0',
				map_needed: '1',
				check_wp_type: templateType,
				category: params.category,
				quality_score: { score: 'UNKNOWN' },
				rejected_reason: null,
			};
			state.templates.push(template);
			return ok({
				message: TEMPLATE_CREATED_TEXT,
				data: {
					id,
					template_id: template.template_id,
					template_name: params.name,
					template_type: templateType,
					category: params.category,
					language,
					status: 'Submitted',
					variable_map: variableMap,
				},
			});
		},
	},
	{
		path: '/whatsapp/template/status',
		json: true,
		params: z.object({
			phone_number_id: p.required,
			template_id: z.preprocess(
				(value) => (typeof value === 'number' ? String(value) : value),
				p.required,
			),
		}),
		handle: ({ params, state }) => {
			const template = state.templates.find(
				(entry) =>
					entry.phone_number_id === params.phone_number_id &&
					String(entry.template_id) === params.template_id,
			);
			if (!template) return fail('Message template not found.');
			const {
				template_id,
				template_name,
				status,
				category,
				locale,
				quality_score,
				rejected_reason,
			} = template;
			return ok({
				message: 'Template status fetched successfully.',
				data: {
					template_id,
					template_name,
					status,
					category,
					language: locale,
					quality_score,
					rejected_reason,
				},
			});
		},
	},
	{
		path: '/whatsapp/broadcast/template/send',
		params: z.object({ phone_number_id: p.required, flow_data: p.json }),
		handle: ({ params, state }) => {
			if (!state.bot(params.phone_number_id)) return fail(ACCOUNT_NOT_FOUND);
			// flow_data's structure is not in the spec: kept as sent. Over the package's cap, broadcasting is refused.
			if (state.subscribers.length > state.subscriberLimit) return fail(SUBSCRIBER_LIMIT_TEXT);
			const id = state.nextId();
			state.broadcasts.push({
				visual_flow_campaign_id: id,
				phone_number_id: params.phone_number_id,
				flow_data: JSON.parse(params.flow_data),
				created_at: state.now(),
			});
			return ok({
				visual_flow_campaign_id: id,
				message: 'Data has been saved successfully.',
				redirect_on_success_url: `/whatsapp/broadcast/campaign/${id}`,
			});
		},
	},
	{
		path: '/ai/get_response',
		params: z.object({ param: p.json }),
		handle: ({ params, state }) => {
			// The payload of a successful AI response is not shown in the spec: only the boolean status is returned.
			state.aiRequests.push({ param: JSON.parse(params.param), at: state.now() });
			return { status: true };
		},
	},
];

/** Every route of the group. */
export const messagingRoutes: Route[] = [...messagingReadRoutes, ...messagingWriteRoutes];
