import type { IPollFunctions } from 'n8n-workflow';
import {
	conversationSource,
	openConversation,
	type ConversationRead,
} from '../../shared/conversation/conversation';
import { botSailorRequest } from '../../shared/http/transport';
import { earlierForm } from './api';

export type { ConversationRead } from '../../shared/conversation/conversation';

/**
 * The conversation of `chatId`, newest messages first, through the shared reader (shared/conversation/conversation.ts:
 * either page order, lists as JSON text); `lastPageHint` is a `lastPage` returned by an earlier read.
 */
export async function readSubscriberConversation(
	context: IPollFunctions,
	phoneNumberId: string,
	chatId: string,
	lastPageHint?: number,
): Promise<ConversationRead> {
	return await openConversation(
		conversationSource(
			context.getNode(),
			{ phone_number_id: phoneNumberId, phone_number: chatId },
			await earlierForm(context),
			async (body) => await botSailorRequest.call(context, '/whatsapp/get/conversation', body),
		),
		lastPageHint,
	);
}
