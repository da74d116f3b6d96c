/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the repository's files */
/**
 * The quick half of the recipe check (scripts/recipe-check.ts, `npm run check:recipe`, run by CI): CONTRIBUTING.md's
 * recipe for a new endpoint names the files the check edits, and each edit still finds its place in today's files.
 * The check itself adds the endpoint in a temporary copy and runs the type check and the related tests there.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recipeEdits, recipeFiles, RELATED_TESTS } from '../scripts/recipe-check';

const ROOT = join(__dirname, '..');

describe("CONTRIBUTING.md's recipe for a new endpoint", () => {
	it('names the files it says it touches, and the recipe check edits exactly those, each at a place that exists today', () => {
		const contributing = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
		const files = recipeFiles(contributing);
		const said = /Adding an endpoint touches (\w+) files/.exec(contributing)?.[1];
		expect(said).toBe(
			['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven'][files.length],
		);
		const edits = recipeEdits(ROOT);
		expect([...edits.keys()]).toEqual(files);
		for (const [file, text] of edits) {
			expect([file, /getCount|\/label\/count/.test(text)]).toEqual([file, true]);
		}
	});

	it('runs the tests that read what an endpoint adds, each a file that exists', () => {
		for (const file of RELATED_TESTS)
			expect(readFileSync(join(ROOT, file), 'utf8')).toMatch(/\bit(\.each)?\(/);
	});
});
