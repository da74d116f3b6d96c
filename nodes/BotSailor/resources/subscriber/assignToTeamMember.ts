import { inputs } from '../../../shared/inputs';
import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator, subscriberWrite } from '../shared/subscriber';
import { teamMemberLocator } from './fields';

export const assignToTeamMember: OperationDescription = {
	kind: 'write',
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
			...teamMemberLocator(),
			routing: { send: { type: 'body', property: 'team_member_id' } },
		},
	],
};
