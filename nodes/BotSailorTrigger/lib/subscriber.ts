import type { IDataObject } from 'n8n-workflow';
import { decodeJsonFields } from '../../BotSailor/shared/jsonStrings';
import { isIncoming, subscriberName } from './api';
import { flatMessageFields } from './messageContent';

/**
 * A conversation message as the trigger emits it: decoded, with its text, type and caption as flat
 * fields (`text`, `message_type`, `caption`), who it is from and where it arrived.
 */
export function messageItem(message: IDataObject, subscriber: IDataObject, phoneNumberId: string): IDataObject {
	const decoded = decodeJsonFields(message);
	const main: IDataObject = {
		...flatMessageFields(decoded.message_content),
		direction: isIncoming(message) ? 'incoming' : 'outgoing',
		phone_number: String(subscriber.chat_id ?? message.whatsapp_bot_subscriber_subscriber_id ?? ''),
		subscriber_name: subscriberName(subscriber),
	};
	// What a workflow reads most comes first (n8n's table view keeps this order); the record's own fields cannot override it.
	return { ...main, ...decoded, ...main, subscriber_id: subscriber.subscriber_id, phone_number_id: phoneNumberId };
}
