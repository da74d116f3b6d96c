// The size budget of the published package (issue 54): what `npm pack` would upload, unpacked, stays at or under
// evolution-api's (783 kB, bench row 5), the heavier of the two peer packages the bench compares us with. Bytes
// are deterministic, so CI can hold this line where it cannot hold a time. Run after `npm run build` (the
// release check does): node scripts/size-budget.mjs
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUDGET = 783_000;
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [packed] = JSON.parse(
	execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	}),
);
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const largest = [...packed.files]
	.sort((a, b) => b.size - a.size)
	.slice(0, 5)
	.map((file) => `  ${kB(file.size).padStart(9)}  ${file.path}`)
	.join('\n');
if (packed.unpackedSize > BUDGET) {
	console.error(
		`size budget: the package is ${kB(packed.unpackedSize)} unpacked, over its budget of ${kB(BUDGET)} ` +
			`(evolution-api's size, bench row 5). Its largest files:\n${largest}\n` +
			'Make it lighter (what grew? a source map with the sources inside, a file that `files` in package.json ' +
			'now takes in?), or raise BUDGET in scripts/size-budget.mjs with the reason in docs/performance.md.',
	);
	process.exit(1);
}
console.log(
	`size budget: ${kB(packed.unpackedSize)} unpacked of ${kB(BUDGET)}; largest files:\n${largest}`,
);
