import { NodeApiError, NodeOperationError, type IDataObject } from 'n8n-workflow';
import { conversationRows, type ConversationSource } from './conversation';
import { isIncoming } from './messageItem';
import { platformTimeToDate } from './platformTime';

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
	const text = `${error.message} ${error.description ?? ''}`;
	return OUTSIDE_WINDOW_REFUSALS.some((pattern) => pattern.test(text));
}

/** The window of one subscriber, as Subscriber → Get Window Status outputs it. */
export interface WindowStatus extends IDataObject {
	window_open: boolean;
	/** When the subscriber last wrote (ISO 8601, UTC), null when not found. */
	last_incoming_at: string | null;
	/** When free-form messages stop reaching them (ISO 8601, UTC), null when they never wrote. */
	window_closes_at: string | null;
	/** Seconds until then; 0 once closed. */
	seconds_left: number;
	/** The time of their last message exactly as the platform gave it, in the platform's time zone. */
	last_incoming_platform_time: string | null;
	platform_time_zone: string;
}

/**
 * The window from the conversation: its newest row written by the subscriber (not the bot, an agent, a sequence, an
 * automation or a panel event). Rows come newest first, so reading stops at the first such row; with `stopWhenClosed`
 * it also stops at the first row older than 24 hours (the window is closed whatever came before), so a check before a
 * send reads the fewest pages.
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
	for await (const row of conversationRows(source)) {
		const text = String(row.conversation_time ?? '');
		const at = platformTimeToDate(text, zone);
		if (isIncoming(row)) {
			if (!at)
				throw new NodeOperationError(
					source.node,
					`The platform gave the subscriber's last message a time that cannot be read: "${text}"`,
					{ description: 'Expected a time such as 2026-11-26 14:05:00.' },
				);
			const closes = at.getTime() + WINDOW_MS;
			return {
				...closed,
				window_open: closes > now,
				last_incoming_at: at.toISOString(),
				window_closes_at: new Date(closes).toISOString(),
				seconds_left: Math.max(0, Math.floor((closes - now) / 1000)),
				last_incoming_platform_time: text,
			};
		}
		if (stopWhenClosed && at && at.getTime() + WINDOW_MS <= now) return closed;
	}
	return closed;
}
