import type { INodeProperties } from 'n8n-workflow';

/**
 * The template picker shared by Send Template, Send and Wait and Template → Get Status; the value is the list's
 * `template_id`. Without routing: the sends make their body themselves, Get Status adds it.
 */
export function templateLocator(): INodeProperties {
	return {
		displayName: 'Template',
		name: 'templateId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The message template. Its template_id (the ID assigned at creation) is sent.',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchTemplates', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 1200000000001001',
				hint: 'The template_id from Template → Get Many',
			},
		],
	};
}
