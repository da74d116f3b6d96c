/**
 * The status hub: the message statuses the BotSailor Webhook Trigger received in this n8n process, for Wait for
 * Delivery's "Webhook Trigger Events" source (nodes/BotSailor/sending/deliveryWait.ts).
 *
 * - The Webhook Trigger publishes every authenticated Message Status request (after its secret check, size limit
 *   and parsing) that names a `wa_message_id` and a `message_status`, whether or not its Event and Statuses start a
 *   run for it. A status without a `wa_message_id` is not kept (counted in `statusHubCounts().withoutId`): the
 *   platform's status webhook is not documented to carry it (SPEC-GAP, docs/delivery.md), and then the reads decide.
 * - Keyed by `wa_message_id`: a status settles only a wait for that same message.
 * - Kept for a while (TTL_MS, at most MAX_IDS messages and MAX_BYTES, oldest dropped first: boundedMemory.ts), so a
 *   status that arrives before the send's answer (or before its wait starts) is found when the wait starts.
 * - Only ids shaped like WhatsApp message ids are kept (WA_MESSAGE_ID: `wamid.` and base64, at most 256 characters);
 *   anything else is refused (counted in `statusHubCounts().refused`), so a poster cannot fill the memory.
 * - A final status (delivered, read, failed) is not replaced by a later non-final one (webhooks may arrive out of
 *   order); `read` replaces `delivered`.
 *
 * Where it lives: module state, shared by the package's nodes, which n8n loads with one `require` per package (the
 * same precedent as deliveryMemory.ts). A store on `globalThis` would survive the package being loaded twice, but
 * the community-node lint forbids `globalThis` in node code; so two copies of the package in one process (an update
 * in place, until n8n restarts) have a hub each, and a wait in the new copy finds events only once the trigger runs
 * the new copy too. Nothing is lost then: the wait's status reads decide (the backstop). In queue mode the trigger
 * runs in another process, and the same holds.
 */

import { boundedMemory } from '../parameters/boundedMemory';

export const MAX_IDS = 10_000;
/** A real entry is about 450 bytes (a 60-character id, held twice), so MAX_IDS of them fit; a hostile one at most ~2 kB. */
export const MAX_BYTES = 8_000_000;
export const TTL_MS = 30 * 60 * 1000;
/**
 * A WhatsApp message id as Meta gives it (`wamid.` + base64, about 60 characters). SPEC-GAP: the spec shows the field,
 * not its shape; 256 characters leave room for longer ids without letting a report carry a large one.
 */
export const WA_MESSAGE_ID = /^wamid\.[A-Za-z0-9+/=_-]{1,250}$/;
/** A failed_reason longer than this is cut: Meta's are a code and a sentence. */
const MAX_REASON = 500;

const FINAL = new Set(['delivered', 'read', 'failed']);

/** One message's latest status as the Webhook Trigger received it. */
export interface StatusEvent {
	wa_message_id: string;
	status: string;
	/** Only with `failed`. */
	failed_reason?: string;
	/** When this process received it (epoch ms). */
	time: number;
}

type Listener = (event: StatusEvent) => void;

/** wa_message_id → its latest status, oldest received first. */
const events = boundedMemory<string, StatusEvent>({
	maxEntries: MAX_IDS,
	maxBytes: MAX_BYTES,
	ttlMs: TTL_MS,
});
const listeners = new Map<string, Set<Listener>>();
const counts = { published: 0, withoutId: 0, refused: 0 };

/** Whether a status ends the wait. */
export function isFinalStatus(status: string): boolean {
	return FINAL.has(status);
}

/**
 * Keeps a status the Webhook Trigger received and tells the waits for its message. Returns false (and keeps
 * nothing) when it has no wa_message_id or no status.
 */
export function publishStatus(
	input: { waMessageId: string; status: string; failedReason?: string },
	now = Date.now(),
): boolean {
	const id = input.waMessageId.trim();
	const status = input.status.trim().toLowerCase();
	if (!status) return false;
	if (!id) {
		counts.withoutId++;
		return false;
	}
	if (!WA_MESSAGE_ID.test(id) || status.length > 40) {
		counts.refused++;
		return false;
	}
	counts.published++;
	const known = events.get(id, now);
	// A final status stays (a late "sent" after "delivered"); "read" after "delivered" is newer news.
	if (known && isFinalStatus(known.status) && (!isFinalStatus(status) || known.status === 'read'))
		return true;
	const event: StatusEvent = {
		wa_message_id: id,
		status,
		...(status === 'failed'
			? { failed_reason: (input.failedReason ?? '').slice(0, MAX_REASON) }
			: {}),
		time: now,
	};
	events.set(id, event, now);
	for (const listener of [...(listeners.get(id) ?? [])]) listener(event);
	return true;
}

/** The latest status received for a message in the last TTL_MS, if any. */
export function recentStatus(waMessageId: string, now = Date.now()): StatusEvent | undefined {
	return events.get(waMessageId, now);
}

/** Calls `listener` with every status received for the message from now on; returns the unsubscribe. */
export function onStatus(waMessageId: string, listener: Listener): () => void {
	let set = listeners.get(waMessageId);
	if (!set) {
		set = new Set();
		listeners.set(waMessageId, set);
	}
	set.add(listener);
	return () => {
		const current = listeners.get(waMessageId);
		if (!current) return;
		current.delete(listener);
		if (current.size === 0) listeners.delete(waMessageId);
	};
}

/** What the hub received and holds (tests, the bench, and a check that status webhooks carry wa_message_id). */
export function statusHubCounts(): {
	published: number;
	withoutId: number;
	refused: number;
	kept: number;
	keptBytes: number;
	listening: number;
} {
	return { ...counts, kept: events.size, keptBytes: events.bytes, listening: listeners.size };
}

/** Forgets the statuses and counts (tests and the bench); waits in progress keep listening. */
export function clearStatusHub(): void {
	events.clear();
	counts.published = 0;
	counts.withoutId = 0;
	counts.refused = 0;
}
