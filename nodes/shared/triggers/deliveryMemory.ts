import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * What a workflow's BotSailor triggers remember of the events they started it with, so that one event
 * starts one execution: the same webhook delivered twice (or five times, or concurrently), and a message
 * that both the webhook trigger and the polling trigger see in one workflow.
 *
 * Where it lives, and why both places:
 * - In this process, a map per workflow (module state, shared by both trigger nodes of this package,
 *   which n8n loads with one `require`). n8n runs every webhook call and every poll of a process on one
 *   thread, and the check-and-record below has no `await` inside, so two concurrent deliveries cannot
 *   both pass. Workflow static data alone cannot do that: n8n loads a fresh copy of it from the database
 *   for every webhook request and saves it after answering, so two concurrent requests both read the
 *   copy without the other's key.
 * - In the workflow's static data (`global`, one key), as a snapshot written whenever a key is recorded
 *   and again by the execution a webhook started (the Webhook Trigger's execute: n8n 2.41 does not save
 *   what a webhook call writes, it saves what an execution writes), so the memory survives a restart. Per
 *   workflow, not per node, so that the polling trigger in the same workflow reads and writes the same
 *   memory; and always the whole snapshot from the process map, so whichever save comes last (an
 *   execution or a poll) stores the union of what this process has seen.
 * - The webhook trigger's activation (webhookMethods create, also after a restart) loads the memory into
 *   the process; the polling trigger takes part only while it is loaded, so a workflow without a webhook
 *   trigger is left as it was.
 * - An update in place (Settings → Community Nodes → Update) loads the new release's code beside the old
 *   one without re-activating anything: the new copy holds no memory of what the old copy's webhook
 *   started, and the poll's static data is the copy n8n loaded at activation. The poll then waits
 *   (awaitingWebhookMemory) until this copy has the memory: the next webhook call loads it from the
 *   database (n8n gives each call a fresh copy), or the poll adopts its own copy after ADOPT_AFTER_MS.
 *
 * Bounded by size (MAX_KEYS per workflow, oldest dropped first) and age (each key expires: ids after
 * ID_TTL_SECONDS, keys made of content only after the shorter window the caller gives). Keys are stored
 * as hashes, so neither memory holds message text or phone numbers.
 */

export const MAX_KEYS = 1000;
export const ID_TTL_SECONDS = 24 * 60 * 60;
/** The key of the snapshot in the workflow's global static data. */
export const STATIC_DATA_KEY = 'botSailorDeliveries';

/**
 * How long the polling trigger waits for the webhook trigger's memory after an update in place before
 * it adopts what its own static data holds (and may start again a message the old code's webhook
 * started in the last poll interval before the update). Nothing is lost meanwhile: the cursor stays.
 */
export const ADOPT_AFTER_MS = 15 * 60 * 1000;
/**
 * Leads the snapshot that a deactivation stored: the webhook trigger is gone (or the workflow is off),
 * so a poll must not wait for it. A token without ':' is skipped by every release's parser.
 */
const RELEASED = 'released';

/** hash → expiry (epoch seconds), oldest recorded first. */
type Keys = Map<string, number>;

const memories = new Map<string, Keys>();
/** The snapshot this process last wrote per workflow: when the static data still holds it, there is nothing to merge. */
const written = new Map<string, string>();
/** Since when the poll of a workflow has been waiting for the memory (awaitingWebhookMemory). */
const waitingSince = new Map<string, number>();
/**
 * The snapshot text of exactly what the memory holds since its last save, when every pair in it has the usual width
 * (PAIR_WIDTH): a claim then cuts the oldest pairs off its front and appends its own instead of writing all 1,000
 * pairs of a busy account again (that rewrite was most of the Webhook Trigger's own time per message, issue 54).
 * Dropped when the memory takes in keys from the static data (memoryOf), whose order the text would not follow.
 */
const snapshots = new Map<string, string>();
/** A pair `hash:expiry`: 22 characters of hash, ':', an expiry of 10 digits (epoch seconds until the year 2286). */
const PAIR_WIDTH = 33;

/** What the memory needs of an n8n context (webhook, poll and hook functions all have these). */
export interface MemoryContext {
	getWorkflow(): { id?: string };
	getWorkflowStaticData(type: string): IDataObject;
}

function workflowIdOf(context: MemoryContext): string {
	return String(context.getWorkflow().id ?? '');
}

export function hashKey(key: string): string {
	return createHash('sha256').update(key).digest('base64url').slice(0, 22);
}

/**
 * The snapshot in the static data: one string of `hash:expiry` pairs separated by spaces (a single
 * value is cheap for n8n's observable static data to read and write, where an object of a thousand
 * keys is not), or undefined when the memory was never prepared.
 */
function persisted(context: MemoryContext): string | undefined {
	const stored = context.getWorkflowStaticData('global')[STATIC_DATA_KEY];
	return typeof stored === 'string' ? stored : undefined;
}

function parse(snapshot: string): Array<[string, number]> {
	const entries: Array<[string, number]> = [];
	for (const pair of snapshot.split(' ')) {
		const separator = pair.indexOf(':');
		const expires = Number(pair.slice(separator + 1));
		if (separator > 0 && Number.isFinite(expires))
			entries.push([pair.slice(0, separator), expires]);
	}
	return entries;
}

/** Drops expired keys, then the oldest while over the size bound. */
function prune(keys: Keys, nowSeconds: number): void {
	for (const [key, expires] of keys) if (expires <= nowSeconds) keys.delete(key);
	for (const key of keys.keys()) {
		if (keys.size <= MAX_KEYS) break;
		keys.delete(key);
	}
}

/**
 * The process memory of the context's workflow, with what the static data holds merged in (after a
 * restart, or keys another n8n process saved). Synchronous: callers check and record without a gap.
 */
function memoryOf(context: MemoryContext, nowSeconds: number): Keys {
	const id = workflowIdOf(context);
	let keys = memories.get(id);
	if (!keys) {
		keys = new Map();
		memories.set(id, keys);
	}
	const saved = persisted(context);
	if (saved && saved !== written.get(id)) {
		const merged = parse(saved).filter(([key, expires]) => expires > nowSeconds && !keys.has(key));
		if (merged.length) {
			snapshots.delete(id);
			// Older than anything recorded here since: they go first, so they are also dropped first.
			const current = [...keys];
			keys.clear();
			for (const [key, expires] of [...merged.sort((a, b) => a[1] - b[1]), ...current])
				keys.set(key, expires);
		}
	}
	prune(keys, nowSeconds);
	return keys;
}

function save(context: MemoryContext, keys: Keys, released = false): void {
	const id = workflowIdOf(context);
	const pairs = [...keys].map(([key, expires]) => `${key}:${expires}`);
	if (!released && pairs.every((pair) => pair.length === PAIR_WIDTH))
		snapshots.set(id, pairs.join(' '));
	else snapshots.delete(id);
	write(context, id, (released ? [RELEASED, ...pairs] : pairs).join(' '));
}

function write(context: MemoryContext, id: string, snapshot: string): void {
	written.set(id, snapshot);
	context.getWorkflowStaticData('global')[STATIC_DATA_KEY] = snapshot;
}

/**
 * Saves after `keys` took in one new key (the last) and lost only keys the snapshot held: from the snapshot of the
 * last save, when the keys it still holds are exactly its newest pairs (only its oldest were dropped: by age or by
 * the size bound); otherwise as save() does. Keys are unique and never change their expiry, so the count and the
 * first key tell whether a key went from the middle.
 */
function saveClaim(context: MemoryContext, keys: Keys, key: string, expires: number): void {
	const id = workflowIdOf(context);
	const before = snapshots.get(id);
	const pair = `${key}:${expires}`;
	if (before === undefined || pair.length !== PAIR_WIDTH) return save(context, keys);
	const held = before === '' ? 0 : (before.length + 1) / (PAIR_WIDTH + 1);
	const kept = keys.size - 1;
	const start = (held - kept) * (PAIR_WIDTH + 1);
	const first = keys.keys().next().value as string;
	let snapshot: string | undefined;
	if (kept === 0) snapshot = pair;
	else if (kept <= held && before.slice(start, start + first.length + 1) === `${first}:`)
		snapshot = `${before.slice(start)} ${pair}`;
	if (snapshot === undefined) return save(context, keys);
	snapshots.set(id, snapshot);
	write(context, id, snapshot);
}

/**
 * Records `key` for `ttlSeconds` and returns true when it was not known: the caller starts the
 * workflow. False means a duplicate: start nothing. The static data snapshot is updated either way
 * when something changed, for n8n to save.
 */
export function claimDelivery(
	context: MemoryContext,
	key: string,
	ttlSeconds: number,
	nowMs = Date.now(),
): boolean {
	const nowSeconds = Math.floor(nowMs / 1000);
	const keys = memoryOf(context, nowSeconds);
	const hashed = hashKey(key);
	if (keys.has(hashed)) return false;
	keys.set(hashed, nowSeconds + ttlSeconds);
	prune(keys, nowSeconds);
	// The new key is the newest: prune drops the oldest first and never an expiry still ahead.
	saveClaim(context, keys, hashed, nowSeconds + ttlSeconds);
	return true;
}

/**
 * Whether a webhook trigger of this workflow is active in this process (its activation loaded the
 * memory and did not release it since): only then does the polling trigger consult and feed it. Reads no
 * static data, so a workflow with the polling trigger alone is left exactly as it was.
 */
export function isShared(context: MemoryContext): boolean {
	return memories.has(workflowIdOf(context));
}

/**
 * Loads the workflow's memory into this process from its static data (or creates it), and writes the memory's
 * snapshot back there: at activation, and before the polling trigger emits (n8n then saves the poll's whole static
 * data, which must not carry an older snapshot than the one the webhook calls saved meanwhile).
 */
export function refreshSnapshot(context: MemoryContext, nowMs = Date.now()): void {
	save(context, memoryOf(context, Math.floor(nowMs / 1000)));
}

/**
 * On deactivation: the latest snapshot goes to the static data (n8n saves it after removing webhooks),
 * and this process forgets the workflow.
 */
export function releaseMemory(context: MemoryContext, nowMs = Date.now()): void {
	const id = workflowIdOf(context);
	if (!memories.has(id)) return;
	save(context, memoryOf(context, Math.floor(nowMs / 1000)), true);
	memories.delete(id);
	written.delete(id);
	snapshots.delete(id);
}

/**
 * Whether the polling trigger must emit nothing yet, keeping its cursor: a webhook trigger of this
 * workflow is active (its snapshot is in the static data, not released) but this copy of the package
 * never loaded its memory, which happens after an update in place (see the top of this file). Ends when
 * a webhook call loads the memory here, or after ADOPT_AFTER_MS, when the poll adopts its own copy.
 */
export function awaitingWebhookMemory(context: MemoryContext, nowMs = Date.now()): boolean {
	const id = workflowIdOf(context);
	const saved = persisted(context);
	if (memories.has(id) || saved === undefined || saved.startsWith(RELEASED)) {
		waitingSince.delete(id);
		return false;
	}
	const since = waitingSince.get(id) ?? nowMs;
	waitingSince.set(id, since);
	if (nowMs - since < ADOPT_AFTER_MS) return true;
	waitingSince.delete(id);
	refreshSnapshot(context, nowMs);
	return false;
}

/** How many keys this process remembers for the workflow (for tests and measurements). */
export function rememberedCount(workflowId: string): number {
	return memories.get(workflowId)?.size ?? 0;
}
