/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- a command-line script run with tsx (it copies the repository into a temporary folder and runs the checks there), not node code */
/**
 * `npm run check:recipe`: follows CONTRIBUTING.md's recipe for a new endpoint, so that the recipe cannot rot. In a
 * temporary copy of the repository it adds a throwaway GET endpoint (Label → Get Count, `/label/count`) by editing
 * exactly the files the recipe's numbered list names, runs `gulp generate` (what `npm run generate` runs), then checks
 * that nothing outside those files and the generated ones changed, and runs on the copy what `npm run check` would
 * find red: the type check, the lint and Prettier on the changed files, and the tests that read what the recipe adds
 * (RELATED_TESTS). CI runs it (.ci/run); the repository itself is never written.
 */
import { spawnSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
/** What the recipe's placeholders stand for in this run. */
const PLACEHOLDERS: Record<string, string> = {
	'<group>': 'subscriber',
	'<resource>': 'label',
	'<operation>': 'getCount',
};
/** The tests that read what an endpoint adds (its route, its catalog entry, the generated files, its tool description). */
export const RELATED_TESTS = [
	'test/readme.test.ts',
	'test/simulator/coverage.test.ts',
	'test/subtitle.test.ts',
	'test/node/operationKinds.test.ts',
	'test/node/versions.test.ts',
	'test/toolDescriptions.test.ts',
	'test/fileReferences.test.ts',
	'test/structure.test.ts',
	'test/layout.test.ts',
	'test/codex.test.ts',
	'test/reliability/catalog.test.ts',
];
const SKIPPED = new Set(['node_modules', '.git', '.cache', 'dist']);

/** The files the recipe names ("Adding an endpoint touches …": its numbered list), placeholders filled in. */
export function recipeFiles(contributing: string): string[] {
	const recipe = contributing.split('Adding an endpoint touches')[1]?.split('\n\n')[1] ?? '';
	return [...recipe.matchAll(/^\d+\. `([^`]+)`/gm)].map((match) =>
		match[1].replace(/<\w+>/g, (placeholder) => PLACEHOLDERS[placeholder] ?? placeholder),
	);
}

/** One text edit: `anchor` must occur once in the file; the edit puts `text` after it. */
const after = (anchor: string, text: string) => (source: string) => {
	if (source.split(anchor).length !== 2)
		throw new Error(`recipe check: expected "${anchor}" once; update scripts/recipe-check.ts`);
	return source.replace(anchor, `${anchor}${text}`);
};

/** The throwaway endpoint, file by file (keys as the recipe names them, placeholders filled in). */
const EDITS: Record<string, (source: string) => string> = {
	'test/simulator/routes/subscriber.ts': after(
		'export const labelRoutes: Route[] = [\n',
		`\t{
		path: '/label/count',
		params: z.object({}),
		handle: ({ state }) => ok({ message: { count: state.labels.length } }),
	},
`,
	),
	'test/simulator/coverage.test.ts': after("\t'/label/list',\n", "\t'/label/count',\n"),
	'nodes/BotSailor/resources/label/getCount.ts':
		() => `import { unwrap } from '../../running/outputItems';
import type { OperationDescription } from '../resource';

export const labelGetCountOperation: OperationDescription = {
	kind: 'read',
	toolDescription: 'Count the labels (tags) of the account.',
	option: {
		name: 'Get Count',
		value: 'getCount',
		action: 'Get the number of labels',
		routing: {
			request: { url: '/label/count' },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [],
};
`,
	'nodes/BotSailor/resources/label/index.ts': (source) =>
		after(
			"import { labelCreateOperation } from './create';\n",
			"import { labelGetCountOperation } from './getCount';\n",
		)(after('[labelCreateOperation, ', 'labelGetCountOperation, ')(source)),
	'test/harness/operations.ts': after(
		'\t// Label\n',
		`\t{
		resource: 'label',
		operation: 'getCount',
		endpoint: '/label/count',
		repeatable: true,
		parameters: {},
		cases: [],
	},
`,
	),
};

function filesUnder(dir: string, top = dir): string[] {
	return readdirSync(dir).flatMap((name) => {
		if (SKIPPED.has(name)) return [];
		const path = join(dir, name);
		return statSync(path).isDirectory() ? filesUnder(path, top) : [relative(top, path)];
	});
}

function run(copy: string, step: string, command: string, args: string[]): string {
	const started = Date.now();
	const result = spawnSync(command, args, {
		cwd: copy,
		encoding: 'utf8',
		env: {
			...process.env,
			// The Node that runs this script (24, through scripts/dev.sh) and the shared dependencies.
			PATH: [join(ROOT, 'node_modules/.bin'), dirname(process.execPath), process.env.PATH].join(
				delimiter,
			),
		},
	});
	const output = `${result.stdout}${result.stderr}`;
	if (result.status !== 0) {
		process.stderr.write(output);
		throw new Error(`recipe check: ${step} failed in ${copy} (kept for a look)`);
	}
	process.stdout.write(
		`recipe check: ${step} passed in ${Math.round((Date.now() - started) / 1000)} s\n`,
	);
	return output;
}

/** The recipe's files (from `root`), each with its text once the throwaway endpoint is added. */
export function recipeEdits(root: string): Map<string, string> {
	const files = recipeFiles(readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8'));
	const unmatched = [
		...files.filter((file) => !(file in EDITS)),
		...Object.keys(EDITS).filter((file) => !files.includes(file)),
	];
	if (unmatched.length > 0)
		throw new Error(
			`recipe check: CONTRIBUTING.md's recipe and this check's edits name different files: ${unmatched.join(', ')}`,
		);
	return new Map(
		files.map((file) => {
			const path = join(root, file);
			return [file, EDITS[file](existsSync(path) ? readFileSync(path, 'utf8') : '')];
		}),
	);
}

function main() {
	const edits = recipeEdits(ROOT);
	const files = [...edits.keys()];

	const copy = mkdtempSync(join(tmpdir(), 'botsailor-recipe-'));
	cpSync(ROOT, copy, {
		recursive: true,
		preserveTimestamps: true,
		filter: (source) => source === ROOT || !SKIPPED.has(relative(ROOT, source).split('/')[0]),
	});
	symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
	const before = new Map(
		filesUnder(copy).map((file) => [file, readFileSync(join(copy, file), 'utf8')]),
	);
	for (const [file, text] of edits) writeFileSync(join(copy, file), text);
	process.stdout.write(`recipe check: edited ${files.join(', ')}\n`);
	// As a contributor would (`npm run format`): the edits are written plainly, Prettier lays them out.
	run(copy, 'format of the edited files', 'prettier', ['--write', ...files]);

	const generated = [
		...run(copy, 'gulp generate', 'gulp', ['generate']).matchAll(/^generate: wrote (\S+)$/gm),
	].map((match) => match[1]);
	const changed = filesUnder(copy).filter(
		(file) => before.get(file) !== readFileSync(join(copy, file), 'utf8'),
	);
	const outside = changed.filter((file) => !files.includes(file) && !generated.includes(file));
	if (outside.length > 0)
		throw new Error(
			`recipe check: files changed that the recipe does not name: ${outside.join(', ')}`,
		);
	process.stdout.write(`recipe check: generate wrote ${generated.join(', ')}\n`);

	const code = changed.filter((file) => /\.(ts|js|mjs)$/.test(file));
	run(copy, 'type check', 'tsc', ['-p', 'tsconfig.test.json']);
	run(copy, 'lint of the changed files', 'eslint', code);
	run(copy, 'format check of the changed files', 'prettier', ['--check', ...code]);
	run(copy, 'related tests', 'jest', ['--ci', ...RELATED_TESTS]);
	rmSync(copy, { recursive: true, force: true });
	process.stdout.write(
		`recipe check: passed (a new GET endpoint: ${files.length} files by hand, ${generated.length} generated)\n`,
	);
}

if (require.main === module) main();
