import type { IDataObject } from 'n8n-workflow';
import { withMedia } from '../../shared/whatsapp/mediaDownload';
import { fetchFullMessage } from '../payload/fullMessage';
import { chatId, customerIds, fieldText, integerOrText, senderName } from '../payload/fields';
import { showForEvents } from '../../shared/triggers/triggerOptions';
import { botSettingsStep, setupNotice, type WebhookEvent } from '../payload/event';

const EVENT = 'incomingMessage';

/**
 * Media arrive as a placeholder text, e.g. `#ATTACHMENT:Photo# the caption` (seen by an integrator; the
 * real media link is only in the conversation endpoint's message_content: "Fetch Full Message").
 */
const ATTACHMENT = /^#ATTACHMENT:([A-Za-z ]+)#\s*([\s\S]*)$/;
const MEDIA_TYPES: Record<string, string> = {
	photo: 'image',
	image: 'image',
	picture: 'image',
	video: 'video',
	audio: 'audio',
	voice: 'audio',
	document: 'document',
	file: 'document',
	sticker: 'sticker',
};

/** `text`, `message_type` and `caption` as the polling trigger derives them from message_content, here from the webhook's text. */
export function flatFieldsOfText(userMessage: string): IDataObject {
	const attachment = ATTACHMENT.exec(userMessage);
	if (!attachment) return { text: userMessage, message_type: 'text' };
	const kind = attachment[1].trim().toLowerCase();
	const caption = attachment[2].trim();
	return {
		text: caption,
		message_type: MEDIA_TYPES[kind] ?? kind,
		...(caption ? { caption } : {}),
	};
}

/**
 * The polling trigger's New Message item (its fields, in its order) from what the webhook carries:
 * what the webhook does not carry (the record id, message_content, conversation_time) is null, and
 * subscriber_id is the webhook's `<phone>-<bot id>` form; "Fetch Full Message" fills them all.
 */
export function messageItemFromWebhook(body: IDataObject, phoneNumberId: string): IDataObject {
	const phoneNumber = chatId(body);
	return {
		// What a workflow reads most first, as the polling trigger orders it.
		...flatFieldsOfText(fieldText(body, 'user_message')),
		direction: 'incoming',
		phone_number: phoneNumber,
		subscriber_name: senderName(body),
		// The conversation record's fields.
		id: null,
		whatsapp_bot_subscriber_subscriber_id: phoneNumber,
		whatsapp_bot_id: integerOrText(body, 'whatsapp_bot_id'),
		sender: 'user',
		agent_name: null,
		message_content: null,
		conversation_time: null,
		wa_message_id: fieldText(body, 'wa_message_id') || null,
		reaction_data: null,
		message_status: null,
		delivery_status_updated_at: null,
		failed_reason: '',
		subscriber_id: fieldText(body, 'subscriber_id') || null,
		phone_number_id: phoneNumberId,
		// Meta's ids of the customer, when given (a customer may have no phone number since 2026).
		...customerIds(body),
	};
}

export const incomingMessage: WebhookEvent = {
	value: EVENT,
	name: 'Incoming Message',
	description: 'A subscriber wrote to the bot',
	setup: setupNotice(
		`${botSettingsStep('Incoming Message')} Leave the other fields empty unless another trigger uses them.`,
	),
	properties: [
		{
			displayName: 'Fetch Full Message',
			name: 'fetchFullMessage',
			type: 'boolean',
			default: false,
			displayOptions: showForEvents([EVENT, 'anyEvent']),
			description:
				'Whether to read the message record from the platform (needs the credential): message_content with media links, conversation_time, the record ID and the numeric subscriber_id, exactly as the polling trigger outputs them. Two API requests per message.',
		},
		{
			displayName: 'Download Media',
			name: 'downloadMedia',
			type: 'boolean',
			default: false,
			displayOptions: showForEvents([EVENT, 'anyEvent']),
			description:
				'Whether to attach the file of a photo, voice note, video or document as binary data (field data). The webhook carries no media link, so a media message is read from the platform first, as Fetch Full Message does (needs the credential); text messages cost nothing. A failed download is reported in media_download_error and the message still starts the workflow.',
		},
	],
	// A post to the node's Outgoing Message URL never gets here (events/outgoingMessage.ts).
	matches: (body) => 'user_message' in body,
	key(body) {
		const id = fieldText(body, 'wa_message_id');
		// The same key as the polling trigger's, so that a workflow with both starts once per message.
		if (id) return { key: `message:${id}`, life: 'id' };
		// Without an id nothing tells a second "yes" from a second delivery of the first: a customer who
		// repeats themselves is not a duplicate, so every such delivery starts the workflow.
		return undefined;
	},
	async item({ context, phoneNumberId }, body) {
		const item = messageItemFromWebhook(body, phoneNumberId);
		const fetch = context.getNodeParameter('fetchFullMessage', false) === true;
		// Download Media needs the media link, which only the message record holds: read it for media messages.
		const forMedia =
			context.getNodeParameter('downloadMedia', false) === true && item.message_type !== 'text';
		if (!fetch && !forMedia) return item;
		// The platform's API reads a conversation by phone number: without one, say so rather than ask.
		if (!chatId(body))
			return {
				...item,
				[fetch ? 'full_message_error' : 'media_download_error']:
					"The message has no phone number (Meta's user_id or username only); the platform's API reads conversations by phone number",
			};
		const full = await fetchFullMessage(
			context,
			phoneNumberId,
			chatId(body),
			fieldText(body, 'wa_message_id'),
		);
		if ('item' in full) return { ...full.item, ...customerIds(body) };
		return { ...item, [fetch ? 'full_message_error' : 'media_download_error']: full.error };
	},
	async emit({ context }, item) {
		if (
			context.getNodeParameter('downloadMedia', false) !== true ||
			item.message_content === null ||
			item.media_download_error
		)
			return { json: item };
		return await withMedia(context, item);
	},
};
