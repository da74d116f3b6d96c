import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { conversationSource, findInConversation } from '../../shared/conversation/conversation';
import { listRecords } from '../../shared/http/envelope';
import { botSailorRequest, usesEarlierForm } from '../../shared/http/transport';
import { messageItem } from '../../shared/conversation/messageItem';
import { errorMessage } from '../../shared/parameters/values';

/**
 * How far back the message is looked for, in pages of 50 from the newest: the webhook arrives right
 * after the message was written, so it is on the newest page unless a burst followed it.
 */
const MAX_PAGES = 4;

export type FullMessage = { item: IDataObject } | { error: string };

/**
 * "Fetch Full Message": the message record from the conversation (the shared reader, so either page
 * order and lists as JSON text) and the subscriber's record, made into exactly the item the polling
 * trigger's New Message event outputs (same function). The two reads run at once. A failure is
 * returned, not thrown: the platform does not deliver a webhook again, so the event must still start
 * the workflow (with the fields the webhook carried).
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
		const conversation = conversationSource(
			context.getNode(),
			{ phone_number_id: phoneNumberId, phone_number: phoneNumber },
			await usesEarlierForm(context),
			async (body) => await botSailorRequest.call(context, '/whatsapp/get/conversation', body),
		);
		const [message, subscriber] = await Promise.all([
			findInConversation(
				conversation,
				(record) => String(record.wa_message_id ?? '') === waMessageId,
				{ maxPages: MAX_PAGES },
			),
			botSailorRequest.call(context, '/whatsapp/subscriber/get', {
				phone_number_id: phoneNumberId,
				phone_number: phoneNumber,
			}),
		]);
		if (!message)
			return {
				error: `The message was not among the latest ${MAX_PAGES * 50} of the conversation`,
			};
		const person = (listRecords(subscriber) ?? [])[0] ?? { chat_id: phoneNumber };
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
