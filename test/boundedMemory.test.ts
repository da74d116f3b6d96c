/**
 * The one bounded memory of the package's process state (nodes/shared/parameters/boundedMemory.ts, issue 52 point 7):
 * bounded by count and by bytes, the oldest entry dropped first, entries past their TTL forgotten.
 */
import { approximateBytes, boundedMemory } from '../nodes/shared/parameters/boundedMemory';

describe('boundedMemory', () => {
	it('drops the oldest entry past maxEntries; setting a key again makes it the newest', () => {
		const memory = boundedMemory<string, number>({ maxEntries: 3, maxBytes: 1_000_000 });
		for (const key of ['a', 'b', 'c']) memory.set(key, 1);
		memory.set('a', 2);
		memory.set('d', 1);
		expect([...memory.entries()].map(([key]) => key)).toEqual(['c', 'a', 'd']);
		expect(memory.get('b')).toBeUndefined();
		expect(memory.get('a')).toBe(2);
	});

	it('drops the oldest entries past maxBytes, refuses an entry larger than all of it, and counts bytes back down', () => {
		const memory = boundedMemory<string, string>({ maxEntries: 1_000, maxBytes: 1_000 });
		for (let index = 0; index < 10; index++) memory.set(`k${index}`, 'x'.repeat(200));
		expect(memory.bytes).toBeLessThanOrEqual(1_000);
		expect(memory.size).toBe(2);
		expect(memory.has('k9')).toBe(true);
		expect(memory.set('huge', 'x'.repeat(600))).toBe(false);
		expect(memory.has('huge')).toBe(false);
		memory.delete('k9');
		memory.delete('k8');
		expect(memory.bytes).toBe(0);
	});

	it('forgets an entry at its TTL, and drops expired entries when a newer one is set', () => {
		const memory = boundedMemory<string, number>({ maxEntries: 10, maxBytes: 10_000, ttlMs: 100 });
		memory.set('old', 1, 0);
		expect(memory.get('old', 99)).toBe(1);
		expect(memory.get('old', 100)).toBeUndefined();
		memory.set('a', 1, 0);
		memory.set('b', 1, 150);
		expect(memory.size).toBe(1);
	});

	it('estimates strings as UTF-16, and sees into plain objects and arrays', () => {
		expect(approximateBytes('abcd')).toBe(8);
		expect(approximateBytes({ id: 'ab' })).toBe(16 + 4 + 4);
		expect(approximateBytes(['ab', 1])).toBe(16 + 4 + 8);
		expect(approximateBytes(Promise.resolve())).toBe(64);
	});
});
