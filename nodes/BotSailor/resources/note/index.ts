import type { INodeProperties } from 'n8n-workflow';
import { inputs, validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';
import { showFor, whatsAppNumber } from '../common';
import { subscriberKeys, subscriberLocator } from '../subscriber/locator';

const resource = 'note';

export const noteOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: [
		{
			name: 'Create',
			value: 'create',
			action: 'Add a note to a subscriber',
			routing: {
				request: { url: '/whatsapp/subscriber/chat/add-notes' },
				send: { preSend: [validateBody(z.object({ ...subscriberKeys, note_text: inputs.required.describe('Note') }))] },
				output: { postReceive: [unwrap('confirmation')] },
			},
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many notes of a subscriber',
			routing: {
				request: { url: '/whatsapp/subscriber/chat/get-notes' },
				send: { preSend: [validateBody(z.object(subscriberKeys))] },
				output: { postReceive: [unwrap('message')] },
			},
		},
	],
	default: 'create',
};

export const noteDescription: INodeProperties[] = [
	noteOperations,
	whatsAppNumber(resource, ['create', 'getMany']),
	subscriberLocator(resource, ['create', 'getMany']),
	{
		displayName: 'Note',
		name: 'noteText',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		description: 'The note, visible to the team in live chat',
		displayOptions: showFor(resource, ['create']),
		routing: { send: { type: 'body', property: 'note_text' } },
	},
];
