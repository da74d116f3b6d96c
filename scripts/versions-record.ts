/*
 * test/node/versions.json: per node version, what every operation shows and defaults. `npm run generate` adds what is
 * missing through scripts/generate.ts (a new version, operation or parameter) and never rewrites a recorded entry;
 * test/node/versions.test.ts checks the record against the node.
 */
import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodePropertyOptions,
	type INodeType,
} from 'n8n-workflow';

export type VersionsRecord = { [version: string]: { [operation: string]: INodeParameters | null } };

/** Every resource and operation the node describes, in the order of its options. */
function operationsOf(nodeType: INodeType): Array<{ resource: string; operation: string }> {
	const { properties } = nodeType.description;
	const resources = (properties.find((property) => property.name === 'resource')?.options ??
		[]) as INodePropertyOptions[];
	return resources.flatMap((resource) =>
		properties
			.filter(
				(property) =>
					property.name === 'operation' &&
					property.displayOptions?.show?.resource?.includes(resource.value),
			)
			.flatMap((property) => (property.options ?? []) as INodePropertyOptions[])
			.map((option) => ({ resource: String(resource.value), operation: String(option.value) })),
	);
}

/** What a node of this version shows for one operation, with the defaults a saved workflow leaves out. */
export function shownWithDefaults(
	nodeType: INodeType,
	typeVersion: number,
	resource: string,
	operation: string,
): INodeParameters | null {
	const node: INode = {
		id: 'v',
		name: 'BotSailor',
		type: 'botSailor',
		typeVersion,
		position: [0, 0],
		parameters: { resource, operation },
	};
	return NodeHelpers.getNodeParameters(
		nodeType.description.properties,
		node.parameters,
		true,
		false,
		node,
		nodeType.description,
	);
}

/** Every version's shown parameters and defaults, now (JSON-normalised, as the record holds them). */
export function currentRecord(nodeType: INodeType): VersionsRecord {
	const versions = nodeType.description.version as number[];
	const operations = operationsOf(nodeType);
	return Object.fromEntries(
		versions.map((typeVersion) => [
			String(typeVersion),
			Object.fromEntries(
				operations.map(({ resource, operation }) => [
					`${resource}.${operation}`,
					JSON.parse(JSON.stringify(shownWithDefaults(nodeType, typeVersion, resource, operation))),
				]),
			),
		]),
	) as VersionsRecord;
}

/** The record with what is missing added: a new version, operation or parameter (with its default); nothing rewritten. */
export function withAdditions(recorded: VersionsRecord, now: VersionsRecord): VersionsRecord {
	const next: VersionsRecord = JSON.parse(JSON.stringify(recorded));
	for (const [version, operations] of Object.entries(now)) {
		next[version] ??= {};
		for (const [operation, shown] of Object.entries(operations)) {
			const entry = next[version][operation];
			if (!(operation in next[version]) || entry === null || shown === null)
				next[version][operation] ??= shown;
			else
				for (const [name, value] of Object.entries(shown))
					if (!(name in entry)) entry[name] = value; // a new parameter, recorded with its default
		}
	}
	return next;
}
