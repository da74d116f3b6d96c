import type { IDataObject } from 'n8n-workflow';
import { decodeJsonFields } from './jsonStrings';
import { flatMessageFields } from './messageContent';

/** Whether a conversation message was written by the subscriber (the rest come from the bot or an agent). */
export function isIncoming(message: IDataObject): boolean {
	const sender = String(message.sender ?? '').toLowerCase();
	return sender === 'user' || sender === 'subscriber';
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
	const main: IDataObject = {
		...flatMessageFields(decoded.message_content),
		direction: isIncoming(message) ? 'incoming' : 'outgoing',
		phone_number: String(subscriber.chat_id ?? message.whatsapp_bot_subscriber_subscriber_id ?? ''),
		subscriber_name: subscriberName(subscriber),
	};
	// What a workflow reads most comes first (n8n's table view keeps this order); the record's own fields cannot override it.
	return {
		...main,
		...decoded,
		...main,
		subscriber_id: subscriber.subscriber_id,
		phone_number_id: phoneNumberId,
	};
}
