import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { listRecords } from '../../shared/envelope';
import { botSailorRequest } from '../../shared/transport';
import { messageItem } from '../../shared/messageItem';
import { errorMessage } from '../../shared/values';

/** The conversation page read to find the message: its newest messages (the webhook arrives right after it was written). */
const CONVERSATION_PAGE_SIZE = 50;

const records = (envelope: IDataObject): IDataObject[] => listRecords(envelope) ?? [];

export type FullMessage = { item: IDataObject } | { error: string };

/**
 * "Fetch Full Message": the message record from the conversation endpoint and the subscriber's record,
 * made into exactly the item the polling trigger's New Message event outputs (same function). Two
 * requests, made at once. A failure is returned, not thrown: the platform does not deliver a webhook
 * again, so the event must still start the workflow (with the fields the webhook carried).
 */
export async function fetchFullMessage(
	context: IWebhookFunctions,
	phoneNumberId: string,
	phoneNumber: string,
	waMessageId: string,
): Promise<FullMessage> {
	// The credential is optional on this node (receiving needs none): say so rather than try without it.
	if (!context.getNode().credentials?.botSailorApi)
		return {
			error:
				'Reading the message from the platform needs a BotSailor API credential: choose one in the node',
		};
	if (!phoneNumberId) return { error: 'Fetch Full Message needs the WhatsApp Number' };
	if (!waMessageId)
		return { error: 'The webhook carried no wa_message_id to look the message up by' };
	try {
		const [conversation, subscriber] = await Promise.all([
			botSailorRequest.call(context, '/whatsapp/get/conversation', {
				phone_number_id: phoneNumberId,
				phone_number: phoneNumber,
				limit: CONVERSATION_PAGE_SIZE,
				offset: 1,
			}),
			botSailorRequest.call(context, '/whatsapp/subscriber/get', {
				phone_number_id: phoneNumberId,
				phone_number: phoneNumber,
			}),
		]);
		const message = records(conversation).find(
			(record) => String(record.wa_message_id ?? '') === waMessageId,
		);
		if (!message)
			return {
				error: `The message was not among the latest ${CONVERSATION_PAGE_SIZE} of the conversation`,
			};
		const person = records(subscriber)[0] ?? { chat_id: phoneNumber };
		return {
			item: messageItem(
				message,
				{ ...person, chat_id: person.chat_id ?? phoneNumber },
				phoneNumberId,
			),
		};
	} catch (error) {
		// The request code's errors carry the platform's text with the token redacted, never the request.
		return { error: errorMessage(error) };
	}
}
