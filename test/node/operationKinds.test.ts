/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads nodes/shared/http/readPaths.ts in plain Node.js */
/**
 * Every operation says what it does to the platform next to its endpoint (resources/<resource>/<operation>.ts `kind`:
 * read, write or send), and the read retries follow from that alone: nodes/shared/http/readPaths.ts is generated from the
 * operations of kind read (`npm run generate`, scripts/read-paths.ts), so a new Get cannot silently lose
 * its retries and a write or a send is never retried as a read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OperationKind } from '../../nodes/BotSailor/resources/resource';
import { SENDS } from '../../nodes/BotSailor/resources/sends';
import { READ_PATHS } from '../../nodes/shared/http/readPaths';
import { isReadPath } from '../../nodes/shared/http/transport';
import { operations, readPathsSource } from '../../scripts/read-paths';
import { describedOperations } from '../reliability/checks';

const READ_PATHS_FILE = join(__dirname, '../../nodes/shared/http/readPaths.ts');

describe('operation kinds', () => {
	it('every operation has one of the three kinds', () => {
		// As many as the node describes (a count is derived, never typed).
		expect(operations).toHaveLength(describedOperations().length);
		const kinds: OperationKind[] = ['read', 'write', 'send'];
		expect(operations.filter((entry) => !kinds.includes(entry.kind))).toEqual([]);
	});

	it('the sends are exactly the operations of kind send (and Send and Wait)', () => {
		const sends = operations.filter((entry) => entry.kind === 'send').map((entry) => entry.name);
		expect(sends.sort()).toEqual(
			[
				...SENDS.map((send) => `${send.resource} → ${send.operation}`),
				'message → sendAndWait',
			].sort(),
		);
	});

	it('no endpoint is a read for one operation and a write or a send for another', () => {
		const kindsByUrl = new Map<string, Set<OperationKind>>();
		for (const entry of operations)
			for (const url of entry.urls)
				kindsByUrl.set(url, new Set([...(kindsByUrl.get(url) ?? []), entry.kind]));
		const mixed = [...kindsByUrl].filter(([, kinds]) => kinds.has('read') && kinds.size > 1);
		expect(mixed).toEqual([]);
	});

	it('nodes/shared/http/readPaths.ts is generated from the reads (`npm run generate` rewrites it)', () => {
		expect(readFileSync(READ_PATHS_FILE, 'utf8')).toBe(readPathsSource());
	});

	it('every read endpoint is retried as a read, and no write or send endpoint is', () => {
		const reads = operations
			.filter((entry) => entry.kind === 'read')
			.flatMap((entry) => entry.urls);
		const others = operations.filter((entry) => entry.kind !== 'read');
		expect(reads.length).toBeGreaterThan(20);
		expect(reads.filter((url) => !isReadPath(url))).toEqual([]);
		expect(others.length).toBeGreaterThan(35);
		expect(
			others.flatMap((entry) =>
				entry.urls.filter(isReadPath).map((url) => `${entry.name}: ${url}`),
			),
		).toEqual([]);
		expect(READ_PATHS.size).toBe(new Set(reads).size);
	});
});
