// The second step of `npm run build`, after `n8n-node build` (TypeScript to dist/, icons and codex files
// copied): the package's code becomes one file, dist/botsailor.js, bundled by esbuild from the TypeScript
// sources (names and structure kept; no indentation or comments, in lines of about 40 characters). Then
// scripts/load-file.mjs writes dist/botsailor.load.js, what n8n loads at start (the descriptions as JSON, the
// bundle required on first use), and the files package.json declares to n8n become one-line re-exports of it,
// so the icons and codex files next to them resolve as before.
//
// Why: n8n requires every node and credential of a community package at startup. One file instead of about
// 150 saves the loader's per-file work (resolve, stat, read, wrap), roughly half of the cold load (bench
// row 5). One bundle, not one per node: the two triggers share module state (nodes/shared/triggers/deliveryMemory.ts),
// which must stay one instance per process.
// n8n-workflow and zod stay `require`s: n8n provides them (the package has no runtime dependencies).
//
// Debugging the published code: the bundle ships with a linked source map, dist/botsailor.js.map, named by
// the bundle's last line (`//# sourceMappingURL=botsailor.js.map`). n8n installs source-map-support at startup
// (its bin/n8n), which reads the map the first time a stack trace is formatted: an error thrown in the nodes
// then names nodes/…/file.ts and its line, not dist/botsailor.js. Loading the nodes does not read the map.
// The map is kept light (issue 54: the package no heavier than its peers), as n8n's own packages ship theirs:
// no sourcesContent (a stack trace needs the paths and lines, not the text; the sources are in the repository
// at the release's tag), and one mapping per generated line instead of one per token (a frame's line is what
// a bug report needs; its column then points at the start of that line's first statement). Its source paths are relative
// to dist/ (`../nodes/…/file.ts`): no machine's directory is in the published files (checked below).
import { build } from 'esbuild';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOAD, writeLoadFile } from './load-file.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const BUNDLE = 'botsailor.js';
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Each declared file (dist/…/Name.node.js) with the class n8n looks for in it (the file name's first part). */
const declared = [...pkg.n8n.nodes, ...pkg.n8n.credentials].map((file) => ({
	file,
	className: basename(file).split('.')[0],
	source: file.replace(/^dist\//, '').replace(/\.js$/, '.ts'),
}));

await build({
	stdin: {
		contents: declared
			.map(({ className, source }) => `export { ${className} } from './${source}';`)
			.join('\n'),
		resolveDir: root,
		// Named after the bundle, not index.ts: esbuild names the entry's exports object after an index
		// file's directory, which would put the checkout's folder name into the published code.
		sourcefile: 'botsailor.ts',
		loader: 'ts',
	},
	bundle: true,
	platform: 'node',
	format: 'cjs',
	target: `node${pkg.engines.node.match(/\d+/)[0]}`,
	external: ['n8n-workflow', 'zod'],
	outfile: join(dist, BUNDLE),
	banner: {
		js: `// ${pkg.name} ${pkg.version}: the nodes and the credential in one file, built from the TypeScript\n// sources (${pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')}) by scripts/bundle.mjs.`,
	},
	// Texts keep their characters (→, —) rather than \u escapes.
	charset: 'utf8',
	// Without indentation and comments, in lines of about 40 characters (the package's size budget, scripts/size-budget.mjs):
	// n8n loads this file only when a workflow first runs a node (scripts/load-file.mjs), and a stack trace names
	// the source line where its line of the bundle starts (the map, below).
	minifyWhitespace: true,
	lineLimit: 40,
	sourcemap: 'linked',
	sourcesContent: false,
	logLevel: 'warning',
});

/** Every .js file tsc wrote is replaced: by the bundle, or by a re-export where package.json points. */
function removeCompiled(dir) {
	for (const name of readdirSync(dir)) {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) {
			removeCompiled(path);
			if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
		} else if (
			(name.endsWith('.js') || name.endsWith('.js.map')) &&
			path !== join(dist, BUNDLE) &&
			path !== join(dist, LOAD) &&
			path !== join(dist, `${BUNDLE}.map`)
		)
			rmSync(path);
	}
}
removeCompiled(dist);
rmSync(join(dist, 'docs'), { recursive: true, force: true });

// The declared files re-export the load file's classes (scripts/load-file.mjs: the descriptions as JSON, the
// bundle required when a function is first called).
await writeLoadFile(
	root,
	dist,
	BUNDLE,
	declared.map(({ className }) => className),
	`// ${pkg.name} ${pkg.version}: what n8n loads at start, generated by scripts/load-file.mjs from ${BUNDLE}:\n// the descriptions as JSON, each function handing its call on to ${BUNDLE}, required on first use.`,
);
for (const { file, className } of declared) {
	const path = join(root, file);
	mkdirSync(dirname(path), { recursive: true });
	const target = relative(dirname(path), join(dist, LOAD)).split('\\').join('/');
	const specifier = target.startsWith('.') ? target : `./${target}`;
	writeFileSync(path, `exports.${className} = require('${specifier}').${className};\n`);
}
// The map's sources: relative paths (`../nodes/…`, `../credentials/…` and the generated entry
// `../botsailor.ts`), nothing from node_modules, and no absolute
// path of this machine anywhere in the map (the checkout's or the home directory, a `file:///` URL).
/** Base64 VLQ, as source maps encode numbers (https://tc39.es/ecma426/#sec-mappings). */
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function decodeVlq(segment) {
	const values = [];
	for (let i = 0, value = 0, shift = 0; i < segment.length; i++) {
		const digit = B64.indexOf(segment[i]);
		value += (digit & 31) << shift;
		if (digit & 32) shift += 5;
		else {
			values.push(value & 1 ? -(value >>> 1) : value >>> 1);
			value = shift = 0;
		}
	}
	return values;
}
function encodeVlq(values) {
	let out = '';
	for (const value of values) {
		let rest = value < 0 ? (-value << 1) | 1 : value << 1;
		do {
			const digit = rest & 31;
			rest >>>= 5;
			out += B64[rest ? digit | 32 : digit];
		} while (rest);
	}
	return out;
}
/**
 * Keeps, per generated line, the one segment in effect where the line's code starts (esbuild often puts one at
 * column 0 that points back at the end of the previous statement). Fields after the column are deltas across
 * the whole map, so every segment is decoded to absolute values and the kept ones encoded against each other.
 */
function oneMappingPerLine(mappings, code) {
	const indents = code.split('\n').map((line) => Math.max(0, line.search(/\S/)));
	const absolute = [0, 0, 0, 0]; // source, original line, original column, name
	const previous = [0, 0, 0, 0];
	return mappings
		.split(';')
		.map((line, index) => {
			let column = 0;
			let kept;
			for (const segment of line ? line.split(',') : []) {
				const [columnDelta, ...rest] = decodeVlq(segment);
				column += columnDelta;
				rest.forEach((delta, i) => (absolute[i] += delta));
				if (rest.length >= 3 && (!kept || column <= indents[index]))
					kept = [column, ...absolute.slice(0, rest.length)];
			}
			if (!kept) return '';
			const [keptColumn, ...fields] = kept;
			const encoded = encodeVlq([keptColumn, ...fields.map((value, i) => value - previous[i])]);
			fields.forEach((value, i) => (previous[i] = value));
			return encoded;
		})
		.join(';');
}

const map = JSON.parse(readFileSync(join(dist, `${BUNDLE}.map`), 'utf8'));
const text = JSON.stringify(map);
for (const source of map.sources) {
	if (!source.startsWith('../') || source.includes('node_modules'))
		throw new Error(`bundle: unexpected source in the source map: ${source}`);
}
for (const local of [root, `${homedir()}/`, 'file:///']) {
	if (text.includes(local)) throw new Error(`bundle: the source map contains ${local}`);
}
if (map.sourcesContent) throw new Error('bundle: the source map holds the sources’ text');
map.mappings = oneMappingPerLine(map.mappings, readFileSync(join(dist, BUNDLE), 'utf8'));
writeFileSync(join(dist, `${BUNDLE}.map`), JSON.stringify(map));

console.log(
	`bundle: dist/${BUNDLE} (${Math.round(statSync(join(dist, BUNDLE)).size / 1024)} kB), its source map (${map.sources.length} sources, ${Math.round(statSync(join(dist, `${BUNDLE}.map`)).size / 1024)} kB), the load file dist/${LOAD} (${Math.round(statSync(join(dist, LOAD)).size / 1024)} kB) and ${declared.length} entry files`,
);
