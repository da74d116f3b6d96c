/*
 * Development tasks, run by the package scripts:
 * - `npm run generate` (gulp generate): runs scripts/generate.ts, which regenerates what is derived from the node
 *   descriptions after adding or renaming an operation: the canvas subtitles in the node files and the display names
 *   errors use (nodes/shared/parameters/displayNames.ts), the README's operations table and every count of operations the pages
 *   state, the read endpoints (nodes/shared/http/readPaths.ts), and the record of what every operation shows and defaults
 *   per node version (test/node/versions.json: it adds new versions and operations, and never rewrites a recorded entry);
 * - `gulp build:icons`: copies the icons into dist/ for a build made with plain tsc (`n8n-node build` copies them).
 */
const path = require('path');
const { spawnSync } = require('child_process');
const { src, dest } = require('gulp');

/** A task that runs a generator script with tsx (a script writes; the tests that check its files only read). */
function script(name, file) {
	const task = (done) => {
		const result = spawnSync(process.execPath, [require.resolve('tsx/cli'), file], {
			stdio: 'inherit',
		});
		done(result.status === 0 ? undefined : new Error(`${name}: ${file} failed`));
	};
	task.displayName = name;
	return task;
}

function copyIcons() {
	const nodeIcons = src(['nodes/**/*.{png,svg}', 'icons/**/*.{png,svg}'], { base: '.' });
	const credentialIcons = src('credentials/**/*.{png,svg}', { base: '.', allowEmpty: true });
	nodeIcons.pipe(dest(path.resolve('dist')));
	return credentialIcons.pipe(dest(path.resolve('dist')));
}

exports.generate = script('generate', 'scripts/generate.ts');
exports['build:icons'] = copyIcons;
