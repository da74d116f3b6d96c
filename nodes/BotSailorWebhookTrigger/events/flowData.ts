import {
	botOf,
	canonical,
	chatId,
	customerIds,
	customerOf,
	decoded,
	senderName,
	fieldText,
} from '../payload/fields';
import { setupNotice, type WebhookEvent } from '../payload/event';

const EVENT = 'flowData';

export const flowData: WebhookEvent = {
	value: EVENT,
	name: 'Flow Data',
	description: 'A bot flow\'s "Forward Data to Webhook" step sent the data it collected',
	setup: setupNotice(
		'In BotSailor open the bot flow, add or open its <b>Forward Data to Webhook</b> step, paste the URL and save the flow.',
	),
	properties: [],
	matches: (body) => 'postbackid' in body || 'user_input_data' in body,
	key: (body) => ({
		// No id and no time in these bodies: identical data within the Duplicate Window counts as one delivery.
		key: `flow:${botOf(body)}|${customerOf(body)}|${fieldText(body, 'postbackid')}|${fieldText(body, 'user_message')}|${canonical(decoded(body.user_input_data))}`,
		life: 'content',
	}),
	item: async ({ phoneNumberId }, body) => ({
		text: fieldText(body, 'user_message'),
		postback_id: fieldText(body, 'postbackid'),
		user_input_data: (decoded(body.user_input_data) ?? null) as never,
		phone_number: chatId(body),
		subscriber_name: senderName(body),
		whatsapp_bot_username: fieldText(body, 'whatsapp_bot_username') || null,
		phone_number_id: phoneNumberId,
		...customerIds(body),
	}),
};
