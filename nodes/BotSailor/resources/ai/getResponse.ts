import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { confirmed } from '../common';
import type { OperationDescription } from '../resource';

/** `param`: JSON whose structure the API does not document; an empty object or array asks nothing. */
const promptData = inputs.json
	.refine(
		(json) => json !== '{}' && json !== '[]',
		'must not be empty: type the prompt data the platform expects',
	)
	.describe('Prompt Data');

export const getResponseOperation: OperationDescription = {
	kind: 'write',
	toolDescription: "Ask the platform's own AI feature for a response.",
	option: {
		name: 'Get Response',
		value: 'getResponse',
		action: 'Get an AI response',
		description:
			"Request a response from the platform's AI feature. The API documents no response payload, so the output is the response without its status.",
		routing: confirmed(
			'/ai/get_response',
			validateBody(() => z.object({ param: promptData })),
		),
	},
	fields: [
		{
			displayName: 'Prompt Data',
			name: 'param',
			type: 'json',
			// No guessed structure as the default: the API does not document it.
			default: '{}',
			required: true,
			description:
				'The prompt data sent as param. Its structure is not documented by the API; it must be valid JSON.',
			hint: 'For example {"prompt": "Summarise this conversation"}, in the structure your platform expects',
			routing: { send: { type: 'body', property: 'param' } },
		},
	],
};
