import type { INodeProperties } from 'n8n-workflow';
import { showFor } from '../common';
import { inputs, validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';

const resource = 'ai';

/** `param`: JSON whose structure the API does not document; an empty object or array asks nothing. */
const promptData = inputs.json
	.refine((json) => json !== '{}' && json !== '[]', 'must not be empty: type the prompt data the platform expects')
	.describe('Prompt Data');

export const aiOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: [
		{
			name: 'Get Response',
			value: 'getResponse',
			action: 'Get an AI response',
			description:
				'Request a response from the platform\'s AI feature. The API documents no response payload, so the output is the response without its status.',
			routing: {
				request: { url: '/ai/get_response' },
				send: { preSend: [validateBody(z.object({ param: promptData }))] },
				output: { postReceive: [unwrap('confirmation')] },
			},
		},
	],
	default: 'getResponse',
};

export const aiDescription: INodeProperties[] = [
	aiOperations,
	{
		displayName: 'Prompt Data',
		name: 'param',
		type: 'json',
		// No guessed structure as the default: the API does not document it.
		default: '{}',
		required: true,
		description: 'The prompt data sent as param. Its structure is not documented by the API; it must be valid JSON.',
		hint: 'For example {"prompt": "Summarise this conversation"}, in the structure your platform expects',
		displayOptions: showFor(resource, ['getResponse']),
		routing: { send: { type: 'body', property: 'param' } },
	},
];
