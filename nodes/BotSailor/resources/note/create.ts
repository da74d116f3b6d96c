import { inputs } from '../../../shared/parameters/inputs';
import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator, subscriberWrite } from '../shared/subscriber';

export const noteCreateOperation: OperationDescription = {
	kind: 'write',
	toolDescription:
		'Add an internal note to a WhatsApp subscriber for the team to read in the inbox; the subscriber never sees it. Write it so a colleague understands it without the conversation.',
	option: {
		name: 'Create',
		value: 'create',
		action: 'Add a note to a subscriber',
		routing: subscriberWrite('/whatsapp/subscriber/chat/add-notes', {
			note_text: inputs.required.describe('Note'),
		}),
	},
	fields: [
		whatsAppNumber(),
		subscriberLocator(),
		{
			displayName: 'Note',
			name: 'noteText',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			required: true,
			description: 'The note, visible to the team in live chat',
			routing: { send: { type: 'body', property: 'note_text' } },
		},
	],
};
