import type { INodeProperties } from 'n8n-workflow';
import { showFor } from '../common';
import { inputs, validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';

const resource = 'ai';

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
				send: { preSend: [validateBody(z.object({ param: inputs.json.describe('Prompt Data') }))] },
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
		default: '{\n  "prompt": ""\n}',
		required: true,
		description: 'The prompt data sent as param. Its structure is not documented by the API; it must be valid JSON.',
		displayOptions: showFor(resource, ['getResponse']),
		routing: { send: { type: 'body', property: 'param' } },
	},
];
