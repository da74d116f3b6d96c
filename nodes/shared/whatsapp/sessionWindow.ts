import { NodeApiError, NodeOperationError, type IDataObject } from 'n8n-workflow';
import { openConversation, type ConversationSource } from '../conversation/conversation';
import { listRecords } from '../http/envelope';
import { decodedListPayload } from '../http/listText';
import { isIncoming } from '../conversation/messageItem';
import { platformTimeEvidence } from '../http/platformTime';

/**
 * WhatsApp's customer service window: free-form messages (text, buttons, media) reach a subscriber only within
 * 24 hours of the subscriber's own last message; outside it only a template does.
 */
export const WINDOW_MS = 24 * 3_600_000;

/**
 * How deployments of this software word the refusal of a free-form send outside the window (status "0"; nothing
 * was sent). The only place that knows them. SPEC-GAP: the spec does not show the text.
 * - the platform's own check: "Sending message outside 24 hour window is not allowed. You can only send template
 *   message to this user." (reported by integrators; what the simulator answers);
 * - Meta's error passed through (Cloud API error 131047, "Re-engagement message": "Message failed to send because
 *   more than 24 hours have passed since the customer last replied to this number.").
 */
export const OUTSIDE_WINDOW_REFUSALS: readonly RegExp[] = [
	/outside (?:of )?(?:the )?24[- ]?h(?:ou)?rs? (?:customer service |conversation |messaging |session )?window/i,
	/24[- ]?h(?:ou)?rs? (?:customer service |conversation |messaging |session )?window (?:has )?(?:expired|closed|passed)/i,
	/more than 24 hours have passed since the (?:customer|recipient|user) last repl/i,
	/re-?engagement message/i,
	/\(#?131047\)|\b131047\b/,
	/only send template messages? to this user/i,
];

/** Whether a failed send is the platform's refusal because the subscriber is outside the window. */
export function isOutsideWindowRefusal(error: unknown): error is NodeApiError | NodeOperationError {
	if (!(error instanceof NodeApiError) && !(error instanceof NodeOperationError)) return false;
	// A refusal only: an uncertain outcome (504, a lost answer) is never taken for one.
	if (error.context?.outcome === 'unknown' || error.context?.outcome === 'notSent') return false;
	// No answer from the platform (DNS, refused, timeout) is no statement about the window.
	if (typeof error.context?.connection === 'string') return false;
	const text = `${error.message} ${error.description ?? ''}`;
	return OUTSIDE_WINDOW_REFUSALS.some((pattern) => pattern.test(text));
}

/** The window of one subscriber, as Subscriber → Get Window Status outputs it. */
export interface WindowStatus extends IDataObject {
	/** Null when the conversation's times cannot tell (see `reason`): unknown, never evidence either way. */
	window_open: boolean | null;
	/** When the subscriber last wrote (ISO 8601, UTC), null when not found. */
	last_incoming_at: string | null;
	/** When free-form messages stop reaching them (ISO 8601, UTC), null when they never wrote. */
	window_closes_at: string | null;
	/** Seconds until then; 0 once closed. */
	seconds_left: number;
	/** The time of their last message exactly as the platform gave it, in the platform's time zone. */
	last_incoming_platform_time: string | null;
	platform_time_zone: string;
	/** Only when `window_open` is null: why the window cannot be told. */
	reason?: string;
}

/**
 * The window from the conversation: its newest row written by the subscriber (not the bot, an agent, a sequence, an
 * automation or a panel event). Rows come newest first, so reading stops at the first such row; with `stopWhenClosed`
 * it also stops at the first row older than 24 hours (the window is closed whatever came before), so a check before a
 * send reads the fewest pages.
 * A platform time that is no evidence (platformTime.ts platformTimeEvidence: MySQL's zero date, empty, garbage, before
 * WhatsApp, in the future) never decides: a subscriber's message with such a time may be their newest (rows are
 * ordered by the times the platform gives), so the window is unknown (`window_open: null` and the reason) unless a
 * message with a real time proves it open.
 */
export async function readWindowStatus(
	source: ConversationSource,
	zone: string,
	{ now = Date.now(), stopWhenClosed = false }: { now?: number; stopWhenClosed?: boolean } = {},
): Promise<WindowStatus> {
	const closed: WindowStatus = {
		window_open: false,
		last_incoming_at: null,
		window_closes_at: null,
		seconds_left: 0,
		last_incoming_platform_time: null,
		platform_time_zone: zone,
	};
	/** The first of the subscriber's messages whose time is no evidence, in words. */
	let unknown: string | undefined;
	const unknownOn = (page: IDataObject[]) => {
		for (const row of page) {
			if (!isIncoming(row)) continue;
			const time = platformTimeEvidence(row.conversation_time, zone, now);
			if ('problem' in time)
				return `The subscriber's message${row.id !== undefined ? ` ${String(row.id)}` : ''} ${time.problem}, so when they last wrote cannot be told`;
		}
		return undefined;
	};
	/** Closed, unless a message of the subscriber read so far (or on this page) has a time that is no evidence. */
	const closedUnlessUnknown = (page: IDataObject[], status: WindowStatus): WindowStatus => {
		const why = unknown ?? unknownOn(page);
		// Unknown: the older message's times would claim too much, so none is given.
		return why ? { ...closed, window_open: null, reason: why } : status;
	};
	const read = await openConversation(readableOnly(source));
	for (let page: IDataObject[] | undefined = read.latest; page; page = await read.older()) {
		for (const row of page) {
			const text = String(row.conversation_time ?? '');
			const time = platformTimeEvidence(text, zone, now);
			const at = 'at' in time ? time.at : undefined;
			if (isIncoming(row)) {
				if (!at) {
					unknown ??= unknownOn([row]);
					continue;
				}
				const closes = at.getTime() + WINDOW_MS;
				const status: WindowStatus = {
					...closed,
					window_open: closes > now,
					last_incoming_at: at.toISOString(),
					window_closes_at: new Date(closes).toISOString(),
					seconds_left: Math.max(0, Math.floor((closes - now) / 1000)),
					last_incoming_platform_time: text,
				};
				// A message with a real time inside the window proves it open, whatever else the rows say.
				return status.window_open ? status : closedUnlessUnknown(page, status);
			}
			if (stopWhenClosed && at && at.getTime() + WINDOW_MS <= now)
				return closedUnlessUnknown(page, closed);
		}
	}
	return unknown ? { ...closed, window_open: null, reason: unknown } : closed;
}

const shown = (value: unknown) => {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	return `"${text.length > 80 ? `${text.slice(0, 80)}…` : text}"`;
};

/**
 * What makes a conversation answer unreadable for the window (a check fails closed): no `message`, a `message` that is
 * no list (text, `{}`), or a row that is no conversation message (neither `sender` nor `conversation_time`). Only an
 * empty list (`[]`) is an empty conversation.
 */
export function conversationAnswerProblem(envelope: IDataObject): string | undefined {
	const sent = envelope.message;
	if (sent === undefined || sent === null || sent === '') return 'the answer holds no "message"';
	const payload = decodedListPayload(sent);
	if (Array.isArray(payload) && payload.length === 0) return undefined;
	const records = listRecords(envelope);
	if (!records || records.length === 0)
		return `the answer's "message" is not a list of messages: ${shown(sent)}`;
	const row = records.find((record) => !('sender' in record) && !('conversation_time' in record));
	return row ? `a row of the answer is not a conversation message: ${shown(row)}` : undefined;
}

/** The source, each answer checked first (conversationAnswerProblem): an unreadable answer fails the read. */
function readableOnly(source: ConversationSource): ConversationSource {
	return {
		...source,
		fetch: async (page) => {
			const envelope = await source.fetch(page);
			const problem = conversationAnswerProblem(envelope);
			if (problem)
				throw new NodeOperationError(
					source.node,
					`The conversation could not be read, so the 24-hour window cannot be told: ${problem}`,
					{
						description:
							'The window is read from the subscriber’s conversation (whatsapp/get/conversation), whose answer must list the messages. An answer that cannot be read is never taken for an open or a closed window: nothing was sent on it.',
					},
				);
			return envelope;
		},
	};
}
