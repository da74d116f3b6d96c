/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the source tree and the docs */
/**
 * What the package remembers per n8n process is listed in docs/queue-mode.md ("What each process remembers", issue 52
 * point 7): every module of nodes/ that keeps a Map or a boundedMemory at module level (or a registry of them) is
 * named there, so a new memory cannot be added without saying how it is bounded and what it means with several
 * processes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/**
 * A memory kept for the process: a module-level Map, Set, WeakMap or boundedMemory (a Set of constants, `new Set([…])`,
 * is no memory), or a class field Map or boundedMemory of a module-level registry.
 */
const MEMORY =
	/^(?:export )?(?:const|let) \w+(?:: [^=]+)? = (?:new (?:Map|Set|WeakMap)<|boundedMemory<)|^\tprivate readonly \w+ = (?:new Map<|boundedMemory<)/m;

it('every module that remembers something per process is listed in docs/queue-mode.md', () => {
	const page = readFileSync(join(ROOT, 'docs/queue-mode.md'), 'utf8');
	const section = page.slice(page.indexOf('## What each process remembers'));
	expect(section.length).toBeLessThan(page.length);
	const remembering = sources(join(ROOT, 'nodes'))
		.filter((path) => MEMORY.test(readFileSync(path, 'utf8')))
		.map((path) => relative(ROOT, path).split('\\').join('/'))
		.filter((path) => !path.endsWith('/boundedMemory.ts'));
	expect(remembering.length).toBeGreaterThan(5);
	const missing = remembering.filter((path) => {
		const file = path.split('/').pop()!;
		const folder = path.slice(0, path.length - file.length);
		return !section.includes(path) && !(section.includes(folder) && section.includes(file));
	});
	expect(missing).toEqual([]);
});
