/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a test reading files in the repository, not node code */
/**
 * What a saved workflow gets, per node version: for every resource and operation, the parameters the
 * node shows and their defaults (values equal to a default are not stored in a workflow, so a changed
 * default changes saved workflows). test/node/versions.json records them; this test fails any edit that
 * changes or removes a recorded parameter, and any version, operation or parameter that is not recorded yet.
 * A change must be a new node version (docs/versioning.md). Additions only: `npm run generate`
 * (scripts/versions-record.ts) records a new version, operation or parameter (a new parameter's default is what old
 * workflows get, so it must keep their behaviour) and never rewrites what is already recorded; a deleted or
 * renamed record file fails, it is never written afresh by a plain test run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BotSailor } from '../../nodes/BotSailor/BotSailor.node';
import { describedOperations } from '../reliability/checks';
import {
	currentRecord,
	shownWithDefaults as shownBy,
	type VersionsRecord as Record,
} from '../../scripts/versions-record';

const nodeType = new BotSailor();
const versions = nodeType.description.version as number[];
const RECORD = join(__dirname, 'versions.json');
const shownWithDefaults = (typeVersion: number, resource: string, operation: string) =>
	shownBy(nodeType, typeVersion, resource, operation);

describe('node versions', () => {
	const now = currentRecord(nodeType);

	it('has the versions docs/versioning.md lists, the newest as default', () => {
		expect(versions).toEqual([1, 1.1, 1.2]);
		expect(nodeType.description.defaultVersion).toBe(1.2);
	});

	it('the record exists (a missing file fails; it is never written by a plain test run)', () => {
		expect(existsSync(RECORD)).toBe(true);
	});

	it.each(versions)(
		'version %s: every recorded operation shows the same parameters and defaults; every operation is recorded',
		(typeVersion) => {
			const recorded = (JSON.parse(readFileSync(RECORD, 'utf8')) as Record)[String(typeVersion)];
			expect(recorded).toBeDefined();
			const shown = now[String(typeVersion)];
			// Removed or renamed: saved workflows with that operation would break.
			expect(Object.keys(recorded).filter((operation) => !(operation in shown))).toEqual([]);
			// Not recorded yet: `npm run generate` adds it (it never rewrites a recorded entry).
			expect(Object.keys(shown).filter((operation) => !(operation in recorded))).toEqual([]);
			for (const [operation, parameters] of Object.entries(recorded)) {
				// Every recorded parameter keeps its default; a parameter not recorded yet fails until generated.
				expect({ [operation]: shown[operation] }).toEqual({ [operation]: parameters });
			}
		},
	);

	it('versions 1 and 1.1 differ only in Send Template', () => {
		const differing = describedOperations()
			.filter(
				({ resource, operation }) =>
					JSON.stringify(shownWithDefaults(1, resource, operation)) !==
					JSON.stringify(shownWithDefaults(1.1, resource, operation)),
			)
			.map(({ resource, operation }) => `${resource}.${operation}`);
		expect(differing).toEqual(['message.sendTemplate']);
	});
});
