import type { IDataObject } from 'n8n-workflow';
import { decodeJsonFields } from '../parameters/jsonStrings';
import { flatMessageFields } from './messageContent';
import { customerIds } from './customer';

/**
 * Who wrote a conversation row: `user` (the subscriber), `bot`, `agent`, `automation`, `sequence`,
 * `ai_agent`, or `system` (a panel event such as "Label added: …", never a WhatsApp message). The
 * platform's own value, lower case; `subscriber` is read as `user`, an empty sender as `agent` when the
 * row names one, else `bot`. SPEC-GAP: the spec shows `user` and `bot`; integrators saw the others.
 */
export function senderKind(message: IDataObject): string {
	const sender = String(message.sender ?? '')
		.trim()
		.toLowerCase();
	if (sender === 'subscriber') return 'user';
	if (sender !== '') return sender;
	return typeof message.agent_name === 'string' && message.agent_name !== '' ? 'agent' : 'bot';
}

/** Whether a conversation message was written by the subscriber (the rest come from the bot, an agent or the platform). */
export function isIncoming(message: IDataObject): boolean {
	return senderKind(message) === 'user';
}

/** Whether a conversation row is a panel event (a label added, an assignment), not a WhatsApp message. */
export function isSystemRow(message: IDataObject): boolean {
	return senderKind(message) === 'system';
}

/** The flat fields of a conversation row: text, message_type, caption (see flatMessageFields) and the sender kind. */
export function rowFields(message: IDataObject): IDataObject {
	const decoded = decodeJsonFields(message);
	const sender = senderKind(message);
	return { ...flatMessageFields(decoded.message_content, sender), sender };
}

export function subscriberName(subscriber: IDataObject): string {
	return [subscriber.first_name, subscriber.last_name]
		.filter((part) => typeof part === 'string' && part !== '' && part !== 'null')
		.join(' ');
}

/**
 * A conversation message as both triggers emit it: decoded, with its text, type and caption as flat
 * fields (`text`, `message_type`, `caption`), who it is from and where it arrived.
 */
export function messageItem(
	message: IDataObject,
	subscriber: IDataObject,
	phoneNumberId: string,
): IDataObject {
	const decoded = decodeJsonFields(message);
	// The sender kind stays where the record has it; the rest of what a workflow reads most comes first.
	const { sender, ...flat } = rowFields(message);
	const main: IDataObject = {
		...flat,
		direction: isIncoming(message) ? 'incoming' : 'outgoing',
		phone_number: String(subscriber.chat_id ?? message.whatsapp_bot_subscriber_subscriber_id ?? ''),
		subscriber_name: subscriberName(subscriber),
	};
	// What a workflow reads most comes first (n8n's table view keeps this order); the record's own fields cannot override it.
	return {
		...main,
		...decoded,
		...main,
		sender,
		subscriber_id: subscriber.subscriber_id,
		phone_number_id: phoneNumberId,
		// Meta's ids of the customer, when the platform gives them (2026): as the Webhook Trigger passes them.
		...customerIds({ ...subscriber, ...message }),
	};
}
