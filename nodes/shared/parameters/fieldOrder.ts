import type { INodeProperties } from 'n8n-workflow';

/**
 * An operation's fields with `added` placed before its first collection (Additional Fields, Options), so that an
 * option a send gains (the window fields, Skip Opted-Out, Wait for Delivery) sits with the main fields in the panel.
 */
export function beforeCollections(
	fields: INodeProperties[],
	added: INodeProperties[],
): INodeProperties[] {
	const at = fields.findIndex((field) => field.type === 'collection');
	const end = at < 0 ? fields.length : at;
	return [...fields.slice(0, end), ...added, ...fields.slice(end)];
}

/**
 * Orders names as the panel lists options, by code unit. Not localeCompare: its first call loads ICU's collator,
 * about 15-25 ms while n8n loads the node (test/coldLoad.test.ts fails when loading calls it).
 */
export function byCodeUnit(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
