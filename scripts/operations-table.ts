/* The README's table of every resource and operation, read from the node's own description, so the README cannot drift from the node (checked by test/readme.test.ts; `npm run generate`, or `UPDATE_README=1 npx jest test/readme.test.ts`, rewrites it). */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { BotSailor } from '../nodes/BotSailor/BotSailor.node';

export function operationsTable(): string {
	const { properties } = new BotSailor().description;
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

/** The README text with the table between its two markers regenerated from the node. */
export function withOperationsTable(readme: string): string {
	const [before, rest] = readme.split(START);
	if (rest === undefined || !rest.includes(END))
		throw new Error(`README.md has no ${START} … ${END} block for the operations table`);
	return `${before}${START}\n${operationsTable()}\n${END}${rest.split(END)[1]}`;
}
