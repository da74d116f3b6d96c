// The load file, dist/botsailor.load.js (issue 54, point 3): what n8n requires when it starts. n8n loads every node
// and credential of a community package at start, on every worker, and reads only their descriptions then; the code
// behind them (requests, Send and Wait's pages, the chat answers, the delivery waits) runs when a workflow does.
// So the declared files re-export classes from this file, whose instances carry the descriptions as JSON (V8 parses
// JSON several times faster than the same objects as code) and whose functions (execute, poll, webhook, preSend,
// postReceive, the panel's methods) are stand-ins that require the bundle, dist/botsailor.js, the first time one is
// called and hand the call on to the same function of the bundle's own instance, `this` and arguments unchanged.
// The bundle stays one module instance per process, so the nodes still share their state (deliveryMemory.ts).
//
// Generated from the bundle's classes themselves, then checked against them (the build fails on any difference): the
// same fields in the same order, the same values, a function where they have one, the same objects shared between
// places, the same prototype methods. What JSON cannot carry (a RegExp, a Date, a class instance, a getter, NaN, a
// static member) fails the build with its place named, rather than loading differently in n8n.
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export const LOAD = 'botsailor.load.js';

const place = (className, path) =>
	`${className}${path.map((key) => `[${JSON.stringify(key)}]`).join('')}`;

/** A class's instance as JSON, plus the patches that JSON cannot say: functions, undefined, shared objects. */
function encode(className, instance) {
	const patches = []; // ['f', path] | ['u', path] | ['r', path, first path of the same object]
	const seen = new Map(); // object -> its first path
	const walk = (value, path, inside) => {
		if (typeof value === 'function') {
			patches.push(['f', path]);
			return null;
		}
		if (value === undefined) {
			patches.push(['u', path]);
			return null;
		}
		if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
		if (typeof value === 'number') {
			if (!Number.isFinite(value))
				throw new Error(
					`load file: ${place(className, path)} is ${value}, which JSON cannot carry`,
				);
			return value;
		}
		if (typeof value !== 'object')
			throw new Error(
				`load file: ${place(className, path)} is a ${typeof value}, which JSON cannot carry`,
			);
		if (inside.has(value))
			throw new Error(
				`load file: ${place(className, path)} refers back to an object that contains it`,
			);
		if (seen.has(value)) {
			patches.push(['r', path, seen.get(value)]);
			return null;
		}
		seen.set(value, path);
		const prototype = Object.getPrototypeOf(value);
		if (path.length && prototype !== Object.prototype && prototype !== Array.prototype)
			throw new Error(
				`load file: ${place(className, path)} is a ${prototype?.constructor?.name ?? 'null-prototype object'}, not plain data`,
			);
		if (Object.getOwnPropertySymbols(value).length)
			throw new Error(`load file: ${place(className, path)} has symbol keys`);
		const keys = Object.getOwnPropertyNames(value).filter(
			(key) => !(Array.isArray(value) && key === 'length'),
		);
		for (const key of keys) {
			const descriptor = Object.getOwnPropertyDescriptor(value, key);
			if (!('value' in descriptor) || !descriptor.enumerable || !descriptor.writable)
				throw new Error(
					`load file: ${place(className, [...path, key])} is not a plain writable field`,
				);
		}
		inside.add(value);
		const out = Array.isArray(value) ? [] : {};
		if (Array.isArray(value) && keys.length !== value.length)
			throw new Error(`load file: ${place(className, path)} is a sparse array`);
		for (const key of keys)
			out[key] = walk(value[key], [...path, Array.isArray(value) ? Number(key) : key], inside);
		inside.delete(value);
		return out;
	};
	const fields = walk(instance, [], new Set());
	return { fields: JSON.stringify(pack(fields)), patches };
}

/**
 * JSON with its repeats said once (the package's size budget, scripts/size-budget.mjs): an object is
 * [its key list's number, …its values], an array [0, …its items], a string used more than once [-1 - its number].
 * The keys of about 20,000 objects and the texts shared by many fields (the Tool Description, the phone fields)
 * are most of the descriptions' bytes; unpacking costs about as much as JSON.parse itself.
 */
function pack(data) {
	const counts = new Map();
	const count = (value) => {
		if (typeof value === 'string') counts.set(value, (counts.get(value) ?? 0) + 1);
		else if (value && typeof value === 'object') Object.values(value).forEach(count);
	};
	count(data);
	const strings = [...counts]
		.filter(([text, uses]) => uses > 1 && text.length > 3)
		.map(([text]) => text);
	const stringNumbers = new Map(strings.map((text, index) => [text, index]));
	const shapes = new Map();
	const packed = (value) => {
		if (Array.isArray(value)) return [0, ...value.map(packed)];
		if (value && typeof value === 'object') {
			const keys = Object.keys(value);
			const shape = JSON.stringify(keys);
			if (!shapes.has(shape)) shapes.set(shape, shapes.size + 1);
			return [shapes.get(shape), ...keys.map((key) => packed(value[key]))];
		}
		return typeof value === 'string' && stringNumbers.has(value)
			? [-1 - stringNumbers.get(value)]
			: value;
	};
	const root = packed(data);
	return [[...shapes.keys()].map((shape) => JSON.parse(shape)), strings, root];
}

/** The class's prototype methods (execute, poll, webhook, authenticate…), after checking it has nothing else. */
function methodsOf(className, Class) {
	const statics = Object.getOwnPropertyNames(Class).filter(
		(key) => !['length', 'name', 'prototype'].includes(key),
	);
	if (statics.length || Object.getOwnPropertySymbols(Class).length)
		throw new Error(
			`load file: ${className} has static members (${statics.join(', ')}), which the load file does not carry`,
		);
	if (Object.getPrototypeOf(Class.prototype) !== Object.prototype)
		throw new Error(
			`load file: ${className} extends another class, which the load file does not carry`,
		);
	const methods = [];
	const accessors = [];
	for (const key of Object.getOwnPropertyNames(Class.prototype).filter(
		(name) => name !== 'constructor',
	)) {
		const descriptor = Object.getOwnPropertyDescriptor(Class.prototype, key);
		if (typeof descriptor.value === 'function') methods.push(key);
		else if (descriptor.get && !descriptor.set && `${className}.${key}` in ACCESSOR_GATES)
			accessors.push(key);
		else
			throw new Error(
				`load file: ${className}.prototype.${key} is neither a method nor a getter with a gate in ACCESSOR_GATES (scripts/load-file.mjs)`,
			);
	}
	return { methods, accessors };
}

/**
 * A getter of a class is carried with its gate: a function of the sources that imports nothing at run time and says
 * whether the getter can give anything. n8n reads the getter when it loads the node; the stand-in answers undefined
 * without the bundle where the gate says no, and asks the bundle's getter otherwise.
 */
const ACCESSOR_GATES = {
	'BotSailor.webhook': [
		'./nodes/BotSailor/sendAndWait/webhookGate.ts',
		'exposesSendAndWaitWebhook',
	],
};

/**
 * What a description reads of the n8n at hand when the node loads, with a way to make the build's n8n-workflow
 * answer the other way. The build loads the bundle once per answer; the load file carries the first answer's JSON and
 * the fields the other answer changes, and asks the probe when n8n constructs the node. A description that differs
 * on anything else between two n8n versions would be baked as the build's: keep such reads behind a probe here.
 */
const PROBES = {
	// toolDescriptionField.ts: n8n 2.x evaluates an expression in a tool's description, 1.x shows it as text.
	resolvesToolExpressions: {
		source: './nodes/BotSailor/resources/toolDescriptionField.ts',
		answerNo: (workflow) => {
			const helpers = workflow.NodeHelpers;
			const original = helpers.getToolDescriptionForNode;
			helpers.getToolDescriptionForNode = (node, nodeType) => original(node, nodeType);
			return () => (helpers.getToolDescriptionForNode = original);
		},
	},
};

/** The gates and probes as a few lines of plain code (esbuild), checked to bring nothing else along. */
async function gatesCode(root) {
	const entries = Object.entries(ACCESSOR_GATES);
	const result = await build({
		stdin: {
			contents: [
				...entries.map(
					([, [file, name]], index) => `import { ${name} as gate${index} } from '${file}';`,
				),
				...Object.entries(PROBES).map(
					([name, { source }]) => `import { ${name} } from '${source}';`,
				),
				`export const gates = { ${entries.map(([key], index) => `${JSON.stringify(key)}: gate${index}`).join(', ')} };`,
				`export const probes = { ${Object.keys(PROBES).join(', ')} };`,
			].join('\n'),
			resolveDir: root,
			sourcefile: 'gates.ts',
			loader: 'ts',
		},
		bundle: true,
		platform: 'node',
		format: 'iife',
		globalName: 'gated',
		external: ['n8n-workflow'],
		target: 'node20',
		charset: 'utf8',
		metafile: true,
		write: false,
		logLevel: 'warning',
	});
	const inputs = Object.keys(result.metafile.inputs).filter((input) => input !== 'gates.ts');
	const sources = [
		...entries.map(([, [file]]) => file),
		...Object.values(PROBES).map(({ source }) => source),
	];
	const expected = [...new Set(sources.map((file) => file.replace(/^\.\//, '')))];
	if (inputs.sort().join() !== expected.sort().join())
		throw new Error(
			`load file: the gates must import nothing at run time; they bring along ${inputs.join(', ')}`,
		);
	return result.outputFiles[0].text;
}

// The load file's own code: small, as it is parsed at every start.
const runtime = (bundle) => `'use strict';
let bundle;
const instances = Object.create(null);
const load = () => (bundle ??= require('./${bundle}'));
const instanceOf = (name) => (instances[name] ??= new (load()[name])());
const at = (object, path) => path.reduce((inner, key) => inner[key], object);
const put = (object, path, value) => (at(object, path.slice(0, -1))[path[path.length - 1]] = value);
function unpack(text) {
	const [shapes, strings, root] = JSON.parse(text);
	const value = (packed) => {
		if (!Array.isArray(packed)) return packed;
		const head = packed[0];
		if (head < 0) return strings[-1 - head];
		if (head === 0) return packed.slice(1).map(value);
		const keys = shapes[head - 1];
		const object = {};
		for (let index = 0; index < keys.length; index++) object[keys[index]] = value(packed[index + 1]);
		return object;
	};
	return value(root);
}
function stub(name, fields, patches, methods, accessors, variants) {
	const Stub = class {
		constructor() {
			Object.assign(this, unpack(fields));
			for (const [probe, changes] of variants)
				if (!gated.probes[probe]()) for (const [path, value] of changes) put(this, path, value);
			for (const [kind, path, from] of patches)
				put(
					this,
					path,
					kind === 'f'
						? function (...args) {
								return at(instanceOf(name), path).apply(this, args);
							}
						: kind === 'r'
							? at(this, from)
							: undefined,
				);
		}
	};
	for (const method of methods)
		Stub.prototype[method] = function (...args) {
			return load()[name].prototype[method].apply(this, args);
		};
	for (const key of accessors)
		Object.defineProperty(Stub.prototype, key, {
			configurable: true,
			get() {
				if (!gated.gates[name + '.' + key](this)) return undefined;
				return Object.getOwnPropertyDescriptor(load()[name].prototype, key).get.call(this);
			},
		});
	Object.defineProperty(Stub, 'name', { value: name });
	return Stub;
}
`;

/** Fails when a loaded stand-in differs from the bundle's class in anything n8n could see. */
function compare(className, stubInstance, realInstance, Stub, Real) {
	const stubPaths = new Map();
	const walk = (a, b, path) => {
		const where = place(className, path);
		if (typeof b === 'function') {
			if (typeof a !== 'function')
				throw new Error(`load file: ${where} is not a function in the load file`);
			return;
		}
		if (b === null || typeof b !== 'object') {
			if (!Object.is(a, b))
				throw new Error(
					`load file: ${where} differs (${JSON.stringify(a)} vs ${JSON.stringify(b)})`,
				);
			return;
		}
		if (a === null || typeof a !== 'object' || Array.isArray(a) !== Array.isArray(b))
			throw new Error(`load file: ${where} differs in kind`);
		const first = stubPaths.get(b);
		if (first) {
			if (at(stubInstance, first) !== a)
				throw new Error(`load file: ${where} is not the same object as ${place(className, first)}`);
			return;
		}
		stubPaths.set(b, path);
		const [keysA, keysB] = [Object.keys(a), Object.keys(b)];
		if (keysA.join('\n') !== keysB.join('\n'))
			throw new Error(`load file: ${where} has other fields or another order`);
		for (const key of keysB) walk(a[key], b[key], [...path, key]);
	};
	const at = (object, path) => path.reduce((inner, key) => inner[key], object);
	walk(stubInstance, realInstance, []);
	const [methodsA, methodsB] = [Stub, Real].map((Class) =>
		Object.getOwnPropertyNames(Class.prototype).join(','),
	);
	if (methodsA !== methodsB)
		throw new Error(`load file: ${className}'s methods differ (${methodsA} vs ${methodsB})`);
	// Each getter gives what the bundle's gives: when its node has an execute (n8n 1.109 and later) and when not.
	for (const [key] of Object.entries(ACCESSOR_GATES).filter(([name]) =>
		name.startsWith(`${className}.`),
	)) {
		const property = key.slice(className.length + 1);
		for (const execute of [undefined, () => undefined]) {
			const [a, b] = [stubInstance, realInstance].map(
				(instance) => Object.assign(Object.create(instance), { execute })[property],
			);
			if (typeof a !== typeof b)
				throw new Error(
					`load file: ${key} gives ${typeof a} where the bundle's gives ${typeof b} (execute ${typeof execute})`,
				);
		}
	}
}

/** The bundle as n8n-workflow answers `probe` no: loaded afresh with the probe's answer changed, then put back. */
function bundledWithout(require, path, probe) {
	const restore = PROBES[probe].answerNo(require('n8n-workflow'));
	try {
		delete require.cache[require.resolve(path)];
		return require(path);
	} finally {
		restore();
		delete require.cache[require.resolve(path)];
	}
}

/** The fields whose values differ between two instances of one class, as [path, value of the second]. */
function changes(className, first, second, path = []) {
	if (typeof first === 'function' && typeof second === 'function') return [];
	if (first === null || second === null || typeof first !== 'object' || typeof second !== 'object')
		return Object.is(first, second) ? [] : [[path, second]];
	const keys = Object.keys(first);
	if (keys.join('\n') !== Object.keys(second).join('\n'))
		throw new Error(
			`load file: ${place(className, path)} has other fields when a probe answers otherwise; only values may differ`,
		);
	return keys.flatMap((key) =>
		changes(className, first[key], second[key], [
			...path,
			Array.isArray(first) ? Number(key) : key,
		]),
	);
}

/** Writes dist/botsailor.load.js for the declared classes of the built bundle, then checks it against them. */
export async function writeLoadFile(root, dist, bundle, classNames, header) {
	const require = createRequire(join(dist, 'package.json'));
	const path = join(dist, bundle);
	const bundled = require(path);
	const otherwise = Object.fromEntries(
		Object.keys(PROBES).map((probe) => [probe, bundledWithout(require, path, probe)]),
	);
	const parts = classNames.map((className) => {
		const Class = bundled[className];
		const { methods, accessors } = methodsOf(className, Class);
		const instance = new Class();
		const variants = Object.entries(otherwise)
			.map(([probe, other]) => [probe, changes(className, instance, new other[className]())])
			.filter(([, changed]) => changed.length);
		const { fields, patches } = encode(className, instance);
		// The JSON in single quotes: it has few of them and many double ones, which a JSON.stringify would escape
		const text = `'${fields
			.replace(/[\\']/g, '\\$&')
			.replace(/\u2028/g, '\\u2028')
			.replace(/\u2029/g, '\\u2029')}'`;
		const rest = [patches, methods, accessors, variants].map((value) => JSON.stringify(value));
		return `exports.${className} = stub(${JSON.stringify(className)}, ${text}, ${rest.join(', ')});`;
	});
	writeFileSync(
		join(dist, LOAD),
		`${header}\n${runtime(bundle)}${await gatesCode(root)}${parts.join('\n')}\n`,
	);
	const loaded = require(join(dist, LOAD));
	const check = (classes) => {
		for (const className of classNames)
			compare(
				className,
				new loaded[className](),
				new classes[className](),
				loaded[className],
				classes[className],
			);
	};
	check(bundled);
	// And as each probe answers no: the stand-ins constructed then are that bundle's instances.
	for (const [probe, other] of Object.entries(otherwise)) {
		const restore = PROBES[probe].answerNo(require('n8n-workflow'));
		try {
			check(other);
		} finally {
			restore();
		}
	}
}
