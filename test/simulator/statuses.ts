/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test infrastructure runs in plain Node.js, not inside n8n */
/**
 * Message statuses as the platform reports them after a send: `sent` at once, then `delivered` (and perhaps `read`)
 * or `failed` with a `failed_reason`, after a delay. Off by default (a sent message stays `sent` until a test moves it
 * with `/__control/message-status`), so the rest of the suite is unchanged; turned on with
 * `POST /__control/delivery-statuses` (see DeliveryProgression) by the delivery tests, the bench and the demo.
 *
 * SPEC-GAP: the spec shows the Message status fields and one observed state (`delivered`); the order of states, the
 * delays and the text of `failed_reason` are not shown. The simulator assumes WhatsApp Cloud API's own model (sent →
 * delivered → read, or failed), and writes `failed_reason` as "(#<code>) <title>" with the titles of WhatsApp's
 * documented error codes below.
 */
import { statusWebhook } from './webhooks';
import { insideWindow, type ConversationMessage, type SimState } from './state';
import { seededRandom } from './random';

/** WhatsApp's documented delivery errors (Cloud API error codes): code → title. SPEC-GAP: the platform's wording. */
export const WHATSAPP_DELIVERY_ERRORS: Readonly<Record<number, string>> = Object.freeze({
	131047:
		'Re-engagement message: more than 24 hours have passed since the recipient last replied to the sender number',
	131026:
		'Message undeliverable: the recipient is not a WhatsApp user, has not accepted the terms, or uses an old WhatsApp version',
	131049: 'This message was not delivered to maintain healthy ecosystem engagement',
	131050: 'The recipient has chosen to stop receiving marketing messages from your business',
	131056: '(Business Account, Consumer Account) pair rate limit hit',
	131051: 'Unsupported message type',
	131053: 'Media upload error',
	130472: "User's number is part of an experiment",
	131000: 'Something went wrong',
});

/** The `failed_reason` of an error code: "(#131026) Message undeliverable: …". */
export function failedReasonOf(code: number): string {
	return `(#${code}) ${WHATSAPP_DELIVERY_ERRORS[code] ?? 'Message failed to send'}`;
}

/** A delay: fixed ms, or [min, max] ms drawn uniformly. */
export type Delay = number | [number, number];

/** How sent messages move on (`/__control/delivery-statuses`); every field optional, `{"off": true}` stops it. */
export interface DeliveryProgression {
	/** Time from the send to `delivered` (or to `failed` for a failing message). Default [1000, 10000]. */
	delivered_after_ms?: Delay;
	/** Time from `delivered` to `read`; null or unset: never read. */
	read_after_ms?: Delay | null;
	/** Share of messages (0…1) that fail with `fail_code` instead of being delivered. Default 0. */
	fail_rate?: number;
	/** The error code of `fail_rate` failures (WHATSAPP_DELIVERY_ERRORS). Default 131026 (undeliverable). */
	fail_code?: number;
	/** Recipients (phone_number) whose messages always fail, each with its error code. */
	fail_numbers?: Record<string, number>;
	/** Whether a free-form message (not a template) to a subscriber outside the 24-hour window fails with 131047. */
	window_failures?: boolean;
	/** Seed of the random draws (delays, fail_rate), so a run is repeatable. Default 1. */
	seed?: number;
	/** Messages that never get past `sent` (no status arrives), as a share 0…1. Default 0. */
	silent_rate?: number;
}

/** The progression of one simulator world, with its pending timers (stopped on reset and close). */
export class StatusProgression {
	private config: DeliveryProgression | undefined;
	private random = seededRandom(1);
	private readonly timers = new Set<NodeJS.Timeout>();
	/** Status changes made, and the wall-clock time (epoch ms) of the last one (the bench's "slowest status"). */
	readonly report = { changes: 0, last_change_at: 0 };

	configure(
		input: DeliveryProgression & { off?: boolean; report?: boolean },
	): DeliveryProgression | { off: true } | StatusProgression['report'] {
		if (input.report) return { ...this.report };
		if (input.off) {
			this.config = undefined;
			this.stop();
			return { off: true };
		}
		this.config = { delivered_after_ms: [1000, 10_000], fail_rate: 0, fail_code: 131026, ...input };
		this.random = seededRandom(input.seed ?? 1);
		return this.config;
	}

	get active(): boolean {
		return this.config !== undefined;
	}

	/** Plans what happens to a message the platform just accepted (status `sent`). */
	planFor(
		state: SimState,
		message: ConversationMessage,
		{ template }: { template: boolean },
	): void {
		const config = this.config;
		if (!config) return;
		const draw = this.random();
		if (draw < (config.silent_rate ?? 0)) return;
		const phone = message.whatsapp_bot_subscriber_subscriber_id;
		let code: number | undefined = config.fail_numbers?.[phone];
		if (
			code === undefined &&
			config.window_failures &&
			!template &&
			!insideWindow(state, message.phone_number_id, phone)
		)
			code = 131047;
		if (code === undefined && this.random() < (config.fail_rate ?? 0))
			code = config.fail_code ?? 131026;
		const after = this.delay(config.delivered_after_ms ?? [1000, 10_000]);
		this.later(after, () => {
			this.report.changes++;
			this.report.last_change_at = Date.now();
			if (code !== undefined)
				applyStatus(state, message, { status: 'failed', failed_reason: failedReasonOf(code) });
			else {
				applyStatus(state, message, { status: 'delivered' });
				if (config.read_after_ms != null)
					this.later(this.delay(config.read_after_ms), () =>
						applyStatus(state, message, { status: 'read' }),
					);
			}
		});
	}

	/** Cancels the pending status changes. */
	stop(): void {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
	}

	private delay(delay: Delay): number {
		if (typeof delay === 'number') return delay;
		const [min, max] = delay;
		return Math.round(min + (max - min) * this.random());
	}

	private later(ms: number, action: () => void): void {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			action();
		}, ms);
		timer.unref();
		this.timers.add(timer);
	}
}

/** Moves a message to a status (as setMessageStatus does), unless it already reached a final one. */
export function applyStatus(
	state: SimState,
	message: ConversationMessage,
	input: { status: string; failed_reason?: string },
): void {
	if (message.message_status === 'failed' || message.message_status === 'read') return;
	const time = state.now();
	message.message_status = input.status;
	message.delivery_status_updated_at = time;
	if (input.status === 'read') message.read_time = time;
	if (input.status === 'failed') {
		message.failed_time = time;
		message.failed_reason = input.failed_reason ?? failedReasonOf(131000);
	}
	statusWebhook(state, message);
}
