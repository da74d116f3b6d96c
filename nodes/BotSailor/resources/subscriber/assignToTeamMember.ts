import { inputs } from '../../../shared/inputs';
import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator, subscriberWrite } from './locator';

export const assignToTeamMember: OperationDescription = {
	option: {
		name: 'Assign to Team Member',
		value: 'assignToTeamMember',
		action: 'Assign a subscriber conversation to a team member',
		routing: subscriberWrite('/whatsapp/subscriber/chat/assign-to-team-member', {
			team_member_id: inputs.integer.describe('Team Member'),
		}),
	},
	fields: [
		whatsAppNumber(),
		subscriberLocator(),
		{
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
			routing: { send: { type: 'body', property: 'team_member_id' } },
		},
	],
};
