import { chatId, fieldText } from '../payload/fields';
import { setupNotice, type WebhookEvent } from '../payload/event';
import { messageItemFromWebhook } from './incomingMessage';

export const OUTGOING_EVENT = 'outgoingMessage';

/**
 * The name of the node's second webhook (path `outgoing`): what the platform posts there is an outgoing
 * message, whatever it carries. n8n 2.41 types a webhook's name as 'default' | 'setup'; 'setup' is only
 * a name here.
 */
export const OUTGOING_WEBHOOK = 'setup';

/**
 * The outgoing-message webhook. One deployment posts the same flat shape as an incoming message, text
 * included (spec/webhooks.md); another carries no text. Nothing in the body tells it from a customer's
 * message, so it has its own URL: a post to it is outgoing, never incoming (a bot that answered its own
 * messages would loop).
 */
export const outgoingMessage: WebhookEvent = {
	value: OUTGOING_EVENT,
	name: 'Outgoing Message',
	description:
		'The bot, an agent or an automation sent a message (posted to the Outgoing Message URL)',
	setup: setupNotice(
		'In BotSailor open <b>Bot Settings → Webhook</b> of this WhatsApp number, paste the <b>Outgoing Message</b> Production URL (the one ending in <code>/outgoing</code>) into the <b>Outgoing Message</b> field, and select <b>Publish Changes</b>. The other URL ending in <code>/webhook</code> is for the other fields: never paste it into Outgoing Message, or sent messages start the workflow as incoming ones.',
		'Outgoing Message',
	),
	properties: [],
	// Never recognised by its body: only a post to the Outgoing Message URL is this event.
	matches: () => false,
	key(body) {
		const id = fieldText(body, 'wa_message_id');
		// The polling trigger's key, so that a workflow with both starts once per message.
		return id ? { key: `message:${id}`, life: 'id' } : undefined;
	},
	async item({ phoneNumberId }, body) {
		const sender = fieldText(body, 'sender').toLowerCase();
		return {
			...messageItemFromWebhook(body, phoneNumberId),
			direction: 'outgoing',
			phone_number: chatId(body),
			sender: sender === '' || sender === 'user' ? 'bot' : sender,
		};
	},
};
