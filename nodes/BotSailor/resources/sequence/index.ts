import type { INodeProperties } from 'n8n-workflow';
import { inputs, validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';
import { whatsAppNumber } from '../common';

const resource = 'sequence';

export const sequenceOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: [
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many sequences',
			description: 'List the sequence campaigns of a WhatsApp number',
			routing: {
				request: { url: '/whatsapp/subscriber/sequence/list' },
				send: { preSend: [validateBody(z.object({ phone_number_id: inputs.required.describe('WhatsApp Number') }))] },
				output: { postReceive: [unwrap('message')] },
			},
		},
	],
	default: 'getMany',
};

export const sequenceDescription: INodeProperties[] = [sequenceOperations, whatsAppNumber(resource, ['getMany'])];
