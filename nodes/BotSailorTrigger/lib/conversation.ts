import type { IPollFunctions } from 'n8n-workflow';
import { openConversation, type ConversationRead } from '../../shared/conversation';
import { botSailorRequest } from '../../shared/transport';
import { CONVERSATION_PAGE_SIZE, earlierForm } from './api';

export type { ConversationRead } from '../../shared/conversation';

/**
 * The conversation of `chatId`, newest messages first, through the shared reader (shared/conversation.ts:
 * either page order, lists as JSON text); `lastPageHint` is a `lastPage` returned by an earlier read.
 */
export async function readConversation(
	context: IPollFunctions,
	phoneNumberId: string,
	chatId: string,
	lastPageHint?: number,
): Promise<ConversationRead> {
	return await openConversation(
		{
			node: context.getNode(),
			chatId,
			earlierForm: await earlierForm(context),
			fetch: async (page) =>
				await botSailorRequest.call(context, '/whatsapp/get/conversation', {
					phone_number_id: phoneNumberId,
					phone_number: chatId,
					...(page === undefined ? {} : { limit: CONVERSATION_PAGE_SIZE, offset: page }),
				}),
		},
		lastPageHint,
	);
}
