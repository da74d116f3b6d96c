/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads and writes the README in plain Node.js */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { operationsTable } from '../scripts/operations-table';

const README = join(__dirname, '..', 'README.md');
const START = '<!-- operations:start -->';
const END = '<!-- operations:end -->';

describe('README', () => {
	it('lists every resource and operation of the node, as the node describes them', () => {
		const readme = readFileSync(README, 'utf8');
		const [before, rest] = readme.split(START);
		const after = rest.split(END)[1];
		const expected = `${before}${START}\n${operationsTable()}\n${END}${after}`;
		if (process.env.UPDATE_README) writeFileSync(README, expected);
		expect(readFileSync(README, 'utf8')).toBe(expected);
	});

	it('states the number of operations and resources the node has, wherever it states one', () => {
		const rows = operationsTable().split('\n').slice(2);
		const resources = new Set(rows.map((row) => row.split('|')[1].trim()));
		const texts = [
			'README.md',
			'docs/reliability.md',
			'docs/performance.md',
			'docs/queue-mode.md',
		].map((file) => readFileSync(join(__dirname, '..', file), 'utf8'));
		const stated = texts.flatMap((text) => [
			...text.matchAll(
				/(\d+)\s+operations|node's\s+(\d+)\s+operations|\((\d+), in (\d+) resources\)/g,
			),
		]);
		expect(stated.length).toBeGreaterThan(1);
		for (const match of stated) {
			const [operations, resourceCount] = [match[1] ?? match[2] ?? match[3], match[4]];
			expect({ text: match[0], operations: Number(operations) }).toEqual({
				text: match[0],
				operations: rows.length,
			});
			if (resourceCount) expect(Number(resourceCount)).toBe(resources.size);
		}
	});

	it('carries no dated figure: measured times, sizes, test counts and dates are in bench/RESULTS.md and bench/MEASUREMENTS.md, which it links to', () => {
		const readme = readFileSync(README, 'utf8');
		const dated = [
			/\b20\d\d-\d\d-\d\d\b/g, // a date
			/\b\d[\d,]* (?:passed|skipped)\b/g, // a test count
			/\b\d+ to \d+ s\b|\b\d+ min \d+ s\b|\(\d[\d,]{2,} s\)/g, // a measured duration (a setting such as "(10 s)" is not)
			/\b[Mm]easured: \d|\(measured: /g, // a measured figure
			/\bp95 \d/g, // a latency percentile
			/\b\d[\d.,]* ?kB\b/g, // a package size
		];
		expect(dated.flatMap((pattern) => readme.match(pattern) ?? [])).toEqual([]);
		for (const file of ['bench/RESULTS.md', 'bench/MEASUREMENTS.md']) {
			expect(readme).toContain(`](${file}`);
			expect(existsSync(join(__dirname, '..', file))).toBe(true);
		}
	});

	it('puts install, credential, quick start and the no-account demo on its first screen', () => {
		const firstScreen = readFileSync(README, 'utf8').split('\n').slice(0, 40).join('\n');
		for (const anchor of [
			'#installation',
			'#credentials',
			'#quick-start',
			'#demo-no-account-needed',
		])
			expect(firstScreen).toContain(`](${anchor})`);
		expect(firstScreen).toContain('npm run demo');
	});
});
