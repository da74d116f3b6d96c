/**
 * The one memory a module keeps per n8n process (statuses received, deliveries recorded, paces, cached lists, …):
 * a Map bounded by count and by bytes, oldest entry dropped first, optionally forgetting entries older than a TTL.
 * What each process remembers, for how long, and what that means with several processes: docs/queue-mode.md.
 *
 *   const seen = boundedMemory<string, Status>({ maxEntries: 10_000, maxBytes: 4_000_000, ttlMs: 30 * 60_000 });
 *   seen.set(id, status);   // false when the entry alone is over maxBytes: nothing is kept
 *   seen.get(id);           // undefined once dropped or expired
 *
 * Bytes are estimated (UTF-16 strings, 8 per number, a little per object): a bound on what an entry can hold, not a
 * measure of the heap. A value the estimate cannot see into (a Promise, a class instance) counts a fixed size; give
 * `sizeOf` where such a value holds more.
 */

export interface MemoryBounds<K, V> {
	/** At most this many entries: the oldest is dropped first. */
	maxEntries: number;
	/** At most this many bytes (estimated, keys included): the oldest entries are dropped first. */
	maxBytes: number;
	/** Entries older than this are forgotten (read as absent, dropped when met). */
	ttlMs?: number;
	/** The size of an entry in bytes, when the estimate (approximateBytes) cannot see into its value. */
	sizeOf?: (key: K, value: V) => number;
}

export interface BoundedMemory<K, V> {
	/** The value, unless it was dropped or has expired. */
	get(key: K, now?: number): V | undefined;
	has(key: K, now?: number): boolean;
	/** Keeps the value as the newest entry; false (nothing kept, an older value of the key dropped) when it alone is over maxBytes. */
	set(key: K, value: V, now?: number): boolean;
	delete(key: K): boolean;
	clear(): void;
	/** The entries kept, oldest first (expired ones included until met). */
	entries(): IterableIterator<[K, V]>;
	readonly size: number;
	/** The estimated bytes of the entries kept. */
	readonly bytes: number;
}

/** What a fixed-size thing (a Promise, a function, a class instance) counts. */
const OPAQUE_BYTES = 64;

/** An estimate of what a value holds, in bytes: strings as UTF-16, numbers 8, plain objects and arrays their parts. */
export function approximateBytes(value: unknown, depth = 0): number {
	if (typeof value === 'string') return 2 * value.length;
	if (typeof value === 'number' || typeof value === 'bigint') return 8;
	if (typeof value === 'boolean' || value === null || value === undefined) return 4;
	if (depth > 8 || typeof value !== 'object') return OPAQUE_BYTES;
	if (Array.isArray(value))
		return value.reduce((sum: number, part) => sum + approximateBytes(part, depth + 1), 16);
	if (Object.getPrototypeOf(value) !== Object.prototype) return OPAQUE_BYTES;
	let sum = 16;
	for (const [key, part] of Object.entries(value))
		sum += 2 * key.length + approximateBytes(part, depth + 1);
	return sum;
}

export function boundedMemory<K, V>(bounds: MemoryBounds<K, V>): BoundedMemory<K, V> {
	const kept = new Map<K, { value: V; at: number; bytes: number }>();
	let bytes = 0;
	const sizeOf =
		bounds.sizeOf ?? ((key: K, value: V) => approximateBytes(key) + approximateBytes(value));
	const expired = (at: number, now: number) =>
		bounds.ttlMs !== undefined && now - at >= bounds.ttlMs;
	const drop = (key: K) => {
		const entry = kept.get(key);
		if (!entry) return false;
		bytes -= entry.bytes;
		return kept.delete(key);
	};
	const memory: BoundedMemory<K, V> = {
		get(key, now = Date.now()) {
			const entry = kept.get(key);
			if (!entry) return undefined;
			if (expired(entry.at, now)) {
				drop(key);
				return undefined;
			}
			return entry.value;
		},
		has: (key, now) => memory.get(key, now) !== undefined,
		set(key, value, now = Date.now()) {
			drop(key);
			const size = sizeOf(key, value);
			if (size > bounds.maxBytes) return false;
			kept.set(key, { value, at: now, bytes: size });
			bytes += size;
			// Map keeps insertion order: the first entries are the oldest.
			for (const [oldest, entry] of kept) {
				if (kept.size <= bounds.maxEntries && bytes <= bounds.maxBytes && !expired(entry.at, now))
					break;
				drop(oldest);
			}
			return true;
		},
		delete: drop,
		clear() {
			kept.clear();
			bytes = 0;
		},
		*entries() {
			for (const [key, entry] of kept) yield [key, entry.value];
		},
		get size() {
			return kept.size;
		},
		get bytes() {
			return bytes;
		},
	};
	return memory;
}
