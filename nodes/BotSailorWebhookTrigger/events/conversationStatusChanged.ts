import type { IDataObject } from 'n8n-workflow';
import { botOf, chatId, customerIds, customerOf, senderName, fieldText } from '../payload/fields';
import { botSettingsStep, setupNotice, type WebhookEvent } from '../payload/event';

const EVENT = 'conversationStatusChanged';

/** `conversation.resolved` → `resolved`; the body's `action` where present. */
function actionOf(body: IDataObject): string {
	return fieldText(body, 'action') || fieldText(body, 'event').replace(/^conversation\./, '');
}

export const conversationStatusChanged: WebhookEvent = {
	value: EVENT,
	name: 'Conversation Status Changed',
	description: 'A conversation was resolved, reopened, archived, blocked or unblocked',
	setup: setupNotice(botSettingsStep('Conversation Status')),
	properties: [],
	matches: (body) =>
		fieldText(body, 'event').startsWith('conversation.') ||
		(fieldText(body, 'action') !== '' && fieldText(body, 'changed_at') !== ''),
	key(body) {
		const time = fieldText(body, 'changed_at');
		return {
			key: `conversation:${botOf(body)}|${customerOf(body)}|${fieldText(body, 'event')}|${actionOf(body)}|${time}|${fieldText(body, 'agent_name')}`,
			life: time ? 'id' : 'content',
		};
	},
	item: async ({ phoneNumberId }, body) => ({
		action: actionOf(body),
		conversation_event: fieldText(body, 'event'),
		agent_name: fieldText(body, 'agent_name') || null,
		changed_at: fieldText(body, 'changed_at') || null,
		phone_number: chatId(body),
		subscriber_name: senderName(body),
		subscriber_id: fieldText(body, 'subscriber_id') || null,
		phone_number_id: phoneNumberId,
		...customerIds(body),
	}),
};
