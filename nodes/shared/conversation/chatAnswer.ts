import { createHmac, timingSafeEqual } from 'crypto';
import { NodeOperationError } from 'n8n-workflow';
import type {
	DisplayCondition,
	IDataObject,
	INodeProperties,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../http/credential';
import { conversationRows, conversationSource } from './conversation';
import { jsonFromText } from '../parameters/jsonStrings';
import { innerMessage } from './messageContent';
import { isIncoming } from './messageItem';
import {
	FORM_CONTENT_TYPE,
	botSailorRequest,
	sendRequest,
	usesEarlierForm,
} from '../http/transport';
import { isRecord } from '../parameters/values';
import { connectionVerdict } from '../http/failures';
import { withRetries, type RetryPolicy } from '../http/retry';

/**
 * Send and Wait answered in the chat (issue 45): the one module the action node (question and answer) and both
 * triggers (taking the answer) share.
 *
 * The link between a waiting execution and a subscriber lives only in what the platform already stores: the
 * question's text carries n8n's waiting-execution link of each answer (signed by n8n where n8n signs them), with
 * our own parameters `to` (the subscriber), `exp` (the wait's limit) and `mac`, an HMAC over the link's address (host,
 * execution, node), subscriber,
 * question, answer and limit, keyed by a key derived from the credential's API token (both nodes use the same
 * credential). A reply button's id names only the question and the answer (`bsw1:<q>:y|n`). Nothing on the platform
 * can resume anything but that one question, for that one subscriber, until the limit; a resumed execution no longer
 * waits (n8n), so a second answer resumes nothing: single use.
 */

const KEY_LABEL = 'n8n-nodes-botsailor send-and-wait chat answers v1';
export const BUTTON_ID_PREFIX = 'bsw1:';

/** The HMAC key of chat answers, derived from the credential's API token (never the token itself). */
export function answerKey(apiToken: string): Buffer {
	return createHmac('sha256', apiToken).update(KEY_LABEL).digest();
}

export async function answerKeyOf(
	context: Pick<IWebhookFunctions, 'getCredentials'>,
): Promise<Buffer> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	return answerKey(String(credentials.apiToken ?? '').trim());
}

const digits = (value: unknown) => String(value ?? '').replace(/\D/g, '');

function mac(key: Buffer, parts: string[]): string {
	return createHmac('sha256', key).update(parts.join('\u0000')).digest('base64url').slice(0, 22);
}

function sameMac(a: string, b: string): boolean {
	return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/**
 * One answer of one question, as bound into its link. `choice`: 'true'/'false' (Approval), 'text' (Free Text), or
 * 'pick': a template's one link to the page with both answers, answered in the chat by a tap on the template's own
 * quick-reply button whose text `titles` binds (the first approves, the second declines).
 */
export interface AnswerBinding {
	/** The link's address without its query (`…/webhook-waiting/<execution>/<node>`): no other host or execution. */
	target: string;
	to: string;
	q: string;
	choice: 'true' | 'false' | 'text' | 'pick';
	/** Unix seconds of the wait's limit; 0: no limit. */
	exp: number;
	/** 'pick': the template's quick-reply button texts, approve first (none: the link is the only way). */
	titles?: string[];
}

const bindingParts = (b: AnswerBinding) => [
	'q',
	b.target,
	digits(b.to),
	b.q,
	b.choice,
	String(b.exp),
	...(b.choice === 'pick' ? ['t', ...(b.titles ?? [])] : []),
];

/** The parameters a chat question adds to an answer link (n8n then signs the whole link). */
export function chatLinkParameters(key: Buffer, binding: AnswerBinding): Record<string, string> {
	return {
		...(binding.choice === 'text' || binding.choice === 'pick' ? {} : { approved: binding.choice }),
		...(binding.choice === 'pick' ? { pick: (binding.titles ?? []).join('\n') } : {}),
		q: binding.q,
		to: digits(binding.to),
		exp: String(binding.exp),
		mac: mac(key, bindingParts(binding)),
	};
}

/** A link's address without its query: what the HMAC binds besides the parameters. */
export function linkTarget(link: string): string {
	const url = new URL(link);
	return `${url.origin}${url.pathname}`;
}

/** A reply button's id: the question and the answer; the link in the question's text carries the rest. */
export const buttonId = (q: string, approved: boolean) =>
	`${BUTTON_ID_PREFIX}${q}:${approved ? 'y' : 'n'}`;

export function parseButtonId(id: string): { q: string; choice: 'true' | 'false' } | undefined {
	const match = /^bsw1:([0-9a-f]{6,32}):([yn])$/.exec(id);
	return match ? { q: match[1], choice: match[2] === 'y' ? 'true' : 'false' } : undefined;
}

/** An answer link of a chat question: its URL and what it binds (from the link itself, not yet verified). */
export interface ChatLink {
	url: string;
	binding: AnswerBinding;
	mac: string;
}

/** The chat-question links in a text (n8n's waiting-execution links carrying our `mac`). */
export function chatLinksIn(text: string): ChatLink[] {
	const found: ChatLink[] = [];
	for (const raw of text.match(/https?:\/\/[^\s"'<>]+/g) ?? []) {
		let url: URL;
		try {
			url = new URL(raw);
		} catch {
			continue;
		}
		const params = url.searchParams;
		const linkMac = params.get('mac');
		const q = params.get('q');
		if (!linkMac || !q) continue;
		const approved = params.get('approved');
		const pick = params.get('pick');
		found.push({
			url: raw,
			mac: linkMac,
			binding: {
				target: linkTarget(raw),
				to: params.get('to') ?? '',
				q,
				choice:
					pick !== null ? 'pick' : approved === 'true' || approved === 'false' ? approved : 'text',
				exp: Number(params.get('exp') ?? 'NaN'),
				...(pick ? { titles: pick.split('\n') } : {}),
			},
		});
	}
	return found;
}

export type LinkCheck = 'ok' | 'forged' | 'notRecipient' | 'expired';

/** A link checked: our HMAC, the sender is the subscriber it was sent to, the wait's limit not passed. */
export function checkLink(
	key: Buffer,
	link: ChatLink,
	sender: string,
	now = Date.now(),
): LinkCheck {
	if (!Number.isFinite(link.binding.exp)) return 'forged';
	if (!sameMac(mac(key, bindingParts(link.binding)), link.mac)) return 'forged';
	if (digits(link.binding.to) === '' || digits(link.binding.to) !== digits(sender))
		return 'notRecipient';
	if (link.binding.exp > 0 && link.binding.exp * 1000 <= now) return 'expired';
	return 'ok';
}

/** What the trigger posts with an answer, so the waiting node knows the chat (not a page) answered, and who. */
export interface ChatResponder {
	phone_number: string;
	name?: string;
	at: string;
}

const responderParts = (q: string, value: string, who: ChatResponder) => [
	'a',
	q,
	value,
	digits(who.phone_number),
	who.name ?? '',
	who.at,
];

export function responderFields(
	key: Buffer,
	q: string,
	value: string,
	who: ChatResponder,
): IDataObject {
	return {
		chat_from: digits(who.phone_number),
		chat_name: who.name ?? '',
		chat_at: who.at,
		chat_mac: mac(key, responderParts(q, value, who)),
	};
}

/** The responder of an answer posted by a trigger, verified; undefined for a page's answer (or a forged one). */
export function verifiedResponder(
	key: Buffer,
	q: string,
	value: string,
	body: IDataObject,
): ChatResponder | undefined {
	if (typeof body.chat_mac !== 'string') return undefined;
	const who: ChatResponder = {
		phone_number: digits(body.chat_from),
		...(typeof body.chat_name === 'string' && body.chat_name ? { name: body.chat_name } : {}),
		at: String(body.chat_at ?? ''),
	};
	return sameMac(mac(key, responderParts(q, value, who)), body.chat_mac) ? who : undefined;
}

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
export function tappedButtonId(row: IDataObject): string | undefined {
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
export function tappedTemplateButton(row: IDataObject): string | undefined {
	const inner = innerMessage(contentOf(row));
	if (!isRecord(inner) || !isRecord(inner.button)) return undefined;
	const { text, payload } = inner.button;
	if (typeof text === 'string' && text) return text;
	return typeof payload === 'string' && payload ? payload : undefined;
}

const chatLinksOfRow = (row: IDataObject) => chatLinksIn(stringsOf(contentOf(row)).join('\n'));

/** Where an answer is taken: the Webhook Trigger's webhook, the polling trigger's poll. */
export type AnswerContext = IWebhookFunctions | IPollFunctions;

/**
 * How an incoming message was taken: resumed the execution, answered too late (n8n's own sign, or the limit), or
 * `unconfirmed`: taken, the outcome not known here (another trigger of this process is taking the same message, or
 * n8n no longer waits after an earlier try of ours may have reached it), so it starts no run and nobody is told.
 */
export type Taken = 'answered' | 'alreadyAnswered' | 'expired' | 'unconfirmed';

export interface IncomingMessage {
	phoneNumberId: string;
	/** The sender (chat_id). */
	phoneNumber: string;
	waMessageId: string;
	text: string;
	name?: string;
}

/** The texts of the replies in the chat (the confirmation comes from the Send and Wait node). */
export const LATE_REPLIES: Record<'alreadyAnswered' | 'expired', string> = {
	alreadyAnswered: 'This question was already answered. Only the first answer counts.',
	expired: 'This question has expired: your answer was not recorded.',
};

/**
 * Who answered which question, as this n8n process took the answers: the "already answered" reply then says by whom
 * and when. Bounded; per process (after a restart, or when another process took the answer, the reply names nobody).
 */
const answeredBy = new Map<string, ChatResponder & { message: string }>();
const MAX_REMEMBERED = 10_000;

function rememberAnswer(question: string, who: ChatResponder, message: string): void {
	answeredBy.set(question, { ...who, message });
	if (answeredBy.size > MAX_REMEMBERED) answeredBy.delete(answeredBy.keys().next().value as string);
}

/**
 * The messages a trigger of this process is taking as answers right now: the Webhook Trigger and the polling trigger
 * (of this or another workflow) may take the same tap at the same moment, and only one of them may post it. Checked and
 * recorded in one step; an entry lives while its answer is under way, so the set holds no more than that.
 */
const taking = new Set<string>();

function alreadyAnsweredText(question: string): string {
	const who = answeredBy.get(question);
	if (!who) return LATE_REPLIES.alreadyAnswered;
	const name = who.name ? `${who.name} (+${who.phone_number})` : `+${who.phone_number}`;
	const at = `${who.at.replace('T', ' ').slice(0, 16)} UTC`;
	return `This question was already answered by ${name} on ${at}. Only the first answer counts.`;
}

/** The answer a message gives: the question's link, the value, and the message's id (as its row has it). */
interface Found {
	link: ChatLink;
	value: string;
	message: string;
}

/** The question an incoming message answers, found in the conversation's newest page (one read). */
async function questionAnswered(
	context: AnswerContext,
	message: IncomingMessage,
): Promise<Found | undefined> {
	const source = conversationSource(
		context.getNode(),
		{ phone_number_id: message.phoneNumberId, phone_number: message.phoneNumber },
		await usesEarlierForm(context),
		async (body) => await botSailorRequest.call(context, '/whatsapp/get/conversation', body),
	);
	const rows: IDataObject[] = [];
	for await (const row of conversationRows(source, { maxPages: 1 })) rows.push(row);
	// The incoming row: by its id, else the newest of the subscriber's messages.
	let at = rows.findIndex(
		(row) => message.waMessageId !== '' && String(row.wa_message_id ?? '') === message.waMessageId,
	);
	if (at < 0) at = rows.findIndex((row) => isIncoming(row));
	if (at < 0) return undefined;
	const id = String(rows[at].wa_message_id ?? '');
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
	for (const row of rows.slice(at + 1)) {
		if (isIncoming(row)) return undefined;
		const links = chatLinksOfRow(row);
		if (links.length === 0) continue;
		if (links.some((link) => link.binding.choice === 'pick')) return undefined;
		const text = links.find((link) => link.binding.choice === 'text');
		return text && message.text.trim()
			? { link: text, value: message.text, message: id }
			: undefined;
	}
	return undefined;
}

async function reply(context: AnswerContext, message: IncomingMessage, text: string) {
	if (!text.trim()) return;
	try {
		await sendRequest.call(context, {
			method: 'POST',
			url: '/whatsapp/send',
			headers: { 'Content-Type': FORM_CONTENT_TYPE },
			body: {
				phone_number_id: message.phoneNumberId,
				phone_number: message.phoneNumber,
				message: text,
			},
			timeout: 30_000,
		});
	} catch {
		// The answer is taken; a reply the platform refuses changes nothing of it.
	}
}

/** A proxy in front of a restarting n8n, or n8n momentarily away: worth another try. */
const TRANSIENT_STATUS = new Set([500, 502, 503, 504]);

/** A failed try at n8n's waiting URL worth repeating; `reached`: it may have reached n8n (an answer or a reset). */
function transient(context: AnswerContext, reached: boolean): NodeOperationError {
	const failure = new NodeOperationError(context.getNode(), 'n8n did not take the answer yet');
	failure.context.resume = reached ? 'reached' : 'notReached';
	return failure;
}

/** A restart of n8n takes seconds: a few tries within them, then the message starts a run (nothing is lost). */
const RESUME_RETRY: Readonly<RetryPolicy> = Object.freeze({
	retries: 3,
	baseDelayMs: 500,
	maxDelayMs: 2_000,
	budgetMs: 10_000,
	retryable: (failure: unknown) =>
		failure instanceof NodeOperationError && failure.context.resume !== undefined,
});

/**
 * Posts the answer to n8n's waiting URL (the request the answer page makes), repeated on a transient failure.
 * Undefined when n8n could not be asked (the message then starts a run); `reachedBefore`: an earlier try may have
 * reached n8n, so a "not waiting" now may be this message's own answer.
 */
async function postAnswer(
	context: AnswerContext,
	url: string,
	body: IDataObject,
): Promise<{ statusCode: number; body: unknown; reachedBefore: boolean } | undefined> {
	let reached = false;
	try {
		return await withRetries(async () => {
			const reachedBefore = reached;
			let answer: { statusCode: number; body: unknown };
			try {
				answer = (await context.helpers.httpRequest({
					method: 'POST',
					url,
					headers: { 'Content-Type': FORM_CONTENT_TYPE, Accept: 'application/json' },
					body: new URLSearchParams(
						Object.entries(body).map(([name, value]): [string, string] => [name, String(value)]),
					).toString(),
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
					disableFollowRedirect: true,
					timeout: 30_000,
				})) as { statusCode: number; body: unknown };
			} catch (error) {
				const code = String((error as { code?: unknown }).code ?? '');
				if (connectionVerdict(code, (error as Error).message).retry)
					throw transient(context, false);
				reached = true;
				// A reset may be n8n going down; a timeout has used its time already.
				if (/^(ECONNRESET|EPIPE)$/.test(code)) throw transient(context, true);
				throw new NodeOperationError(context.getNode(), error as Error);
			}
			if (TRANSIENT_STATUS.has(answer.statusCode)) {
				reached = true;
				throw transient(context, true);
			}
			return { ...answer, reachedBefore };
		}, RESUME_RETRY);
	} catch {
		return undefined;
	}
}

/**
 * Takes a subscriber's message that answers a waiting Send and Wait question: finds the question (one conversation
 * read), claims the message (no other trigger of this process posts it too), checks the link's HMAC, the sender and
 * the limit, resumes the execution through n8n's own waiting URL, and replies in the chat. Undefined: not an answer
 * (the message starts a run as usual); that includes a message n8n could not be asked about, so no message is lost.
 * "Already answered" only on n8n's own signs: a 409 (running, or our webhook's first-answer record) or its page for an
 * execution that no longer waits.
 */
export async function takeAnswer(
	context: AnswerContext,
	message: IncomingMessage,
	{ lateReplies = true }: { lateReplies?: boolean } = {},
): Promise<Taken | undefined> {
	if (!context.getNode().credentials?.[CREDENTIAL_TYPE]) return undefined;
	if (!message.phoneNumberId || !message.phoneNumber) return undefined;
	let found: Found | undefined;
	try {
		found = await questionAnswered(context, message);
	} catch {
		return undefined;
	}
	if (!found) return undefined;
	const id = message.waMessageId || found.message;
	const question = `${found.link.binding.target}\u0000${found.link.binding.q}`;
	// Check and record in one step; what needs a read (the key, the link) is verified after.
	if (id && (taking.has(id) || answeredBy.get(question)?.message === id)) return 'unconfirmed';
	if (id) taking.add(id);
	try {
		return await takeFound(context, message, { ...found, message: id }, question, lateReplies);
	} finally {
		taking.delete(id);
	}
}

async function takeFound(
	context: AnswerContext,
	message: IncomingMessage,
	found: Found,
	question: string,
	lateReplies: boolean,
): Promise<Taken | undefined> {
	const key = await answerKeyOf(context);
	const check = checkLink(key, found.link, message.phoneNumber);
	if (check === 'forged' || check === 'notRecipient') return undefined;
	if (check === 'expired') {
		if (lateReplies) await reply(context, message, LATE_REPLIES.expired);
		return 'expired';
	}
	const who: ChatResponder = {
		phone_number: message.phoneNumber,
		...(message.name ? { name: message.name } : {}),
		at: new Date().toISOString(),
	};
	const answer = await postAnswer(context, found.link.url, {
		...(found.link.binding.choice === 'text'
			? { 'field-0': found.value }
			: found.link.binding.choice === 'pick'
				? { approved: found.value }
				: { confirm: '1' }),
		...responderFields(key, found.link.binding.q, found.value, who),
	});
	if (!answer) return undefined;
	const response = typeof answer.body === 'string' ? jsonFromText(answer.body) : answer.body;
	if (answer.statusCode === 200 && isRecord(response) && response.resumed === true) {
		rememberAnswer(question, who, found.message);
		await reply(context, message, String(response.confirmation ?? ''));
		return 'answered';
	}
	const notWaiting =
		answer.statusCode === 409 || (answer.statusCode >= 200 && answer.statusCode < 300);
	// Anything else (a redirect, 401, 404, a proxy's error) is no sign from n8n: the message starts a run.
	if (!notWaiting) return undefined;
	if (answer.reachedBefore) return 'unconfirmed';
	if (lateReplies) await reply(context, message, alreadyAnsweredText(question));
	return 'alreadyAnswered';
}

/**
 * The triggers' "Send and Wait Answers" option, per node version: version 1 (saved workflows) keeps starting a run for
 * every message; later versions take the answers. `events`: the Event values it shows for.
 */
export function sendAndWaitAnswersProperties(
	events: string[],
	takeFrom: number,
): INodeProperties[] {
	const property = (defaultValue: string, version: DisplayCondition): INodeProperties => ({
		displayName: 'Send and Wait Answers',
		name: 'sendAndWaitAnswers',
		type: 'options',
		default: defaultValue,
		options: [
			{
				name: 'Take Them (Start No Run)',
				value: 'take',
				description:
					'A tap or reply that answers a waiting BotSailor Send and Wait question (Answer In: WhatsApp Chat) resumes that execution and starts no run; needs the credential. Costs one conversation read per message.',
			},
			{
				name: 'Start a Run for Every Message',
				value: 'startRun',
				description: 'Answers are messages like any other (the question’s link still works)',
			},
		],
		displayOptions: { show: { event: events, '@version': [version] } },
	});
	return [
		property('startRun', { _cnd: { lt: takeFrom } }),
		property('take', { _cnd: { gte: takeFrom } }),
	];
}
