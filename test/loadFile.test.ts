/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- runs the build's script in plain Node.js, not node code */
/**
 * scripts/load-file.mjs, the file n8n loads at start (issue 54, point 3), on a small bundle of its own: the stand-ins
 * carry the same fields, values and shared objects as the bundle's classes; the bundle is not loaded until a function
 * is called, then once, and each function gets the caller's `this` and arguments; what JSON cannot carry fails the
 * build with its place named. (The real bundle is checked by the build itself and in n8n by n8n.e2e.test.ts.)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
let dist: string;

beforeEach(() => {
	dist = join(mkdtempSync(join(tmpdir(), 'botsailor-load-file-')), 'dist');
	mkdirSync(dist);
	writeFileSync(join(dist, 'package.json'), '{}');
});
afterEach(() => rmSync(join(dist, '..'), { recursive: true, force: true }));

/** Writes `bundle` as dist/bundle.js, runs writeLoadFile for `classes`, then `check` (CommonJS) in a new process. */
function run(bundle: string, classes: string[], check = '') {
	writeFileSync(join(dist, 'bundle.js'), bundle);
	writeFileSync(join(dist, 'check.js'), check);
	const script = `
		const { writeLoadFile, LOAD } = await import(${JSON.stringify(join(ROOT, 'scripts', 'load-file.mjs'))});
		globalThis.loads = 0;
		await writeLoadFile(${JSON.stringify(ROOT)}, ${JSON.stringify(dist)}, 'bundle.js', ${JSON.stringify(classes)}, '// test');
		for (const key of Object.keys(require.cache)) delete require.cache[key];
		globalThis.loads = 0;
		require(${JSON.stringify(join(dist, 'check.js'))});`;
	return spawnSync(
		process.execPath,
		[
			'--input-type=module',
			'-e',
			`import { createRequire } from 'node:module'; const require = createRequire(${JSON.stringify(join(dist, 'x.js'))});${script}`,
		],
		// n8n-workflow from this checkout, as n8n provides it to the package
		{ encoding: 'utf8', cwd: ROOT, env: { ...process.env, NODE_PATH: join(ROOT, 'node_modules') } },
	);
}

const BUNDLE = `
globalThis.loads++;
const shared = { name: 'shared', default: '' };
let calls = 0;
class Node {
	constructor() {
		this.description = {
			name: 'node',
			properties: [shared, { name: 'list', options: [shared], default: undefined, routing: { send: { preSend: [function (options) { return [this.tag, options, ++calls]; }] } } }],
		};
		this.methods = { loadOptions: { async things() { return 'things of ' + this.tag; } } };
	}
	async execute() { return 'executed by ' + this.tag; }
}
exports.Node = Node;
`;

test('the stand-ins carry the fields, values and shared objects; the bundle loads on the first call, once, with `this` and arguments handed on', () => {
	const result = run(
		BUNDLE,
		['Node'],
		`
		const assert = require('node:assert');
		const { Node } = require('./botsailor.load.js');
		const node = new Node();
		assert.strictEqual(globalThis.loads, 0, 'the bundle is loaded at start');
		assert.deepStrictEqual(Object.keys(node), ['description', 'methods']);
		const [first, second] = node.description.properties;
		assert.deepStrictEqual(first, { name: 'shared', default: '' });
		assert.strictEqual(second.options[0], first, 'a shared object became two');
		assert.ok('default' in second && second.default === undefined, 'an undefined field is kept');
		assert.deepStrictEqual(second.routing.send.preSend[0].call({ tag: 'ctx' }, 'opts'), ['ctx', 'opts', 1]);
		assert.strictEqual(globalThis.loads, 1);
		assert.deepStrictEqual(second.routing.send.preSend[0].call({ tag: 'again' }, 2), ['again', 2, 2]);
		Promise.all([node.methods.loadOptions.things.call({ tag: 'panel' }), Node.prototype.execute.call({ tag: 'run' })]).then((answers) => {
			assert.deepStrictEqual(answers, ['things of panel', 'executed by run']);
			assert.strictEqual(globalThis.loads, 1, 'the bundle was loaded more than once');
			console.log('CHECKED');
		});
		`,
	);
	expect(result.stderr).toBe('');
	expect(result.stdout).toContain('CHECKED');
	expect(result.status).toBe(0);
});

test("a description that reads the n8n at hand (a probe) gets that n8n's answer when the node is constructed, not the build's", () => {
	const probeBundle = `
globalThis.loads++;
const { NodeHelpers } = require('n8n-workflow');
const resolves = NodeHelpers.getToolDescriptionForNode.length >= 3;
class Node {
	constructor() {
		this.description = { properties: [{ name: 'toolDescription', default: resolves ? '=acts for {{ 1 }}' : 'acts for the chosen one' }] };
	}
}
exports.Node = Node;
`;
	const result = run(
		probeBundle,
		['Node'],
		`
		const assert = require('node:assert');
		const { Node } = require('./botsailor.load.js');
		const text = () => new Node().description.properties[0].default;
		assert.strictEqual(text(), '=acts for {{ 1 }}');
		const helpers = require('n8n-workflow').NodeHelpers;
		const original = helpers.getToolDescriptionForNode;
		helpers.getToolDescriptionForNode = (node, nodeType) => original(node, nodeType); // as n8n 1.x's
		assert.strictEqual(text(), 'acts for the chosen one');
		assert.strictEqual(globalThis.loads, 0, 'the bundle is loaded to answer');
		console.log('CHECKED');
		`,
	);
	expect(result.stderr).toBe('');
	expect(result.stdout).toContain('CHECKED');
});

test.each([
	[
		'a RegExp',
		'this.description = { validate: /x/ };',
		'Node["description"]["validate"] is a RegExp, not plain data',
	],
	[
		'a getter without a gate',
		'} get webhook() { return undefined;',
		'Node.prototype.webhook is neither a method nor a getter with a gate',
	],
	['a static member', '} static version = 1; m() {', 'Node has static members (version)'],
	['NaN', 'this.description = { max: NaN };', 'Node["description"]["max"] is NaN'],
])('%s fails the build with its place named', (_what, code, message) => {
	const result = run(
		`globalThis.loads++; class Node { constructor() { ${code} } } exports.Node = Node;`,
		['Node'],
	);
	expect(result.status).not.toBe(0);
	expect(result.stderr).toContain(`load file: ${message}`);
});
