/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a test reading and (in record mode) writing files in the repository, not node code */
/**
 * What CI's e2e runs cover (test/e2e/versions.js, docs/testing.md): every e2e file is listed, so a new file runs on
 * the pinned n8n at least and says where else; a browser check without a Chromium fails on the pinned n8n and is a
 * reported skip elsewhere.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumVerdict } from './e2e/editor';
import { PINNED_N8N_VERSION } from './e2e/n8n';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript shared with the e2e jest config
const versions = require('./e2e/versions') as {
	PINNED: string;
	FILES: Record<string, { since: string; before?: string }>;
	e2eFilesFor(version: string): { run: string[]; notRun: Array<{ file: string; reason: string }> };
};

const e2eFiles = readdirSync(join(__dirname, 'e2e'))
	.filter((name) => name.endsWith('.e2e.test.ts'))
	.map((name) => name.replace(/\.e2e\.test\.ts$/, ''))
	.sort();

describe('which e2e file runs on which n8n', () => {
	it('lists every e2e file, and only those', () => {
		expect(Object.keys(versions.FILES).sort()).toEqual(e2eFiles);
	});

	it('runs every file on the pinned n8n, the one the unit tests and the browser checks stand on', () => {
		expect(versions.PINNED).toBe(PINNED_N8N_VERSION);
		const { run, notRun } = versions.e2eFilesFor(PINNED_N8N_VERSION);
		expect(notRun).toEqual([]);
		expect(run.slice().sort()).toEqual(e2eFiles);
	});

	it('on the 1.x versions CI runs, leaves out only files with a reason, and runs the version-sensitive ones', () => {
		for (const version of ['1.85.4', '1.123.81']) {
			const { run, notRun } = versions.e2eFilesFor(version);
			expect(run).toEqual(
				expect.arrayContaining(['n8n', 'sendAndWait', 'webhookTrigger', 'media']),
			);
			for (const entry of notRun) expect(entry.reason).toMatch(/\S{10,}/);
			expect(run.length + notRun.length).toBe(e2eFiles.length);
		}
		expect(versions.e2eFilesFor('1.123.81').run).toEqual(
			expect.arrayContaining(['aiAgent', 'mcpServer']),
		);
	});

	it('a browser check without Chromium fails on the pinned n8n and is skipped elsewhere', () => {
		expect(chromiumVerdict(PINNED_N8N_VERSION, undefined)).toBe('fail');
		expect(chromiumVerdict('1.123.81', undefined)).toBe('skip');
		expect(chromiumVerdict(PINNED_N8N_VERSION, '/usr/bin/chromium')).toBe('run');
	});
});
