/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the source tree and the docs */
/**
 * A file a comment or a page names must exist: a reference to a file under nodes/ or docs/ that a move left
 * behind sends the next reader nowhere. Checked: every Markdown file but the CHANGELOG (a history names
 * files as they were then), and the comments of the code in nodes/, credentials/, scripts/, test/, bench/ and of the
 * configuration files at the root (gulpfile.js, eslint.config.mjs, jest.config.js). Also the
 * Markdown files' relative links, and their anchors into Markdown pages (GitHub's heading ids).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
const SKIP_DIRS = new Set(['node_modules', 'dist', '.cache', 'coverage', 'test-results', '.git']);
/** Written by a run, not tracked (.gitignore): a reference to them is to what the run leaves behind. */
const GENERATED = new Set([
	'test/reliability/RESULTS.md',
	'test/reliability/results',
	'bench/RESULTS.quick.md',
]);
/** Repository paths: they start with one of the repository's top-level folders. */
const PATH =
	/(?<![\w./@~-])((?:nodes|credentials|scripts|test|docs|bench|examples|icons|\.github|\.ci)\/[\w./-]*[\w/])(?![\w<{*$])/g;

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
	return readdirSync(dir).flatMap((name) => {
		if (SKIP_DIRS.has(name)) return [];
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return filesUnder(path, keep);
		return keep(path) ? [path] : [];
	});
}

function markdownFiles(): string[] {
	return filesUnder(ROOT, (path) => path.endsWith('.md')).filter(
		(path) =>
			relative(ROOT, path) !== 'CHANGELOG.md' &&
			!GENERATED.has(relative(ROOT, path).split('\\').join('/')),
	);
}

/** The comments of a code file: `//` and block comments (JS/TS), `#` lines (shell). */
function commentsOf(path: string): string {
	const text = readFileSync(path, 'utf8');
	if (path.endsWith('.sh'))
		return [...text.matchAll(/(?:^|\s)#[^\n]*/g)].map((m) => m[0]).join('\n');
	return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\w])\/\/[^\n]*/g)]
		.map((m) => m[0])
		.join('\n');
}

function codeFiles(): string[] {
	const code = (path: string) => /\.(ts|js|mjs|sh)$/.test(path);
	return [
		...['nodes', 'credentials', 'scripts', 'test', 'bench'].flatMap((dir) =>
			filesUnder(join(ROOT, dir), code),
		),
		...readdirSync(ROOT)
			.filter((name) => code(name))
			.map((name) => join(ROOT, name)),
	];
}

/** The repository paths a text names that do not exist. */
function missingPaths(text: string): string[] {
	return [...text.matchAll(PATH)]
		.map((match) => match[1].replace(/\/$/, ''))
		.filter((path) => !GENERATED.has(path) && !existsSync(join(ROOT, path)));
}

/** GitHub's id for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, … */
export function headingIds(markdown: string): Set<string> {
	const ids = new Set<string>();
	const seen = new Map<string, number>();
	for (const [, title] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
		const base = title
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/\s/g, '-');
		const count = seen.get(base) ?? 0;
		ids.add(count ? `${base}-${count}` : base);
		seen.set(base, count + 1);
	}
	return ids;
}

/** Relative links of a Markdown file (`[text](target)`) that lead nowhere: a missing file or anchor. */
function brokenLinks(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	const broken: string[] = [];
	for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
		if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
		const [path, anchor] = target.split('#');
		const resolved = path ? resolve(dirname(file), path) : file;
		if (!existsSync(resolved)) {
			broken.push(target);
			continue;
		}
		if (
			anchor &&
			resolved.endsWith('.md') &&
			!headingIds(readFileSync(resolved, 'utf8')).has(anchor)
		)
			broken.push(target);
	}
	return broken;
}

/** A word that reads as code: camelCase, PascalCase with two capitals, UPPER_CASE (plain words are left alone). */
const CODE_NAME = String.raw`[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*|[A-Z][A-Z0-9]*_[A-Z0-9_]+`;
const FILE = String.raw`[\w./-]*\w\.ts`;
const TICK = '`?'; // a name or a file may stand in backticks
/** A name: one that reads as code, or any word in backticks. */
const NAME = String.raw`${TICK}(${CODE_NAME}|(?<=${'`'})\w+(?=${'`'}))${TICK}`;
/** How a comment or a page names code in a file; each pattern's groups: the name and the file, or the file and the name. */
const SYMBOL_REFERENCES: Array<[RegExp, 'name-file' | 'file-name']> = [
	[new RegExp(String.raw`${NAME},? (?:in|of) ${TICK}(${FILE})\b`, 'g'), 'name-file'], // `name` in file.ts
	[new RegExp(String.raw`${NAME} \(${TICK}(${FILE})\b`, 'g'), 'name-file'], // name (file.ts
	[new RegExp(String.raw`(${FILE})${TICK}'s ${NAME}`, 'g'), 'file-name'], // file.ts's name
	[new RegExp(String.raw`(${FILE})${TICK} \(?${NAME}`, 'g'), 'file-name'], // file.ts name, file.ts (name
];

/** Where a name is declared in a source text: a declaration, an export list, a member (method, property) or a literal kind ('answer'). */
function declares(source: string, symbol: string): boolean {
	return new RegExp(
		String.raw`\b(?:function\*?|const|let|var|class|interface|type|enum)\s+${symbol}\b|^\s*(?:(?:export|readonly|private|protected|public|static|async|get|set)\s+)*${symbol}\s*[?(:=<]|export\s*\{[^}]*\b${symbol}\b|'${symbol}'`,
		'm',
	).test(source);
}

const codeByName = new Map<string, string[]>();
/** The code files a reference's file may mean: a path from the root, or every file of that name (transport.ts). */
function filesNamed(file: string): string[] {
	if (codeByName.size === 0)
		for (const path of codeFiles())
			codeByName.set(basename(path), [...(codeByName.get(basename(path)) ?? []), path]);
	return (codeByName.get(basename(file)) ?? []).filter((path) =>
		relative(ROOT, path).endsWith(file.replace(/^(\.\.?\/)+/, '')),
	);
}

/** "name in file.ts" references of a text whose file exists and does not declare the name. */
function staleSymbols(text: string): string[] {
	return SYMBOL_REFERENCES.flatMap(([pattern, order]) =>
		[...text.matchAll(pattern)].flatMap((match) => {
			const [symbol, file] = order === 'name-file' ? [match[1], match[2]] : [match[2], match[1]];
			const candidates = filesNamed(file);
			if (candidates.length === 0) return [];
			return candidates.some((path) => declares(readFileSync(path, 'utf8'), symbol))
				? []
				: [`${symbol} in ${file}`];
		}),
	);
}

describe('file references', () => {
	it('finds the references it checks (the check is not vacuous)', () => {
		expect(markdownFiles().map((file) => relative(ROOT, file))).toEqual(
			expect.arrayContaining(['README.md', 'CONTRIBUTING.md', join('docs', 'triggers.md')]),
		);
		expect(
			missingPaths('see nodes/shared/foo.ts and docs/bar.md, not nodes/shared/http/retry.ts'),
		).toEqual(['nodes/shared/foo.ts', 'docs/bar.md']);
		expect(
			missingPaths('`nodes/BotSailor/resources/<resource>/<operation>.ts`, test/**/*.ts'),
		).toEqual([]);
		expect(commentsOf(join(ROOT, 'scripts', 'dev.sh'))).toContain('test/node/sends.test.ts');
		expect(headingIds('# A: b, c (d)\n## Both triggers in one workflow\n## X\n## X')).toEqual(
			new Set(['a-b-c-d', 'both-triggers-in-one-workflow', 'x', 'x-1']),
		);
	});

	it('every repository file a Markdown page names exists', () => {
		const missing = markdownFiles().flatMap((file) =>
			missingPaths(readFileSync(file, 'utf8')).map((path) => `${relative(ROOT, file)}: ${path}`),
		);
		expect(missing).toEqual([]);
	});

	it('every repository file a code comment in nodes/, credentials/, scripts/, test/, bench/ or at the root names exists', () => {
		const files = codeFiles();
		expect(files.length).toBeGreaterThan(100);
		expect(files.map((file) => relative(ROOT, file))).toEqual(
			expect.arrayContaining([
				'gulpfile.js',
				join('bench', 'run.ts'),
				join('scripts', 'generate.ts'),
			]),
		);
		const missing = files.flatMap((file) =>
			missingPaths(commentsOf(file)).map((path) => `${relative(ROOT, file)}: ${path}`),
		);
		expect(missing).toEqual([]);
	});

	it('every relative link of a Markdown page leads to a file, and its anchor to a heading there', () => {
		const broken = markdownFiles().flatMap((file) =>
			brokenLinks(file).map((target) => `${relative(ROOT, file)}: ${target}`),
		);
		expect(broken).toEqual([]);
	});

	it('finds the code references it checks, and catches a stale one', () => {
		expect(
			staleSymbols(
				"`connectionVerdict` in failures.ts; retry.ts READ_RETRY; sendItem.ts's SendItem; `connectionVerdict` in transport.ts; sendDefinition.ts's SendItem; nodes/shared/http/transport.ts (noSuchThing)",
			),
		).toEqual([
			'connectionVerdict in transport.ts',
			'SendItem in sendDefinition.ts',
			'noSuchThing in nodes/shared/http/transport.ts',
		]);
	});

	it('every "name in file.ts" a code comment or a page names is declared in that file', () => {
		const stale = [
			...codeFiles().map((file) => [file, commentsOf(file)] as const),
			...markdownFiles().map((file) => [file, readFileSync(file, 'utf8')] as const),
		].flatMap(([file, text]) =>
			staleSymbols(text).map((reference) => `${relative(ROOT, file)}: ${reference}`),
		);
		expect(stale).toEqual([]);
	});
});
