import { botOf, canonical, chatId, decoded, subscriberName, text } from '../lib/fields';
import type { WebhookEvent } from '../lib/event';

const EVENT = 'flowData';

export const flowData: WebhookEvent = {
	value: EVENT,
	name: 'Flow Data',
	description: 'A bot flow\'s "Forward Data to Webhook" step sent the data it collected',
	setup:
		'<b>Setup</b>: 1. Open "Webhook URLs" above and copy the <b>Production URL</b> (with <code>?secret=</code> and the secret at its end if you set a Secret below). ' +
		'Publish (activate) this workflow. 2. In BotSailor open the bot flow, add or open its <b>Forward Data to Webhook</b> step, paste the URL and save the flow. ' +
		'The <b>Test URL</b> only answers while this editor is listening, for one delivery.',
	properties: [],
	matches: (body) => 'postbackid' in body || 'user_input_data' in body,
	key: (body) => ({
		// No id and no time in these bodies: identical data within the Duplicate Window counts as one delivery.
		key: `flow:${botOf(body)}|${chatId(body)}|${text(body, 'postbackid')}|${text(body, 'user_message')}|${canonical(decoded(body.user_input_data))}`,
		life: 'content',
	}),
	item: async ({ phoneNumberId }, body) => ({
		text: text(body, 'user_message'),
		postback_id: text(body, 'postbackid'),
		user_input_data: (decoded(body.user_input_data) ?? null) as never,
		phone_number: chatId(body),
		subscriber_name: subscriberName(body),
		whatsapp_bot_username: text(body, 'whatsapp_bot_username') || null,
		phone_number_id: phoneNumberId,
	}),
};
