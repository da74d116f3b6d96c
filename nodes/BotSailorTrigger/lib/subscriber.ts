import type { IDataObject } from 'n8n-workflow';
import { decodeJsonFields } from '../../BotSailor/shared/jsonStrings';
import { isIncoming, subscriberName } from './api';

/** A conversation message as the trigger emits it: decoded, with who it is from and where it arrived. */
export function messageItem(message: IDataObject, subscriber: IDataObject, phoneNumberId: string): IDataObject {
	return {
		...decodeJsonFields(message),
		direction: isIncoming(message) ? 'incoming' : 'outgoing',
		phone_number: String(subscriber.chat_id ?? message.whatsapp_bot_subscriber_subscriber_id ?? ''),
		subscriber_name: subscriberName(subscriber),
		subscriber_id: subscriber.subscriber_id,
		phone_number_id: phoneNumberId,
	};
}
