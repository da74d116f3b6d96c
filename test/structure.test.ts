/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the source tree */
/**
 * The package's layout rules, read from the source's own imports: no import cycles (load order must not
 * decide what a module sees), and the nodes share code through nodes/shared/, not through each other.
 * The helper modules stand in named wings; no import runs from a lower wing to a higher one.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** Relative imports of a file (static `import … from`, `export … from`, `import('…')`), resolved to files. */
function importsOf(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.[^']+)'/g)].map(
		(match) => match[1],
	);
	return specifiers.flatMap((specifier) => {
		const base = resolve(dirname(file), specifier);
		const found = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
		return found ? [found] : [];
	});
}

const files = [...sourceFiles(join(ROOT, 'nodes')), ...sourceFiles(join(ROOT, 'credentials'))];
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const name = (file: string) => relative(ROOT, file);

/** Every cycle found by a depth-first walk, each as the files around it. */
function cycles(): string[][] {
	const found: string[][] = [];
	const state = new Map<string, 'open' | 'done'>();
	const stack: string[] = [];
	const visit = (file: string) => {
		state.set(file, 'open');
		stack.push(file);
		for (const next of graph.get(file) ?? []) {
			if (state.get(next) === 'open')
				found.push([...stack.slice(stack.indexOf(next)), next].map(name));
			else if (!state.has(next)) visit(next);
		}
		stack.pop();
		state.set(file, 'done');
	};
	for (const file of files) if (!state.has(file)) visit(file);
	return found;
}

describe('layout', () => {
	it('reads the imports it checks (the walk sees the node assemble its resources)', () => {
		expect(files.length).toBeGreaterThan(50);
		expect(graph.get(join(ROOT, 'nodes/BotSailor/BotSailor.node.ts'))?.map(name)).toEqual(
			expect.arrayContaining(['nodes/BotSailor/resources/index.ts']),
		);
	});

	it('has no import cycle', () => {
		expect(cycles()).toEqual([]);
	});

	it('shares code between the nodes and the credential only through nodes/shared/', () => {
		const folderOf = (file: string) => {
			const path = name(file);
			return path.startsWith('credentials/')
				? 'credentials'
				: path.split('/').slice(0, 2).join('/');
		};
		const crossings = [...graph].flatMap(([file, targets]) =>
			targets
				.filter(
					(target) => folderOf(target) !== folderOf(file) && folderOf(target) !== 'nodes/shared',
				)
				.map((target) => `${name(file)} → ${name(target)}`),
		);
		expect(crossings).toEqual([]);
	});

	it('no resource folder imports another: resources share code through resources/shared/ (or the files beside resources/common.ts)', () => {
		const resources = join(ROOT, 'nodes/BotSailor/resources');
		// The folder under resources/ a file stands in (a resource, or shared), or undefined for the files beside common.ts and outside.
		const folderOf = (file: string) => {
			const [folder, ...rest] = relative(resources, file).split('/');
			return folder !== '..' && rest.length > 0 ? folder : undefined;
		};
		const crossings = [...graph].flatMap(([file, targets]) => {
			const from = folderOf(file);
			if (from === undefined) return [];
			return targets
				.filter((target) => {
					const to = folderOf(target);
					return to !== undefined && to !== from && to !== 'shared';
				})
				.map((target) => `${name(file)} → ${name(target)}`);
		});
		expect(crossings).toEqual([]);
	});
});

// The wings (issue 43): the folders the helper modules stand in, from the ground up, each with the wings it may import
// besides itself. A node's own files (its node file, resources/, methods/, events/) stand above every wing.
const SHARED_WINGS = ['parameters', 'http', 'conversation', 'whatsapp', 'triggers'].map(
	(wing) => `nodes/shared/${wing}`,
);
const WINGS: Record<string, string[]> = {
	'nodes/shared/parameters': [],
	'nodes/shared/http': ['nodes/shared/parameters'],
	'nodes/shared/conversation': ['nodes/shared/parameters', 'nodes/shared/http'],
	'nodes/shared/whatsapp': [
		'nodes/shared/parameters',
		'nodes/shared/http',
		'nodes/shared/conversation',
	],
	'nodes/shared/triggers': ['nodes/shared/parameters', 'nodes/shared/http'],
	'nodes/BotSailor/running': SHARED_WINGS,
	'nodes/BotSailor/reading': [...SHARED_WINGS, 'nodes/BotSailor/running'],
	'nodes/BotSailor/sending': [
		...SHARED_WINGS,
		'nodes/BotSailor/running',
		'nodes/BotSailor/reading',
	],
	'nodes/BotSailor/sendAndWait': [
		...SHARED_WINGS,
		'nodes/BotSailor/running',
		'nodes/BotSailor/reading',
		'nodes/BotSailor/sending',
	],
	'nodes/BotSailorTrigger/polling': SHARED_WINGS,
	'nodes/BotSailorWebhookTrigger/payload': SHARED_WINGS,
};
const wingOf = (file: string) =>
	Object.keys(WINGS).find((wing) => name(file).startsWith(`${wing}/`));

describe('wings', () => {
	it('every wing holds modules, and no helper is left in a drawer (nodes/shared/ itself, a shared/ or lib/ folder of a node)', () => {
		for (const wing of Object.keys(WINGS))
			expect([wing, files.filter((file) => wingOf(file) === wing).length]).not.toEqual([wing, 0]);
		const loose = files
			.map(name)
			.filter(
				(path) => /^nodes\/shared\/[^/]+$/.test(path) || /^nodes\/[^/]+\/(shared|lib)\//.test(path),
			);
		expect(loose).toEqual([]);
	});

	it('no import runs upward: a wing imports only itself and the wings below it', () => {
		const upward = [...graph].flatMap(([file, targets]) => {
			const from = wingOf(file);
			if (from === undefined) return [];
			return targets
				.filter((target) => {
					const to = wingOf(target);
					return to !== from && (to === undefined || !WINGS[from].includes(to));
				})
				.map((target) => `${name(file)} → ${name(target)}`);
		});
		expect(upward).toEqual([]);
	});
});

describe('names', () => {
	/** The names a file declares and exports (a re-export `export { x } from …` is the same binding, not a new name). */
	const exportedNames = (file: string): string[] => {
		const text = readFileSync(file, 'utf8');
		const declared = [
			...text.matchAll(
				/^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|const|let|var|class|abstract\s+class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm,
			),
		].map((match) => match[1]);
		const listed = [...text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}\s*;/gm)].flatMap((match) =>
			match[1]
				.split(',')
				.map((entry) =>
					entry
						.trim()
						.split(/\s+as\s+/)
						.pop()!
						.replace(/^type\s+/, ''),
				)
				.filter(Boolean),
		);
		return [...declared, ...listed];
	};

	it('reads the exports it checks', () => {
		expect(exportedNames(join(ROOT, 'nodes/BotSailor/sendAndWait/execute.ts'))).toEqual(
			expect.arrayContaining(['askAndWait', 'questionText']),
		);
		expect(exportedNames(join(ROOT, 'nodes/shared/parameters/inputs.ts'))).toContain('z');
	});

	it('no two exports of nodes/ share a name: a name found is the one thing it names', () => {
		const owners = new Map<string, string[]>();
		for (const file of files.filter((path) => name(path).startsWith('nodes/')))
			for (const exported of exportedNames(file))
				owners.set(exported, [...(owners.get(exported) ?? []), name(file)]);
		const shared = [...owners].filter(([, where]) => where.length > 1);
		expect(Object.fromEntries(shared)).toEqual({});
	});
});
