// n8n's verification scanner (@n8n/scan-community-package), run locally as n8n runs it after its
// provenance step: on the source tree (package.json, nodes/ and credentials/ sources) and on the
// unpacked `npm pack` tarball (**/*.js, package.json). Prints the findings; exits 1 on any finding,
// and also when a leg finds no files (the scanner itself passes an empty folder).
// Usage: npm run build && npm run scan   (or: node scripts/scan.mjs [source dir], for a scratch copy)
import { execFileSync } from 'node:child_process';
import { existsSync, globSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const TARBALL_PATTERNS = ['**/*.js', 'package.json'];
const root = resolve(process.argv[2] ?? join(fileURLToPath(import.meta.url), '..', '..'));

/** The files a leg lints: the scanner's own patterns and ignores (Node's glob expands the braces). */
function filesOf(dir, patterns) {
	return patterns.flatMap((pattern) =>
		globSync(pattern, {
			cwd: dir,
			exclude: (path) => path.split(/[\\/]/).includes('node_modules'),
		}),
	);
}

async function scan(label, dir, patterns) {
	const files = filesOf(dir, patterns);
	if (files.length === 0) {
		console.log(`✗ ${label}: no files match ${patterns.join(', ')} in ${dir}`);
		return false;
	}
	const result = await analyzePackage(dir, patterns);
	if (result.passed) {
		console.log(`✓ ${label}: ${files.length} files, no findings`);
		return true;
	}
	console.log(`✗ ${label}: ${result.message}`);
	if (result.details) console.log(result.details);
	return false;
}

if (!existsSync(join(root, 'dist'))) {
	console.log(
		`✗ ${join(root, 'dist')} is missing: run npm run build first (the tarball is packed from it)`,
	);
	process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'botsailor-scan-'));
let ok = false;
try {
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const [{ filename }] = JSON.parse(out);
	execFileSync('tar', ['-xzf', join(work, filename), '-C', work]);
	const source = await scan(
		'source (package.json, nodes/, credentials/)',
		root,
		SOURCE_FILE_PATTERNS,
	);
	const tarball = await scan(
		`tarball ${filename} (**/*.js, package.json)`,
		join(work, 'package'),
		TARBALL_PATTERNS,
	);
	ok = source && tarball;
} finally {
	rmSync(work, { recursive: true, force: true });
}
console.log(ok ? 'scan: no findings' : 'scan: FAILED');
process.exit(ok ? 0 : 1);
