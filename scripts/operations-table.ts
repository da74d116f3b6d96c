/* The README's table of every resource and operation, and the counts of them the pages state, read from the node's own description, so the README cannot drift from the node (`npm run generate` writes them through scripts/generate.ts; test/readme.test.ts checks them). */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

export function operationsTable(properties: INodeProperties[]): string {
	const resources = (properties.find((property) => property.name === 'resource')?.options ??
		[]) as INodePropertyOptions[];
	const rows = ['| Resource | Operation | What it does | Endpoint |', '|---|---|---|---|'];
	for (const resource of resources) {
		const operations = properties.filter(
			(property: INodeProperties) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes(resource.value),
		);
		for (const option of operations.flatMap(
			(property) => (property.options ?? []) as INodePropertyOptions[],
		)) {
			const url = String(option.routing?.request?.url ?? '').replace(/^=/, '');
			const endpoint = url ? `\`${url}\`` : 'several calls';
			rows.push(
				`| ${resource.name} | ${option.name} | ${option.action ?? option.description ?? ''} | ${endpoint} |`,
			);
		}
	}
	return rows.join('\n');
}

const START = '<!-- operations:start -->';
const END = '<!-- operations:end -->';

/** The README text without the generated table and its markers: the part written by hand. */
export function withoutOperationsTable(readme: string): string {
	const [before, rest] = readme.split(START);
	return `${before}${rest?.split(END)[1] ?? ''}`;
}

/** The README text with the table between its two markers regenerated from the node. */
export function withOperationsTable(readme: string, properties: INodeProperties[]): string {
	const [before, rest] = readme.split(START);
	if (rest === undefined || !rest.includes(END))
		throw new Error(`README.md has no ${START} … ${END} block for the operations table`);
	return `${before}${START}\n${operationsTable(properties)}\n${END}${rest.split(END)[1]}`;
}

/** How a page states the counts: "N operations", "the node's N operations", "(N, in M resources)". */
export const STATED_COUNT =
	/(\d+)(\s+operations)|(node's\s+)(\d+)(\s+operations)|\((\d+), in (\d+) resources\)/g;

/** The number of operations and of resources of the node. */
export function counts(properties: INodeProperties[]): { operations: number; resources: number } {
	const rows = operationsTable(properties).split('\n').slice(2);
	return {
		operations: rows.length,
		resources: new Set(rows.map((row) => row.split('|')[1].trim())).size,
	};
}

/** A page with every count it states set to the node's own (a count is derived, never typed). */
export function withStatedCounts(text: string, properties: INodeProperties[]): string {
	const { operations, resources } = counts(properties);
	return text.replace(STATED_COUNT, (...match: Array<string | undefined>) => {
		const [, , ops, node, , nodeOps] = match;
		if (ops !== undefined) return `${operations}${ops}`;
		if (node !== undefined) return `${node}${operations}${nodeOps}`;
		return `(${operations}, in ${resources} resources)`;
	});
}
