import type { IDataObject, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';
import { jsonFromText } from '../parameters/jsonStrings';
import { isRecord } from '../parameters/values';
import { botSailorRequest, usesEarlierForm } from '../http/transport';
import { chatLinksIn, linkOfButtonId, parseButtonId, type ChatLink } from './answerBinding';
import { conversationRows, conversationSource } from './conversation';
import { innerMessage } from './messageContent';
import { isIncoming } from './messageItem';

/**
 * Which waiting Send and Wait question an incoming message answers, from the subscriber's conversation (one read): a
 * tap on a reply button, a tap on a template's quick-reply button, or the next message after a Free Text question.
 * The link found is not verified here (answerTaking.ts checks it under the key).
 */

/** Every string inside a decoded message_content (the question's text wherever the deployment keeps it). */
function stringsOf(value: unknown, out: string[] = []): string[] {
	if (typeof value === 'string') out.push(value);
	else if (Array.isArray(value)) for (const entry of value) stringsOf(entry, out);
	else if (isRecord(value)) for (const entry of Object.values(value)) stringsOf(entry, out);
	return out;
}

const contentOf = (row: IDataObject): unknown => {
	const raw = row.message_content;
	return typeof raw === 'string' ? (jsonFromText(raw) ?? raw) : raw;
};

/** The reply button a row's message tapped (Meta's `interactive.button_reply.id`), if any. */
function tappedButtonId(row: IDataObject): string | undefined {
	const inner = innerMessage(contentOf(row));
	if (!isRecord(inner)) return undefined;
	const interactive = inner.interactive;
	if (isRecord(interactive) && isRecord(interactive.button_reply)) {
		const id = interactive.button_reply.id;
		return typeof id === 'string' ? id : undefined;
	}
	// A template's quick-reply button (Meta's `button.payload`).
	if (isRecord(inner.button) && typeof inner.button.payload === 'string')
		return inner.button.payload;
	return undefined;
}

/**
 * The text of a template's quick-reply button a row's message tapped, if any.
 * SPEC-GAP: the spec does not show what the platform passes back on such a tap; assumed Meta's shape (the incoming
 * message `{ type: 'button', button: { text, payload } }`, the text being the button's).
 */
function tappedTemplateButton(row: IDataObject): string | undefined {
	const inner = innerMessage(contentOf(row));
	if (!isRecord(inner) || !isRecord(inner.button)) return undefined;
	const { text, payload } = inner.button;
	if (typeof text === 'string' && text) return text;
	return typeof payload === 'string' && payload ? payload : undefined;
}

const chatLinksOfRow = (row: IDataObject) => chatLinksIn(stringsOf(contentOf(row)).join('\n'));

/** A question's reply buttons that carry their answer link (`bsw2:` ids, issue 53), in a bot's row. */
const boundButtonsOfRow = (row: IDataObject) =>
	stringsOf(contentOf(row)).flatMap((value) => linkOfButtonId(value) ?? []);

/** Where an answer is taken: the Webhook Trigger's webhook, the polling trigger's poll. */
export type AnswerContext = IWebhookFunctions | IPollFunctions;

export interface IncomingMessage {
	/**
	 * The subscriber's newest conversation page, already read for this message (the polling trigger's poll, issue 54):
	 * the answer is found in it, with no read of its own.
	 */
	page?: IDataObject[];
	phoneNumberId: string;
	/** The sender (chat_id). */
	phoneNumber: string;
	waMessageId: string;
	text: string;
	name?: string;
}
/**
 * The answer a message gives: the question's link, the value, and the message's id (as its row has it). `prompt`: a tap
 * on Edit, or on a Free Text question's button: not an answer yet, the person is asked for the text (their next message).
 */
export interface AnsweredQuestion {
	link: ChatLink;
	value: string;
	message: string;
	prompt?: boolean;
}

/** The next message after a tap on one of these answers is the text (the correction, the Free Text answer). */
const asksForText = (link: ChatLink) =>
	link.binding.choice === 'edit' || link.binding.choice === 'text';

/**
 * The pages a poll read, by the item of each message it found: the polling trigger's answer check reads nothing more
 * (the same newest page its own read returned). Weak: an item dropped takes its page with it.
 */
export const pageOfItem = new WeakMap<object, IDataObject[]>();

/** The question an incoming message answers, found in the conversation's newest page (one read, or the poll's page). */
export async function questionAnswered(
	context: AnswerContext,
	message: IncomingMessage,
): Promise<AnsweredQuestion | undefined> {
	const rows: IDataObject[] = message.page ?? [];
	if (!message.page) {
		const source = conversationSource(
			context.getNode(),
			{ phone_number_id: message.phoneNumberId, phone_number: message.phoneNumber },
			await usesEarlierForm(context),
			async (body) => await botSailorRequest.call(context, '/whatsapp/get/conversation', body),
		);
		for await (const row of conversationRows(source, { maxPages: 1 })) rows.push(row);
	}
	// The incoming row: by its id, else the newest of the subscriber's messages.
	let at = rows.findIndex(
		(row) => message.waMessageId !== '' && String(row.wa_message_id ?? '') === message.waMessageId,
	);
	if (at < 0) at = rows.findIndex((row) => isIncoming(row));
	if (at < 0) return undefined;
	const id = String(rows[at].wa_message_id ?? '');
	// A tap on a button whose id carries its link (issue 53): the tap answers (or, Edit, asks for the text).
	const bound = linkOfButtonId(tappedButtonId(rows[at]) ?? '');
	if (bound)
		return asksForText(bound)
			? { link: bound, value: '', message: id, prompt: true }
			: { link: bound, value: bound.binding.choice, message: id };
	const tapped = parseButtonId(tappedButtonId(rows[at]) ?? '');
	if (tapped) {
		for (const row of rows.slice(at + 1)) {
			if (isIncoming(row)) continue;
			const link = chatLinksOfRow(row).find(
				(candidate) =>
					candidate.binding.q === tapped.q && candidate.binding.choice === tapped.choice,
			);
			if (link) return { link, value: tapped.choice, message: id };
		}
		return undefined;
	}
	// Free Text: the next message after the question. Walking back, the first of our questions answers it; another
	// message of the subscriber in between means this one is not the answer; a newer approval question takes taps.
	// A template question ('pick'): a tap on one of its quick-reply buttons, by the button's text, answers the newest
	// of our questions when that is a template whose link binds that text (taps in between are skipped, as above).
	const templateTap = tappedTemplateButton(rows[at]);
	if (templateTap !== undefined) {
		for (const row of rows.slice(at + 1)) {
			if (isIncoming(row)) continue;
			const links = chatLinksOfRow(row);
			if (links.length === 0) continue;
			const pick = links.find((link) => link.binding.choice === 'pick');
			const index = pick ? (pick.binding.titles ?? []).indexOf(templateTap) : -1;
			return pick && (index === 0 || index === 1)
				? { link: pick, value: index === 0 ? 'true' : 'false', message: id }
				: undefined;
		}
		return undefined;
	}
	const answered = (link: ChatLink | undefined) =>
		link && message.text.trim() ? { link, value: message.text, message: id } : undefined;
	for (const row of rows.slice(at + 1)) {
		if (isIncoming(row)) {
			// The text after a tap on Edit (or on a Free Text question's button) is the answer that tap asked for.
			const tap = linkOfButtonId(tappedButtonId(row) ?? '');
			return tap && asksForText(tap) ? answered(tap) : undefined;
		}
		// A question with bound buttons: Free Text answers by the next message; an approval needs its Edit tap first.
		const buttons = boundButtonsOfRow(row);
		if (buttons.length)
			return buttons.every((link) => link.binding.choice === 'text')
				? answered(buttons[0])
				: undefined;
		const links = chatLinksOfRow(row);
		if (links.length === 0) continue;
		if (links.some((link) => link.binding.choice === 'pick')) return undefined;
		return answered(links.find((link) => link.binding.choice === 'text'));
	}
	return undefined;
}
