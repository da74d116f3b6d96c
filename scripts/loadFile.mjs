// The load file (issue 54, point 3): what n8n requires when it starts, on every process and worker. n8n needs
// then only what each node and the credential describe (names, fields, options), not the code that runs them,
// and most workflows never run most of that code (Send and Wait's pages, the template builder, the delivery
// waits, the bulk path's pace). Parsing the whole bundle was most of the cold load (bench row 5).
//
// So the build writes each class's own properties as they are after `new` (the description, methods,
// customOperations, webhookMethods) as JSON, which V8 parses far faster than the code that builds them, and
// puts a forwarding function in the place of each function found there and on the prototype. The first call
// of any of them requires the bundle (dist/botsailor.js) and calls the same function of a real instance at the
// same place, with the same `this` and arguments: the code that runs is the bundle's, unchanged, and there is
// one bundle per process, so module state (the triggers' shared memory, the pace per account) stays one.
// The build then checks the load file against the bundle (checkLoadFile): same data, a function wherever the
// bundle has one.
//
// Limits, checked at build time: values must be JSON data, undefined or functions (no class instances, symbols
// or non-finite numbers) and objects referenced twice become two equal copies. A prototype getter runs when
// n8n reads it, at load included, so it needs a light form below (GETTERS), checked against the bundle's.
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';

/**
 * Light forms of the prototype getters, by class and name: when the bundle's getter would return nothing, they
 * return undefined without loading it; otherwise the bundle's getter, read with the same `this`.
 * BotSailor.webhook: n8n reads it when it loads the node (n8n-core directory-loader.js); the bundle's getter is
 * nodes/BotSailor/sendAndWait/webhookGate.ts `sendAndWaitWebhookOf`, whose two conditions are these.
 */
const GETTERS = {
	BotSailor: {
		webhook: `function () { return typeof this.execute === 'function' || /\\brunWebhook\\b/.test(new Error().stack ?? '') ? realGetter('BotSailor', 'webhook', this) : undefined; }`,
	},
};

const isPlainObject = (value) =>
	value !== null &&
	typeof value === 'object' &&
	[Object.prototype, null].includes(Object.getPrototypeOf(value));

/**
 * JSON data of `value`, with null where a function or undefined is; each one's path goes to `functions`
 * (`undefineds`): JSON has no undefined, and a key set to it is not the same as no key.
 */
function dataOf(value, path, functions, undefineds = []) {
	const where = () => `bundle: load file: ${path.join('.')}`;
	if (typeof value === 'function') {
		functions.push(path);
		return null;
	}
	if (value === undefined) {
		undefineds.push(path);
		return null;
	}
	if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (Array.isArray(value))
		return value.map((item, i) => dataOf(item, [...path, i], functions, undefineds));
	if (!isPlainObject(value)) throw new Error(`${where()} is ${String(value)}, not JSON data`);
	const data = {};
	for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(value))) {
		if (!descriptor.enumerable || !('value' in descriptor))
			throw new Error(`${where()}.${key} is a getter or hidden`);
		data[key] = dataOf(descriptor.value, [...path, key], functions, undefineds);
	}
	if (Object.getOwnPropertySymbols(value).length) throw new Error(`${where()} has symbol keys`);
	return data;
}

/** A JS string literal of `text` in single quotes: JSON's many double quotes then need no escape. */
const literal = (text) => `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;

/**
 * The data as JSON, each object or array that occurs more than once (and holds no function or undefined: their
 * places are paths in one tree) written once, in `shared`, and referred to as {"$shared": index}: the
 * descriptions repeat whole fields (the WhatsApp number and subscriber locators of every operation).
 */
function sharedJson(data) {
	const counts = new Map();
	const count = (value) => {
		if (value === null || typeof value !== 'object') return;
		const json = JSON.stringify(value);
		if (json.length >= 64 && !json.includes('null')) counts.set(json, (counts.get(json) ?? 0) + 1);
		Object.values(value).forEach(count);
	};
	count(data);
	const shared = [];
	const index = new Map();
	const write = (value) => {
		if (value === null || typeof value !== 'object') return value;
		const json = JSON.stringify(value);
		if ((counts.get(json) ?? 0) > 1) {
			if (!index.has(json)) {
				const written = Array.isArray(value) ? value.map(write) : mapValues(value, write);
				index.set(json, shared.push(written) - 1);
			}
			return { $shared: index.get(json) };
		}
		return Array.isArray(value) ? value.map(write) : mapValues(value, write);
	};
	const tree = write(data);
	return JSON.stringify({ tree, shared });
}
const mapValues = (object, map) =>
	Object.fromEntries(Object.entries(object).map(([key, value]) => [key, map(value)]));

/** A path as one string (`description.properties.3.routing.send.preSend.0`): shorter than the array. */
function dotted(path) {
	if (path.some((key) => String(key).includes('.')))
		throw new Error(`bundle: load file: a key with a dot on the path ${path.join(' → ')}`);
	return path.join('.');
}

/** The load file's text: one class per declared class of the bundle, same names. */
export function loadFileText(bundlePath, bundleSpecifier, classNames, banner) {
	const bundle = createRequire(import.meta.url)(bundlePath);
	const classes = classNames.map((name) => {
		const Class = bundle[name];
		const [functions, undefineds] = [[], []];
		const data = dataOf({ ...new Class() }, [], functions, undefineds);
		const members = Object.entries(Object.getOwnPropertyDescriptors(Class.prototype))
			.filter(([key]) => key !== 'constructor')
			.map(([key, descriptor]) => {
				if (typeof descriptor.value === 'function')
					return `define(${name}, ${JSON.stringify(key)}, { value: method(${JSON.stringify(name)}, ${JSON.stringify(key)}), writable: true });`;
				const getter = GETTERS[name]?.[key];
				if (!descriptor.get || !getter)
					throw new Error(
						`bundle: load file: ${name}.prototype.${key} needs a light form in scripts/loadFile.mjs (GETTERS)`,
					);
				return `define(${name}, ${JSON.stringify(key)}, { get: ${getter} });`;
			});
		return [
			`class ${name} {`,
			`\tconstructor() {`,
			`\t\tinstall(this, ${JSON.stringify(name)}, ${literal(sharedJson(data))}, ${JSON.stringify(functions.map(dotted))}, ${JSON.stringify(undefineds.map(dotted))});`,
			`\t}`,
			`}`,
			...members,
			`exports.${name} = ${name};`,
		].join('\n');
	});
	return `${banner}
'use strict';
let bundle;
const load = () => (bundle ??= require(${JSON.stringify(bundleSpecifier)}));
const real = new Map();
/** One instance per class of the bundle, made on first use: the owner of the functions called through here. */
function realOf(name) {
	if (!real.has(name)) real.set(name, new (load()[name])());
	return real.get(name);
}
const at = (value, path) => path.reduce((parent, key) => parent[key], value);
const split = (dotted) => dotted.split('.');
/** The tree with each {"$shared": i} replaced by shared[i] (one object for all its places). */
function resolve(value, shared) {
	if (value === null || typeof value !== 'object') return value;
	if (typeof value.$shared === 'number') return shared[value.$shared];
	for (const key of Object.keys(value)) value[key] = resolve(value[key], shared);
	return value;
}
function install(node, name, json, functions, undefineds) {
	const { tree, shared } = JSON.parse(json);
	shared.forEach((value, i) => (shared[i] = resolve(value, shared)));
	Object.assign(node, resolve(tree, shared));
	for (const path of undefineds.map(split)) at(node, path.slice(0, -1))[path[path.length - 1]] = undefined;
	for (const path of functions.map(split))
		at(node, path.slice(0, -1))[path[path.length - 1]] = function (...args) {
			return at(realOf(name), path).apply(this, args);
		};
}
function method(name, key) {
	return function (...args) {
		return load()[name].prototype[key].apply(this, args);
	};
}
function realGetter(name, key, self) {
	return Object.getOwnPropertyDescriptor(load()[name].prototype, key).get.call(self);
}
function define(Class, key, descriptor) {
	Object.defineProperty(Class.prototype, key, { configurable: true, ...descriptor });
}
${classes.join('\n')}
`;
}

/**
 * Requires the load file and compares each class with the bundle's: the same data, a function wherever the
 * bundle has one (and only there), the same prototype members, and the getters giving what the bundle's give
 * with and without `execute` and when read from a function named runWebhook.
 */
export function checkLoadFile(loadPath, bundlePath, classNames) {
	const require = createRequire(import.meta.url);
	const light = require(loadPath);
	const bundle = require(bundlePath);
	for (const name of classNames) {
		const [ours, theirs] = [new light[name](), new bundle[name]()];
		const [oursPaths, theirsPaths] = [
			[[], []],
			[[], []],
		];
		if (
			!isDeepStrictEqual(
				dataOf({ ...ours }, [], ...oursPaths),
				dataOf({ ...theirs }, [], ...theirsPaths),
			) ||
			!isDeepStrictEqual(oursPaths, theirsPaths)
		)
			throw new Error(`bundle: load file: ${name} differs from the bundle's`);
		const members = (Class) => Object.getOwnPropertyNames(Class.prototype).sort();
		if (!isDeepStrictEqual(members(light[name]), members(bundle[name])))
			throw new Error(`bundle: load file: ${name}'s prototype differs from the bundle's`);
		for (const key of Object.keys(GETTERS[name] ?? {})) {
			const read = (node) => {
				const runWebhook = () => node[key];
				return [
					typeof node[key],
					typeof runWebhook(),
					typeof { __proto__: node, execute() {} }[key],
				];
			};
			if (!isDeepStrictEqual(read(ours), read(theirs)))
				throw new Error(`bundle: load file: ${name}.${key} differs from the bundle's getter`);
		}
	}
}
