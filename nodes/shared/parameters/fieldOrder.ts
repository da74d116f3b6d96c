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
