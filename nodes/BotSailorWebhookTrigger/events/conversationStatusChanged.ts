import type { IDataObject } from 'n8n-workflow';
import { botOf, chatId, subscriberName, text } from '../payload/fields';
import { botSettingsStep, setupNotice, type WebhookEvent } from '../payload/event';

const EVENT = 'conversationStatusChanged';

/** `conversation.resolved` → `resolved`; the body's `action` where present. */
function actionOf(body: IDataObject): string {
	return text(body, 'action') || text(body, 'event').replace(/^conversation\./, '');
}

export const conversationStatusChanged: WebhookEvent = {
	value: EVENT,
	name: 'Conversation Status Changed',
	description: 'A conversation was resolved, reopened, archived, blocked or unblocked',
	setup: setupNotice(botSettingsStep('Conversation Status')),
	properties: [],
	matches: (body) =>
		text(body, 'event').startsWith('conversation.') ||
		(text(body, 'action') !== '' && text(body, 'changed_at') !== ''),
	key(body) {
		const time = text(body, 'changed_at');
		return {
			key: `conversation:${botOf(body)}|${chatId(body)}|${text(body, 'event')}|${actionOf(body)}|${time}|${text(body, 'agent_name')}`,
			life: time ? 'id' : 'content',
		};
	},
	item: async ({ phoneNumberId }, body) => ({
		action: actionOf(body),
		conversation_event: text(body, 'event'),
		agent_name: text(body, 'agent_name') || null,
		changed_at: text(body, 'changed_at') || null,
		phone_number: chatId(body),
		subscriber_name: subscriberName(body),
		subscriber_id: text(body, 'subscriber_id') || null,
		phone_number_id: phoneNumberId,
	}),
};
