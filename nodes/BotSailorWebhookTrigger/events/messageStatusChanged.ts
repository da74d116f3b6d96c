import type { IDataObject } from 'n8n-workflow';
import { flatMessageFields } from '../../shared/conversation/messageContent';
import {
	botOf,
	chatId,
	customerIds,
	customerOf,
	fieldText,
	firstText,
	integerOrText,
	senderName,
} from '../payload/fields';
import { chosenStatuses, statusesOption } from '../../shared/triggers/triggerOptions';
import { publishStatus } from '../../shared/triggers/statusEvents';
import { refusalFields } from '../../shared/whatsapp/metaRefusals';
import { botSettingsStep, setupNotice, type WebhookEvent } from '../payload/event';

const EVENT = 'messageStatusChanged';

function statusOf(body: IDataObject): string {
	return fieldText(body, 'message_status').toLowerCase();
}

/** The message the status is about: `wa_message_id` where the body has it (not in every report seen). */
function messageIdOf(body: IDataObject): string {
	return firstText(body, ['wa_message_id', 'message_id', 'wamid']);
}

/**
 * The polling trigger's Message Status Changed item (its fields, in its order) from the webhook: the
 * platform's status report carries the status, its time (`status_time`, no time zone) and the failure
 * reason; the message text and previous status are not in it (text '' and previous_status null).
 */
export function statusItemFromWebhook(body: IDataObject, phoneNumberId: string): IDataObject {
	const phoneNumber = chatId(body);
	const status = statusOf(body);
	const item: IDataObject = {
		// What a workflow reads most first, as the polling trigger orders it.
		...flatMessageFields(null),
		direction: 'outgoing',
		phone_number: phoneNumber,
		subscriber_name: senderName(body),
		// The conversation record's fields.
		id: null,
		whatsapp_bot_subscriber_subscriber_id: phoneNumber || null,
		whatsapp_bot_id: integerOrText(body, 'whatsapp_bot_id'),
		sender: null,
		agent_name: null,
		message_content: null,
		conversation_time: null,
		wa_message_id: messageIdOf(body) || null,
		reaction_data: null,
		message_status: status,
		delivery_status_updated_at: fieldText(body, 'status_time') || null,
		failed_reason: fieldText(body, 'failed_reason'),
		subscriber_id: fieldText(body, 'subscriber_id') || null,
		phone_number_id: phoneNumberId,
		previous_status: null,
		...customerIds(body),
	};
	if (status !== 'failed') delete item.failed_reason;
	else Object.assign(item, refusalFields(item.failed_reason));
	return item;
}

/** Whether this process has already logged a status report without wa_message_id (once is enough). */
let warnedWithoutId = false;

/**
 * Hands a status report to the status hub (shared/triggers/statusEvents.ts) for Wait for Delivery's Webhook Trigger
 * Events source, whatever the node's Event and Statuses: only reports with a wa_message_id are kept. The first
 * report without one is logged (a warning, once per process): the platform's webhook is not documented to carry it
 * (SPEC-GAP), and without it the waits fall back on their status reads.
 */
export function publishStatusReport(
	body: IDataObject,
	logger?: { warn(message: string): void },
): void {
	const waMessageId = messageIdOf(body);
	publishStatus({
		waMessageId,
		status: statusOf(body),
		failedReason: fieldText(body, 'failed_reason'),
	});
	if (!waMessageId && statusOf(body) && !warnedWithoutId) {
		warnedWithoutId = true;
		logger?.warn(
			'BotSailor Webhook Trigger: a Message Status report without wa_message_id; Wait for Delivery with Webhook Trigger Events cannot use such reports, its status reads decide',
		);
	}
}

export const messageStatusChanged: WebhookEvent = {
	value: EVENT,
	name: 'Message Status Changed',
	description: 'A message sent by the bot or an agent was sent, delivered, read or failed',
	setup: setupNotice(botSettingsStep('Message Status')),
	properties: [
		statusesOption(
			EVENT,
			'Start the workflow only for changes to these statuses (others are answered and ignored)',
		),
	],
	matches: (body) =>
		fieldText(body, 'webhook_type') === 'message_status_change' ||
		fieldText(body, 'message_status') !== '',
	key(body) {
		const id = messageIdOf(body);
		if (id) return { key: `status:${id}:${statusOf(body)}`, life: 'id' };
		const time = fieldText(body, 'status_time');
		return {
			key: `status:${botOf(body)}|${customerOf(body)}|${statusOf(body)}|${time}|${fieldText(body, 'failed_reason')}`,
			life: time ? 'id' : 'content',
		};
	},
	skipReason(context, body) {
		return chosenStatuses(context).includes(statusOf(body))
			? undefined
			: `status "${statusOf(body)}" is not among the node's Statuses`;
	},
	item: async ({ phoneNumberId }, body) => statusItemFromWebhook(body, phoneNumberId),
};
