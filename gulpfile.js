/*
 * Development tasks, run by the package scripts:
 * - `npm run generate` (gulp generate): after adding or renaming an operation, regenerates what is derived from the
 *   node descriptions: the canvas subtitles in the node files and the display names errors use
 *   (nodes/shared/displayNames.ts), the README's operations table, and the record of
 *   what every operation shows and defaults per node version (test/node/versions.json: it adds new versions
 *   and operations, and never rewrites a recorded entry);
 * - `gulp build:icons`: copies the icons into dist/ for a build made with plain tsc (`n8n-node build` copies them).
 */
const path = require('path');
const { spawnSync } = require('child_process');
const { src, dest, series } = require('gulp');

/** A task that runs jest on one test file with `env` (the test rewrites what it checks when told to). */
function regenerate(name, test, env = {}, extra = []) {
	const task = (done) => {
		const result = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), test, ...extra], {
			stdio: 'inherit',
			env: { ...process.env, ...env },
		});
		// The first run rewrites the file; the run after it must pass on what was written.
		done(result.status === 0 ? undefined : new Error(`${name}: jest ${test} failed`));
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

exports.generate = series(
	regenerate('subtitles', 'test/subtitle.test.ts', { UPDATE_SUBTITLES: '1' }, ['--silent']),
	regenerate('operations table', 'test/readme.test.ts', { UPDATE_README: '1' }, ['--silent']),
	regenerate('read paths', 'test/node/operationKinds.test.ts', { UPDATE_READ_PATHS: '1' }, [
		'--silent',
	]),
	// Additions only: a new version or operation is recorded, a recorded entry is never rewritten.
	regenerate('versions record', 'test/node/versions.test.ts', { UPDATE_VERSIONS: '1' }, [
		'--silent',
	]),
);
exports['build:icons'] = copyIcons;
