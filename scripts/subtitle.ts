/*
 * The canvas subtitles of both nodes, in display names ("Send Template: Message", "New Subscriber")
 * instead of internal values ("sendTemplate: message", "On newSubscriber").
 *
 * n8n evaluates a node's `subtitle` as an expression that sees only `$parameter`, and n8n's lint wants
 * the subtitle as a string literal in the node file. So the display names travel inside that literal as
 * lookup maps, generated here from the nodes' own options. test/subtitle.test.ts evaluates the literals
 * for every resource/operation and event, and checks they are what this generates; `npm run generate`
 * (scripts/generate.ts) rewrites them after options change.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

function optionsOf(property: INodeProperties | undefined): INodePropertyOptions[] {
	return ((property?.options ?? []) as INodePropertyOptions[]).filter(
		(option) => typeof option.value === 'string',
	);
}

function parameter(name: string): string {
	return `$parameter[${JSON.stringify(name)}]`;
}

/** `({...}[$parameter["name"]] || $parameter["name"])`: a value's display name, or the value itself if unknown. */
function lookup(map: Record<string, string>, key: string): string {
	return `(${JSON.stringify(map)}[${key}] || ${key})`;
}

/** The subtitle of a node whose one options parameter says what it does (the trigger's Event). */
export function optionSubtitle(properties: INodeProperties[], name: string): string {
	const names = Object.fromEntries(
		optionsOf(properties.find((property) => property.name === name)).map((option) => [
			option.value,
			option.name,
		]),
	);
	return `={{ ${lookup(names, parameter(name))} }}`;
}

/**
 * The action node's display names, from its options: resources by value, operations by value, and by
 * "resource.operation" the operation values whose name differs between resources.
 */
export interface DisplayNames {
	resources: Record<string, string>;
	operations: Record<string, string>;
	perResource: Record<string, string>;
}

export function displayNames(properties: INodeProperties[]): DisplayNames {
	const resources = Object.fromEntries(
		optionsOf(properties.find((property) => property.name === 'resource')).map((option) => [
			option.value,
			option.name,
		]),
	);
	const byResource: Record<string, Record<string, string>> = {};
	for (const property of properties.filter((entry) => entry.name === 'operation')) {
		for (const resource of (property.displayOptions?.show?.resource ?? []) as string[]) {
			for (const option of optionsOf(property))
				(byResource[resource] ??= {})[String(option.value)] = option.name;
		}
	}
	const namesOf = new Map<string, Set<string>>();
	for (const operations of Object.values(byResource)) {
		for (const [value, name] of Object.entries(operations))
			namesOf.set(value, (namesOf.get(value) ?? new Set()).add(name));
	}
	const shared: Record<string, string> = {};
	const specific: Record<string, string> = {};
	for (const [resource, operations] of Object.entries(byResource)) {
		for (const [value, name] of Object.entries(operations)) {
			if (namesOf.get(value)!.size === 1) shared[value] = name;
			else specific[`${resource}.${value}`] = name;
		}
	}
	const sorted = (map: Record<string, string>) =>
		Object.fromEntries(Object.entries(map).sort(([a], [b]) => a.localeCompare(b)));
	return {
		resources: sorted(resources),
		operations: sorted(shared),
		perResource: sorted(specific),
	};
}

/**
 * "<Operation>: <Resource>" in display names, for a node with a Resource parameter and one Operation
 * parameter per resource. An operation value that has different names in different resources is
 * looked up per resource first.
 */
export function resourceOperationSubtitle(properties: INodeProperties[]): string {
	const names = displayNames(properties);
	const operation = parameter('operation');
	const resource = parameter('resource');
	const operationName = Object.keys(names.perResource).length
		? `(${JSON.stringify(names.perResource)}[${resource} + "." + ${operation}] || ${lookup(names.operations, operation)})`
		: lookup(names.operations, operation);
	return `={{ ${operationName} + ": " + ${lookup(names.resources, resource)} }}`;
}

/** A map as a TypeScript object literal, one entry per line, as Prettier writes it. */
function objectLiteral(map: Record<string, string>): string {
	const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`);
	const text = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
	const entries = Object.entries(map).map(([name, value]) => `\t${key(name)}: ${text(value)},\n`);
	return entries.length ? `{\n${entries.join('')}}` : '{}';
}

/** The source of nodes/shared/parameters/displayNames.ts, which error messages read (operationLabel.ts). */
export function displayNamesModule(properties: INodeProperties[]): string {
	const names = displayNames(properties);
	const map = (doc: string, name: string, entries: Record<string, string>) =>
		`/** ${doc} */\nexport const ${name}: Readonly<Record<string, string>> = ${objectLiteral(entries)};\n`;
	return [
		"// Generated by `npm run generate` (scripts/subtitle.ts) from the action node's options: do not edit by hand.",
		'// The names the canvas subtitle shows; test/subtitle.test.ts checks both.\n',
		map('Resources by value.', 'RESOURCE_NAMES', names.resources),
		map('Operations by value.', 'OPERATION_NAMES', names.operations),
		map(
			'Operations whose value has different names in different resources, by "resource.operation".',
			'RESOURCE_OPERATION_NAMES',
			names.perResource,
		),
	].join('\n');
}

/** A subtitle as the single-quoted literal of the node file's `subtitle:` line. */
export function subtitleLiteral(subtitle: string): string {
	return `'${subtitle.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The subtitle property, on one line or wrapped after the colon as prettier writes a long one (the break is kept). */
const SUBTITLE_LINE = /^(\t\tsubtitle:\s+)'.*',$/m;

/** A node file's source with its `subtitle:` line set to `subtitle`. */
export function withSubtitle(source: string, subtitle: string): string {
	return source.replace(SUBTITLE_LINE, `$1${subtitleLiteral(subtitle)},`);
}
