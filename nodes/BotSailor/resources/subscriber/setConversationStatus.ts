import { inputs } from '../../../shared/parameters/inputs';
import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator, subscriberWrite } from '../shared/subscriber';

const CONVERSATION_ACTIONS = [
	'resolved',
	'reopen',
	'archived',
	'unarchived',
	'blocked',
	'unblocked',
] as const;

export const setConversationStatusOperation: OperationDescription = {
	kind: 'write',
	toolDescription:
		"Change the status of a subscriber's conversation in the team inbox: resolved when the request is settled, reopen to put it back in the open inbox, archived, blocked (no more messages from them) or unarchived/unblocked. Sends nothing to them.",
	option: {
		name: 'Set Conversation Status',
		value: 'setConversationStatus',
		action: 'Set the conversation status of a subscriber',
		routing: subscriberWrite('/whatsapp/subscriber/chat/mark-conversation', {
			action: inputs.oneOf(CONVERSATION_ACTIONS).describe('Status'),
		}),
	},
	fields: [
		whatsAppNumber(),
		subscriberLocator(),
		{
			displayName: 'Status',
			name: 'conversationAction',
			type: 'options',
			default: 'resolved',
			required: true,
			description: 'What to do with the conversation',
			options: [
				{ name: 'Archived', value: 'archived' },
				{ name: 'Blocked', value: 'blocked' },
				{ name: 'Reopened', value: 'reopen' },
				{ name: 'Resolved', value: 'resolved' },
				{ name: 'Unarchived', value: 'unarchived' },
				{ name: 'Unblocked', value: 'unblocked' },
			],
			routing: { send: { type: 'body', property: 'action' } },
		},
	],
};
