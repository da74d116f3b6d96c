import type { INodeProperties } from 'n8n-workflow';

/** Fields several Subscriber operations show. */

/** The team member who takes over a conversation (Assign to Team Member, Hand Over to a Person). */
export function teamMemberLocator(): INodeProperties {
	return {
		displayName: 'Team Member',
		name: 'teamMember',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The team member who takes over the conversation',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchTeamMembers', searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 501' },
		],
	};
}

const LISTS = {
	label: {
		displayName: 'Label Names or IDs',
		name: 'labelIds',
		loadOptionsMethod: 'getLabels',
		property: 'label_ids',
	},
	sequence: {
		displayName: 'Sequence Names or IDs',
		name: 'sequenceIds',
		loadOptionsMethod: 'getSequences',
		property: 'sequence_ids',
	},
};

/** The labels or sequences of the chosen number, as a multi-select sent as a list of IDs. */
export function idList(
	list: keyof typeof LISTS,
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	const { displayName, name, loadOptionsMethod, property } = LISTS[list];
	return {
		displayName,
		name,
		type: 'multiOptions',
		default: [],
		description:
			'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		typeOptions: { loadOptionsMethod, loadOptionsDependsOn: ['phoneNumberId.value'] },
		routing: { send: { type: 'body', property } },
		...extra,
	};
}
