/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the source tree */
/**
 * The package's layout rules, read from the source's own imports: no import cycles (load order must not
 * decide what a module sees), and the nodes share code through nodes/shared/, not through each other.
 * The helper modules stand in named wings; no import runs from a lower wing to a higher one. A relative import
 * that cannot be resolved fails the test (dropping it would let `'../sending/x.js'` pass the wing rule unseen).
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

/** The relative module specifiers of a source text: `import … from`, `export … from`, `import '…'`, `import('…')`. */
function specifiersOf(text: string): string[] {
	return [
		...text.matchAll(
			/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])(\.[^'"]*)\1/g,
		),
	].map((match) => match[2]);
}

/** The file a relative specifier of `file` loads (`x`, `x.ts`, `x.js` → x.ts, or x/index.ts), or undefined. */
function resolveImport(file: string, specifier: string): string | undefined {
	const base = resolve(dirname(file), specifier.replace(/\.js$/, ''));
	return [`${base}.ts`, join(base, 'index.ts'), base].find(
		(candidate) => existsSync(candidate) && statSync(candidate).isFile(),
	);
}

/** A file's relative imports resolved to files, and those that lead nowhere (each as "file → specifier"). */
function importsOf(file: string, text = readFileSync(file, 'utf8')) {
	const resolved: string[] = [];
	const unresolved: string[] = [];
	for (const specifier of specifiersOf(text)) {
		const target = resolveImport(file, specifier);
		if (target) resolved.push(target);
		else unresolved.push(`${relative(ROOT, file)} → ${specifier}`);
	}
	return { resolved, unresolved };
}

const files = [...sourceFiles(join(ROOT, 'nodes')), ...sourceFiles(join(ROOT, 'credentials'))];
const imports = new Map(files.map((file) => [file, importsOf(file)]));
const graph = new Map([...imports].map(([file, { resolved }]) => [file, resolved]));
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

	it("resolves every relative import (`x`, `x.js`, a folder's index.ts): one it cannot resolve fails, never drops out", () => {
		expect([...imports.values()].flatMap(({ unresolved }) => unresolved)).toEqual([]);
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

/** The imports of a graph that run from a wing to one it may not import (each as "file → target"). */
function upward(imports: Map<string, string[]>): string[] {
	return [...imports].flatMap(([file, targets]) => {
		const from = wingOf(file);
		if (from === undefined) return [];
		return targets
			.filter((target) => {
				const to = wingOf(target);
				return to !== from && (to === undefined || !WINGS[from].includes(to));
			})
			.map((target) => `${name(file)} → ${name(target)}`);
	});
}

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
		expect(upward(graph)).toEqual([]);
	});

	it('catches what it is for: a planted upward import (with or without .js, in either quotes) and one that leads nowhere', () => {
		const planted = join(ROOT, 'nodes/shared/parameters/planted.ts');
		const { resolved, unresolved } = importsOf(
			planted,
			[
				"import { Limiter } from '../../BotSailor/sending/limiter.js';",
				'export * from "../http/transport";',
				"import type { X } from '../sending/x.js';",
				"import { ok } from './values.js';",
			].join('\n'),
		);
		expect(unresolved).toEqual(['nodes/shared/parameters/planted.ts → ../sending/x.js']);
		expect(upward(new Map([[planted, resolved]]))).toEqual([
			'nodes/shared/parameters/planted.ts → nodes/BotSailor/sending/limiter.ts',
			'nodes/shared/parameters/planted.ts → nodes/shared/http/transport.ts',
		]);
	});

	it('the wings stand in one order: each may import only wings listed before it, and all that those may import', () => {
		const order = Object.keys(WINGS);
		const misplaced = order.flatMap((wing, index) =>
			WINGS[wing]
				.filter((below) => !order.slice(0, index).includes(below))
				.map((below) => `${wing} → ${below} (not below it)`),
		);
		const notClosed = order.flatMap((wing) =>
			WINGS[wing].flatMap((below) =>
				WINGS[below]
					.filter((further) => !WINGS[wing].includes(further))
					.map((further) => `${wing} → ${below} → ${further}`),
			),
		);
		expect([...misplaced, ...notClosed]).toEqual([]);
	});

	it('CONTRIBUTING.md names the wings in the same order, from the ground up', () => {
		const contributing = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
		const named = Object.keys(WINGS)
			.map((wing) => [wing, contributing.indexOf(`\`${wing}/\``)] as const)
			.sort((a, b) => a[1] - b[1]);
		expect(named.filter(([, at]) => at < 0)).toEqual([]);
		expect(named.map(([wing]) => wing)).toEqual(Object.keys(WINGS));
	});
});

describe("n8n's types", () => {
	it("names n8n's per-item slot type in one file: every operation's own code takes OperationContext (running/operationRequest.ts)", () => {
		const naming = files
			.filter((file) => readFileSync(file, 'utf8').includes('IExecutePaginationFunctions'))
			.map(name);
		expect(naming).toEqual(['nodes/BotSailor/running/operationRequest.ts']);
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
