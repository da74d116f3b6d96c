import { inputs } from '../../../shared/parameters/inputs';
import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator, subscriberWrite } from '../shared/subscriber';
import { teamMemberLocator } from './fields';

export const assignToTeamMemberOperation: OperationDescription = {
	kind: 'write',
	toolDescription:
		"Assign a subscriber's conversation to a human team member (agent) of the account, by the member's ID. To hand a customer over with a reason and the conversation reopened, Hand Over to a Person does all of it.",
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
