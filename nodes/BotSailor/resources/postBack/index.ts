import type { INodeProperties } from 'n8n-workflow';
import { decodeJsonOption, whatsAppNumber } from '../common';
import { inputs, validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';

const resource = 'postBack';

export const postBackOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: [
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many post backs',
			description: 'Get the post-backs (bot reply buttons and their replies) of a WhatsApp number',
			routing: {
				request: { url: '/whatsapp/get/post-back-list' },
				send: { preSend: [validateBody(z.object({ phone_number_id: inputs.required.describe('WhatsApp Number') }))] },
				output: { postReceive: [unwrap('message')] },
			},
		},
	],
	default: 'getMany',
};

export const postBackDescription: INodeProperties[] = [
	postBackOperations,
	whatsAppNumber(resource, ['getMany']),
	decodeJsonOption(resource, ['getMany']),
];
