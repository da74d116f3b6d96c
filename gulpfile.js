/* Development tasks. `n8n-node build` already copies icons; `gulp build:icons` keeps the classic starter's task for builds made with plain tsc. */
const path = require('path');
const { src, dest } = require('gulp');

function copyIcons() {
	const nodeIcons = src(['nodes/**/*.{png,svg}', 'icons/**/*.{png,svg}'], { base: '.' });
	const credentialIcons = src('credentials/**/*.{png,svg}', { base: '.', allowEmpty: true });
	nodeIcons.pipe(dest(path.resolve('dist')));
	return credentialIcons.pipe(dest(path.resolve('dist')));
}

exports['build:icons'] = copyIcons;
