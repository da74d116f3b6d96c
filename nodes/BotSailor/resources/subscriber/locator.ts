import type { INodeProperties, PreSendAction } from 'n8n-workflow';
import { inputs, validateBody, z } from '../../../shared/inputs';
import { confirmed, subscriberField } from '../common';

/** The subscriber an operation acts on: from the number's subscribers, or typed as a phone number. Sent as `phone_number`. */
export const subscriberLocator = () => subscriberField('subscriber');

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

/** The body fields every subscriber operation has, for `validateBody`. */
export const subscriberKeys = {
	phone_number_id: inputs.required.describe('WhatsApp Number'),
	phone_number: inputs.phoneNumber.describe('Subscriber'),
};

/** A write on one subscriber: the number and subscriber plus `extra` checked, the confirmation text as the output. */
export function subscriberWrite(
	url: string,
	extra: z.ZodRawShape = {},
	preSend: PreSendAction[] = [],
) {
	return confirmed(
		url,
		...preSend,
		validateBody(() => z.object({ ...subscriberKeys, ...extra })),
	);
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
