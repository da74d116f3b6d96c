import { NodeOperationError } from 'n8n-workflow';
import type { DisplayCondition, IDataObject, INodeProperties } from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../http/credential';
import { connectionVerdict } from '../http/failures';
import { withRetries, type RetryPolicy } from '../http/retry';
import { FORM_CONTENT_TYPE, sendRequest } from '../http/transport';
import { jsonFromText } from '../parameters/jsonStrings';
import { isRecord } from '../parameters/values';
import { boundedMemory } from '../parameters/boundedMemory';
import {
	answerKeyOf,
	checkLink,
	QUESTION_MARK_LABEL,
	responderFields,
	type ChatResponder,
} from './answerBinding';
import {
	questionAnswered,
	type AnswerContext,
	type AnsweredQuestion,
	type IncomingMessage,
} from './answeredQuestion';

/**
 * A trigger's taking of a Send and Wait answer given in the chat: the option that turns it on, what this process
 * remembers (who answered, which taps are being taken), the resumption through n8n's waiting URL, and the reply in the
 * chat. The binding it checks is answerBinding.ts; the question a message answers, answeredQuestion.ts.
 */

/**
 * How an incoming message was taken: resumed the execution, answered too late (n8n's own sign, or the limit), or
 * `asked`: a tap on Edit (or a Free Text question's button), the person asked for the text in their next message;
 * `unconfirmed`: taken, the outcome not known here (another trigger of this process is taking the same message, or
 * n8n no longer waits after an earlier try of ours may have reached it), so it starts no run and nobody is told.
 */
export type Taken = 'answered' | 'alreadyAnswered' | 'expired' | 'unconfirmed' | 'asked';

/** The texts of the replies in the chat (the confirmation comes from the Send and Wait node). */
const LATE_REPLIES: Record<'alreadyAnswered' | 'expired', string> = {
	alreadyAnswered: 'This question was already answered. Only the first answer counts.',
	expired: 'This question has expired: your answer was not recorded.',
};

/** The reply to a tap on Edit, or on a Free Text question's button: the next message is the text. */
const ASK_FOR_TEXT: Record<'edit' | 'text', string> = {
	edit: 'Send the corrected text as your next message.',
	text: 'Send your answer as your next message.',
};

/** The taps this process has asked the text for (a webhook delivered twice, both triggers): asked once. Bounded. */
const askedFor = boundedMemory<string, true>({ maxEntries: 10_000, maxBytes: 1_000_000 });

/**
 * Who answered which question, as this n8n process took the answers: the "already answered" reply then says by whom
 * and when. Bounded; per process (after a restart, or when another process took the answer, the reply names nobody).
 */
const answeredBy = boundedMemory<string, ChatResponder & { message: string }>({
	maxEntries: 10_000,
	maxBytes: 8_000_000, // the answer's text is the customer's: any length
});

function rememberAnswer(question: string, who: ChatResponder, message: string): void {
	answeredBy.set(question, { ...who, message });
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
	let found: AnsweredQuestion | undefined;
	try {
		found = await questionAnswered(context, message);
	} catch {
		return undefined;
	}
	if (!found) return undefined;
	// The row's id (the platform's), not what a webhook body claims.
	const id = found.message || message.waMessageId;
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
	found: AnsweredQuestion,
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
	if (found.prompt && answeredBy.get(question)) {
		// This process resumed the question already: asking for a text would be asking in vain.
		if (lateReplies) await reply(context, message, alreadyAnsweredText(question));
		return 'alreadyAnswered';
	}
	if (found.prompt) {
		// Check and record in one step: one prompt per tap, whichever trigger takes it.
		const tap = `${question}\u0000${found.message}`;
		if (!found.message || !askedFor.get(tap)) {
			if (found.message) askedFor.set(tap, true);
			await reply(
				context,
				message,
				ASK_FOR_TEXT[found.link.binding.choice === 'edit' ? 'edit' : 'text'],
			);
		}
		return 'asked';
	}
	const who: ChatResponder = {
		phone_number: message.phoneNumber,
		...(message.name ? { name: message.name } : {}),
		at: new Date().toISOString(),
	};
	const answer = await postAnswer(context, found.link.url, {
		...(found.link.binding.choice === 'text' || found.link.binding.choice === 'edit'
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
 * The WhatsApp numbers whose incoming-message webhooks were seen listing the subscriber's labels (`label_names`).
 * SPEC-GAP (../spec/webhooks.md: `label_names` "sometimes"): assumed present whenever the subscriber has a label, as
 * the simulator sends it; a number not yet seen sending it is read for every message (nothing is missed).
 * Bounded; per process (after a restart, until a message with labels arrives, every message is read).
 */
const labelsShown = boundedMemory<string, true>({ maxEntries: 1_000, maxBytes: 100_000 });

/**
 * Whether a webhook's message may answer a waiting question (issue 54 point 1): its subscriber carries the mark a chat
 * question leaves (QUESTION_MARK_LABEL), or the deployment was not seen listing labels yet. No request: a message that
 * cannot answer anything costs the platform nothing.
 */
export function mayAnswer(phoneNumberId: string, body: IDataObject): boolean {
	const raw = body.label_names;
	const names = Array.isArray(raw)
		? raw.map(String)
		: typeof raw === 'string'
			? raw.split(',')
			: undefined;
	if (names === undefined) return !labelsShown.get(phoneNumberId);
	labelsShown.set(phoneNumberId, true);
	return names.some((name) => name.trim().toLowerCase() === QUESTION_MARK_LABEL);
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
					'A tap or reply that answers a waiting BotSailor Send and Wait question (Answer In: WhatsApp Chat) resumes that execution and starts no run; needs the credential. Costs one conversation read per message of a subscriber a question marked.',
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
