import { z } from 'zod';
import { fail, ok, p, page, type Route } from '../route';
import type { ConversationMessage, Row, SimState } from '../state';

/** The spec's "Conversation message" fields, without the simulator's bookkeeping (phone_number_id, read/failed times). */
export function conversationMessage(message: ConversationMessage) {
	const {
		id, whatsapp_bot_subscriber_subscriber_id, whatsapp_bot_id, sender, agent_name, message_content, conversation_time,
		wa_message_id, reaction_data, message_status, delivery_status_updated_at, failed_reason,
	} = message;
	return {
		id, whatsapp_bot_subscriber_subscriber_id, whatsapp_bot_id, sender, agent_name, message_content, conversation_time,
		wa_message_id, reaction_data, message_status, delivery_status_updated_at, failed_reason,
	};
}

/** The spec's "Message template (template list)" fields; the access token inside template_json is hidden. */
export function listedTemplate(template: Row) {
	const templateJson = (() => {
		try {
			const parsed = JSON.parse(String(template.template_json));
			delete parsed.access_token;
			return JSON.stringify(parsed);
		} catch {
			return template.template_json;
		}
	})();
	return {
		id: template.id, template_id: template.template_id, whatsapp_business_id: template.whatsapp_business_id, template_name: template.template_name,
		template_type: template.template_type, locale: template.locale, header_type: template.header_type, header_subtype: template.header_subtype,
		header_content: template.header_content, body_content: template.body_content, footer_content: template.footer_content,
		button_content: template.button_content, template_json: templateJson, button_type: template.button_type, variable_map: template.variable_map,
		updated_at: template.updated_at, user_id: template.user_id, status: template.status, system_template: template.system_template,
		map_needed: template.map_needed, check_wp_type: template.check_wp_type,
	};
}

/**
 * A subscriber's conversation, newest first (what a chat API returns: page 1 is the latest messages;
 * ties on the timestamp fall back to the later record first).
 */
export function conversationOf(state: SimState, phoneNumberId: string, phoneNumber: string): ConversationMessage[] {
	return state.messages
		.filter((message) => message.phone_number_id === phoneNumberId && message.whatsapp_bot_subscriber_subscriber_id === phoneNumber)
		.sort((a, b) => b.conversation_time.localeCompare(a.conversation_time) || b.id - a.id);
}

const limit50 = p.integer.refine((value) => Number(value) >= 1 && Number(value) <= 50, 'must be between 1 and 50');

/** Reads of the spec's "Account and messaging group". */
export const messagingReadRoutes: Route[] = [
	{
		path: '/whatsapp/get/conversation',
		params: z.object({ phone_number_id: p.required, phone_number: p.required, limit: limit50, offset: p.integer.optional() }),
		handle: ({ params, state }) => {
			const rows = conversationOf(state, params.phone_number_id, params.phone_number).map(conversationMessage);
			return ok(page(rows, params.limit, params.offset, { defaultLimit: 50, maxLimit: 50 }));
		},
	},
	{
		path: '/whatsapp/get/message-status',
		params: z.object({ wa_message_id: p.required }),
		handle: ({ params, state }) => {
			const message = state.messages.find((entry) => entry.wa_message_id === params.wa_message_id);
			// Failure text for an unknown id: not shown in the spec; a plain reason is returned.
			if (!message) return fail('Message not found.');
			const { message_status, delivery_status_updated_at, read_time, failed_time, failed_reason } = message;
			return ok({ message: { message_status, delivery_status_updated_at, read_time, failed_time, failed_reason } });
		},
	},
	{
		path: '/whatsapp/template/list',
		params: z.object({ phone_number_id: p.required }),
		handle: ({ params, state }) => ok({ message: state.templates.filter((entry) => entry.phone_number_id === params.phone_number_id).map(listedTemplate) }),
	},
];

/** Every route of the group (writes are added below as they are built). */
export const messagingRoutes: Route[] = [...messagingReadRoutes];
