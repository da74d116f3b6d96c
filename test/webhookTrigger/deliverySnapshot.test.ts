/**
 * The duplicate memory's snapshot in the static data is written from the last one when a claim only appends a key
 * and drops the oldest (nodes/shared/triggers/deliveryMemory.ts, issue 54 point 2). Whatever happens to the memory
 * (the size bound, keys expiring in the middle, keys another process saved, duplicates, an odd expiry), each claim
 * leaves exactly the snapshot that writing every pair again gives (refreshSnapshot at the same moment).
 */
import type { IDataObject } from 'n8n-workflow';
import {
	claimDelivery,
	ID_TTL_SECONDS,
	MAX_KEYS,
	refreshSnapshot,
	releaseMemory,
	STATIC_DATA_KEY,
} from '../../nodes/shared/triggers/deliveryMemory';

let workflows = 0;
function oneMemory() {
	const id = `snapshot-${++workflows}`;
	const data: IDataObject = {};
	const context = { getWorkflow: () => ({ id }), getWorkflowStaticData: () => data };
	return { context, data, snapshot: () => String(data[STATIC_DATA_KEY] ?? '') };
}

/**
 * The memory under test, and its twin given the same claims but written in full after each (refreshSnapshot at the
 * same moment): after every step both snapshots are the same text.
 */
function memory() {
	const tested = oneMemory();
	const twin = oneMemory();
	const claim = (key: string, ttlSeconds: number, nowMs: number) => {
		const claimed = claimDelivery(tested.context, key, ttlSeconds, nowMs);
		expect(claimDelivery(twin.context, key, ttlSeconds, nowMs)).toBe(claimed);
		refreshSnapshot(twin.context, nowMs);
		expect([key, tested.snapshot()]).toEqual([key, twin.snapshot()]);
		return claimed;
	};
	/** Both static data hold `snapshot`, as after another process saved it. */
	const saved = (snapshot: string) => {
		tested.data[STATIC_DATA_KEY] = snapshot;
		twin.data[STATIC_DATA_KEY] = snapshot;
	};
	return { ...tested, claim, saved, twin };
}

const T0 = Date.parse('2026-12-02T00:00:00Z');

it('past the size bound, each claim drops the oldest pair and appends its own', () => {
	const { claim, snapshot } = memory();
	for (let n = 0; n < MAX_KEYS + 50; n++)
		expect(claim(`wamid.${n}`, ID_TTL_SECONDS, T0 + n)).toBe(true);
	const pairs = snapshot().split(' ');
	expect(pairs).toHaveLength(MAX_KEYS);
	expect(claim('wamid.3', ID_TTL_SECONDS, T0 + 2_000)).toBe(true); // dropped by the bound: new again
	expect(claim(`wamid.${MAX_KEYS + 49}`, ID_TTL_SECONDS, T0 + 2_001)).toBe(false);
});

it('keys that expire in the middle, keys another process saved, a released memory and an odd expiry', () => {
	const { claim, context, saved, snapshot, twin } = memory();
	// Content keys with a short window between id keys: they expire in the middle of the memory.
	for (let n = 0; n < 40; n++) claim(`key ${n}`, n % 3 === 0 ? 5 : ID_TTL_SECONDS, T0 + n * 1_000);
	claim('after the window', ID_TTL_SECONDS, T0 + 60_000);
	expect(snapshot().split(' ')).toHaveLength(41 - 14);
	// Another process saved keys this one does not hold: they are taken in, oldest first.
	const other = memory();
	other.claim('from another process', ID_TTL_SECONDS, T0 + 61_000);
	saved(`${other.snapshot()} ${snapshot()}`);
	claim('next', ID_TTL_SECONDS, T0 + 62_000);
	expect(snapshot().startsWith(other.snapshot())).toBe(true);
	// A window far beyond the usual width of an expiry, then usual claims again.
	claim('a long window', 10 ** 12, T0 + 63_000);
	claim('usual again', ID_TTL_SECONDS, T0 + 64_000);
	releaseMemory(context, T0 + 65_000);
	releaseMemory(twin.context, T0 + 65_000);
	expect(snapshot().startsWith('released ')).toBe(true);
	claim('after the release', ID_TTL_SECONDS, T0 + 66_000);
});
