/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the README in plain Node.js */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BotSailor } from '../nodes/BotSailor/BotSailor.node';
import { RESOURCES } from '../nodes/BotSailor/resources';
import { INITIAL_SENDS_IN_FLIGHT } from '../nodes/BotSailor/sending/pace';
import {
	operationsTable,
	withOperationsTable,
	withoutOperationsTable,
} from '../scripts/operations-table';

const ROOT = join(__dirname, '..');
const README = join(ROOT, 'README.md');
const { properties } = new BotSailor().description;
const docsPages = () =>
	readdirSync(join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`);
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
/** The text of a Markdown section: from its heading to the next heading of the same or a higher level. */
function section(markdown: string, heading: string): string {
	const level = /^#+/.exec(heading)![0].length;
	const start = markdown.split('\n').findIndex((line) => line === heading);
	if (start < 0) return '';
	const lines = markdown.split('\n').slice(start + 1);
	let fenced = false; // a `# comment` in a code block is no heading
	const end = lines.findIndex((line) => {
		if (line.startsWith('```')) fenced = !fenced;
		return !fenced && new RegExp(`^#{1,${level}} `).test(line);
	});
	return lines.slice(0, end < 0 ? undefined : end).join('\n');
}

describe('README', () => {
	it('lists every resource and operation of the node, as the node describes them', () => {
		// `npm run generate` (scripts/generate.ts) writes the table; this only reads.
		const readme = readFileSync(README, 'utf8');
		expect(readme).toBe(withOperationsTable(readme, properties));
	});

	it('states the number of operations and resources the node has, wherever it states one (README, CONTRIBUTING, docs/)', () => {
		const rows = operationsTable(properties).split('\n').slice(2);
		const resources = new Set(rows.map((row) => row.split('|')[1].trim()));
		const texts = ['README.md', 'CONTRIBUTING.md', ...docsPages()].map((file) =>
			readFileSync(join(ROOT, file), 'utf8'),
		);
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

	it('states the number of sends, their names and the pace they start at as the code has them (README, CONTRIBUTING, docs/)', () => {
		const WORDS = [
			'zero',
			'one',
			'two',
			'three',
			'four',
			'five',
			'six',
			'seven',
			'eight',
			'nine',
			'ten',
		];
		const sends = RESOURCES.flatMap((resource) =>
			resource.operations.flatMap((operation) => (operation.send ? [operation.option.name] : [])),
		);
		const texts = ['README.md', 'CONTRIBUTING.md', ...docsPages()].map(read).join('\n');
		// "the six sends", "the six send operations (Send Text, …)": every send, and only the sends.
		const stated = [
			...texts.matchAll(/\b[Tt]he\s+(\w+)\s+send(?:s|\s+operations)\b(?:\s+\(([^)]*)\))?/g),
		]
			.filter((match) => WORDS.includes(match[1]))
			.map((match) => ({
				count: WORDS.indexOf(match[1]),
				named: match[2]?.replace(/\s+/g, ' ').split(/, | and /),
			}));
		expect(stated.length).toBeGreaterThan(1);
		for (const { count, named } of stated) {
			expect(count).toBe(sends.length);
			if (named)
				expect(named.map((name) => name.replace(/^.* → /, '')).sort()).toEqual([...sends].sort());
		}
		// "starts at 6 sends in flight", "the pace starting at 6", "pace.ts`: from 6": the pace's first width.
		const starts = [
			...texts.matchAll(/\b(?:starts\s+at|starting\s+at|pace\.ts`:\s+from)\s+(\d+)\b(?!,\d)/g),
		].map((match) => Number(match[1]));
		expect(starts.length).toBeGreaterThan(1);
		expect(new Set(starts)).toEqual(new Set([INITIAL_SENDS_IN_FLIGHT]));
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
	it('is for the people who use the package: at most about 330 lines besides the generated operations table (which grows a row per operation)', () => {
		const readme = read('README.md');
		const handWritten = withoutOperationsTable(readme).split('\n').length;
		expect(handWritten).toBeLessThan(readme.split('\n').length);
		expect(handWritten).toBeLessThanOrEqual(330);
	});

	it('keeps its sections for users, Compatibility among them', () => {
		const headings = [...read('README.md').matchAll(/^## (.+)$/gm)].map((match) => match[1]);
		expect(headings).toEqual(
			expect.arrayContaining([
				'Installation',
				'Credentials',
				'Quick start',
				'Demo: no account needed',
				'Operations',
				'Triggers',
				'Examples',
				'Compatibility',
				'Documentation',
			]),
		);
	});

	it('keeps its two set-up commands: `npm run demo` (no account needed) and `npm test`', () => {
		const blocks = [...read('README.md').matchAll(/^```bash\n([\s\S]*?)^```/gm)].map((m) => m[1]);
		expect(blocks.some((block) => /^npm run demo\b/m.test(block))).toBe(true);
		expect(blocks.some((block) => /^npm test$/m.test(block))).toBe(true);
	});

	it('Installation says n8n 3.0 disables unverified community packages, and how a self-hoster enables them', () => {
		const installation = section(read('README.md'), '## Installation');
		expect(installation).toMatch(/n8n 3\.0[^.]*disables unverified community packages/i);
		expect(installation).toContain('N8N_UNVERIFIED_PACKAGES_ENABLED=true');
		expect(installation).toContain('](docs/verification.md)');
		// queue mode in one paragraph, pointing to its page
		expect(section(installation, '### Queue mode')).toContain('](docs/queue-mode.md)');
	});

	// Each topic that left the README has its page in docs/, linked from the README, with what the README
	// used to promise on it (a heading per part, so a lost part fails here).
	const HOMES: Record<string, string[]> = {
		'docs/triggers.md': [
			'## BotSailor Trigger (polling)',
			'## BotSailor Webhook Trigger',
			'### Setup',
			'### What it answers',
			'### Duplicates',
			'### Limits: what the platform does not send',
			'### Trying it against the simulator',
			'### Both triggers in one workflow',
		],
		'docs/24-hour-window.md': ['# The 24-hour window'],
		'docs/send-and-wait.md': ['# Send and Wait for Response'],
		'docs/media.md': ['# Media'],
		'docs/queue-mode.md': ['# Queue mode', '## Set up', '## Internals and measurements'],
		'docs/ai-agents.md': [
			'# AI agents and MCP',
			'## The AI receptionist',
			'## AI clients (MCP Server Trigger)',
			'## Compatibility',
		],
		'docs/reliability.md': ['# Reliability', '## The credential test'],
		'docs/performance.md': ['# Performance', '## What the bench checks'],
		'docs/updating.md': ['# Updating', '## After a tarball install', '## Pinning the version'],
		'docs/examples.md': ['# Examples: what a test run does'],
		'docs/verification.md': [
			'# n8n verification: requirements and evidence',
			'## Left to a person',
		],
		'CONTRIBUTING.md': [
			'# Contributing',
			'## The quick check',
			'## One test file',
			'## Requirements',
			'## Debugging the published code',
		],
	};
	it.each(Object.entries(HOMES))(
		'%s is the home of a topic the README links to, with its parts',
		(file, headings) => {
			expect(read('README.md')).toContain(`](${file})`);
			const lines = read(file).split('\n');
			for (const heading of headings) expect(lines).toContain(heading);
			expect(lines.length).toBeGreaterThan(headings.length + 5);
		},
	);

	it('every page in docs/ is linked from the README', () => {
		const readme = read('README.md');
		expect(docsPages().filter((page) => !readme.includes(`](${page}`))).toEqual([]);
	});

	it('docs/updating.md keeps the update notes for old versions (0.1.0)', () => {
		expect(read('docs/updating.md')).toMatch(/\*\*Updating from 0\.1\.0 only:\*\*/);
	});

	it('CONTRIBUTING.md starts with the quick check, then how to run one test file (a file that exists)', () => {
		const sections = read('CONTRIBUTING.md').split(/^## /m).slice(1);
		expect(sections[0]).toMatch(/^The quick check\n[\s\S]*```bash\nnpm run check\n```/);
		expect(sections[0]).toMatch(/lint[\s\S]*format[\s\S]*type[\s\S]*unit suite/);
		const oneTest = /^One test file\n[\s\S]*```bash\nnpm test -- (\S+)\n```/.exec(sections[1]);
		expect(oneTest).not.toBeNull();
		expect(existsSync(join(ROOT, oneTest![1]))).toBe(true);
	});

	it('every `npm run <script>` the README, CONTRIBUTING.md and docs/ name is a script of package.json', () => {
		const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
		const named = ['README.md', 'CONTRIBUTING.md', ...docsPages()].flatMap((file) =>
			[...read(file).matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]),
		);
		expect(named.length).toBeGreaterThan(10);
		expect([...new Set(named)].filter((name) => !(name in scripts))).toEqual([]);
	});
});
