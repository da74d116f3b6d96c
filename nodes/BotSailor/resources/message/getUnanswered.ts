import type {
	DeclarativeRestApiSettings,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';
import { walkBack } from '../../../shared/conversation/conversation';
import { subscriberKeys, validateBody, z } from '../../../shared/parameters/inputs';
import { isIncoming } from '../../../shared/conversation/messageItem';
import {
	conversationOf,
	transcriptMessage,
	type TranscriptMessage,
} from '../../reading/transcript';
import { recipient, whatsAppNumber } from '../common';
import type { OperationContext, OperationDescription } from '../resource';

/** At most this many customer messages in a row are read (the newest 4 pages hold them). */
export const MAX_UNANSWERED = 200;

/**
 * Message → Get Unanswered, one input item: the customer's messages since the last message sent to them (by the
 * bot, an agent, a sequence, an automation or the platform's AI agent), oldest first, joined; panel events (sender
 * `system`) are neither. Reads from the newest message back and stops at the first reply. With a Message ID (the
 * message that started this execution): whether it is still the newest, so that of a burst of messages, each
 * starting an execution, only the last one answers.
 */
async function getUnanswered(
	this: OperationContext,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const itemIndex = this.getItemIndex();
	const messageId = String(this.getNodeParameter('messageId', '') ?? '').trim();
	const source = await conversationOf(this, requestData.options as IHttpRequestOptions);
	// Back to the first message sent to the customer: every message newer than it is theirs.
	const walk = await walkBack(source, (row) => !isIncoming(row), { maxNewer: MAX_UNANSWERED });
	const unanswered: TranscriptMessage[] = walk.newer.map(transcriptMessage);
	const lastReply = walk.at ? transcriptMessage(walk.at) : undefined;
	const newest = unanswered[0];
	const position = messageId
		? unanswered.findIndex((message) => message.wa_message_id === messageId)
		: -1;
	unanswered.reverse();
	return [
		{
			json: {
				phone_number: source.chatId,
				text: unanswered
					.map((message) => message.text)
					.filter((part) => part !== '')
					.join('\n'),
				count: unanswered.length,
				first_at: unanswered[0]?.at ?? null,
				last_at: newest?.at ?? null,
				newest_wa_message_id: newest?.wa_message_id ?? null,
				...(messageId
					? {
							message_id: messageId,
							// This execution's message is the newest unanswered one: answer now.
							is_newest: position === 0,
							// Newer customer messages came after it: a later execution answers them all.
							newer_message_arrived: position > 0,
							// It is no longer unanswered: a reply was sent after it (or it is not in this conversation).
							already_answered: position < 0,
						}
					: {}),
				last_reply_at: lastReply?.at ?? null,
				last_reply_role: lastReply?.role ?? null,
				messages: unanswered,
			},
			pairedItem: { item: itemIndex },
		},
	];
}

export const getUnansweredOperation: OperationDescription = {
	kind: 'read',
	execute: getUnanswered,
	toolDescription:
		"Get the subscriber's messages that nobody has answered yet (everything they wrote since the last message sent to them), joined in order, with how many there are. Use it to answer several short messages in one reply.",
	returnsCustomerText: true,
	option: {
		name: 'Get Unanswered',
		value: 'getUnanswered',
		action: 'Get the unanswered messages of a subscriber',
		description:
			"Get the subscriber's messages since the last message sent to them, joined, and whether a given message is still the newest",
		routing: {
			request: { url: '/whatsapp/get/conversation' },
			send: {
				preSend: [
					validateBody(() =>
						z.object({
							...subscriberKeys,
						}),
					),
				],
			},
		},
	},
	fields: [
		whatsAppNumber(),
		recipient(),
		{
			displayName: 'Message ID',
			name: 'messageId',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.wa_message_id }}',
			description:
				'The wa_message_id of the message that started this execution (optional): the output then says whether it is still the newest unanswered message (is_newest)',
		},
	],
};
