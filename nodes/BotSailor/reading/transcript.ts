import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import {
	conversationSource,
	type ConversationSource,
} from '../../shared/conversation/conversation';
import { decodeJsonFields } from '../../shared/parameters/jsonStrings';
import { innerMessage } from '../../shared/conversation/messageContent';
import { rowFields } from '../../shared/conversation/messageItem';
import { sendRequest, usesEarlierForm } from '../../shared/http/transport';
import { isRecord, requestBody, text } from '../../shared/parameters/values';
import type { OperationContext } from '../running/operationRequest';

/**
 * A conversation as a model reads it (Message → Get Transcript and Get Unanswered): each row of the one
 * conversation reader (nodes/shared/conversation/conversation.ts) as a role-tagged line, `customer:`, `bot:`,
 * `agent <name>:` or `system:`, media as `[photo: caption]`, templates as their body text.
 *
 * Customer text is data (issue 42): every text a row carries (messages, captions, file and place names, the
 * agent's name) is folded onto one line by `foldText`, so a message is exactly one line and every line starts
 * with the speaker the platform recorded; no text a customer writes can start a line.
 */

/**
 * Whatever can start a new line or hide text for a reader: C0 and C1 control characters (line feed, carriage
 * return, vertical tab, form feed, NEL U+0085 among them), the Unicode line and paragraph separators
 * (U+2028, U+2029), and the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069), which make
 * text display in another order than a model reads it.
 */
const LINE_BREAKING = /[\p{Cc}\p{Zl}\p{Zp}\u202a-\u202e\u2066-\u2069]/gu;

/**
 * A text on one line: each line break and control character (LINE_BREAKING) becomes a space, and every run of
 * white space one space, so that no text can start a line of a transcript or pad its way to look like one.
 */
export function foldText(value: string): string {
	return value.replace(LINE_BREAKING, ' ').replace(/\s+/g, ' ').trim();
}

/** The conversation of the operation's request (phone_number_id and phone_number already checked by its preSend). */
export async function conversationOf(
	context: OperationContext,
	request: IHttpRequestOptions,
): Promise<ConversationSource> {
	const body = requestBody(request);
	return conversationSource(
		context.getNode(),
		{ phone_number_id: body.phone_number_id, phone_number: body.phone_number },
		await usesEarlierForm(context),
		async (fields) =>
			await sendRequest.call(context, { ...request, body: fields }, context.getItemIndex()),
	);
}

/** Who wrote a row, in the words a model reads: the subscriber is the customer; bot, sequence, automation and AI agent are the bot. */
export type Role = 'customer' | 'bot' | 'agent' | 'system';

export function roleOf(sender: string): Role {
	if (sender === 'user') return 'customer';
	if (sender === 'agent') return 'agent';
	if (sender === 'system') return 'system';
	return 'bot';
}

/** What a media message is called in a transcript. */
const MEDIA_WORDS: Record<string, string> = {
	image: 'photo',
	video: 'video',
	audio: 'audio',
	document: 'document',
	sticker: 'sticker',
	location: 'location',
	contacts: 'contact card',
	order: 'order',
};

/** A row's text for a model: its text, or its media in brackets (`[photo: caption]`, `[voice note]`). */
function readableText(row: IDataObject, fields: IDataObject): string {
	const type = String(fields.message_type ?? '');
	const body = String(fields.text ?? '');
	const decoded = decodeJsonFields(row);
	const inner = innerMessage(decoded.message_content);
	const content = isRecord(inner) && isRecord(inner[type]) ? inner[type] : {};
	if (type === 'audio') return content.voice === true ? '[voice note]' : '[audio]';
	if (type === 'document') {
		const detail = text(content.caption) ?? text(content.filename);
		return detail ? `[document: ${detail}]` : '[document]';
	}
	if (type === 'location') {
		const detail = [text(content.name), text(content.address)].filter(Boolean).join(', ');
		return detail ? `[location: ${detail}]` : '[location]';
	}
	if (type === 'reaction') return body ? `[reaction: ${body}]` : '[reaction]';
	if (type in MEDIA_WORDS)
		return body ? `[${MEDIA_WORDS[type]}: ${body}]` : `[${MEDIA_WORDS[type]}]`;
	if (body) return body;
	return type && type !== 'text' ? `[${type}]` : '';
}

/** One message of a transcript, as the structured output carries it. */
export interface TranscriptMessage extends IDataObject {
	role: Role;
	/** The agent's name, for `agent` rows that carry one. */
	name: string | null;
	sender: string;
	text: string;
	message_type: string;
	at: string;
	wa_message_id: string | null;
}

export function transcriptMessage(row: IDataObject): TranscriptMessage {
	const fields = rowFields(row);
	const sender = String(fields.sender);
	const role = roleOf(sender);
	const agentName = role === 'agent' ? foldText(text(row.agent_name) ?? '') : '';
	return {
		role,
		name: agentName || null,
		sender,
		text: foldText(readableText(row, fields)),
		message_type: String(fields.message_type ?? ''),
		at: String(row.conversation_time ?? ''),
		wa_message_id: text(row.wa_message_id) ?? null,
	};
}

/** `customer: …`, `agent Alex:` …; with the time first when asked. The message's text is already on one line (foldText). */
export function transcriptLine(message: TranscriptMessage, withTime = false): string {
	const who = message.role === 'agent' && message.name ? `agent ${message.name}` : message.role;
	const line = `${who}: ${foldText(message.text)}`;
	const at = foldText(message.at);
	return withTime && at ? `[${at}] ${line}` : line;
}

/**
 * A time to compare with the platform's `conversation_time` (YYYY-MM-DD HH:MM:SS, the platform's own clock,
 * no zone): the wall-clock part of what was given, as written (a zone suffix is not converted). Undefined when
 * the value is no date.
 */
export function platformTime(value: unknown): string | undefined {
	const given = value instanceof Date ? value.toISOString() : String(value ?? '').trim();
	const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(:\d{2})?)?/.exec(given);
	if (!match) return undefined;
	const [, date, hm, seconds] = match;
	const when = `${date} ${hm ?? '00:00'}${seconds ?? ':00'}`;
	return Number.isNaN(Date.parse(when.replace(' ', 'T') + 'Z')) ? undefined : when;
}
