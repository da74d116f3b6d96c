import type { INodeProperties } from 'n8n-workflow';
import { recipient, whatsAppNumber } from '../common';
import { inputs, validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';
import { sendRouting } from '../../shared/sendDefinition';
import { triggerBotFlow, triggerFields } from './trigger';

const resource = 'botFlow';
const NUMBER = inputs.required.describe('WhatsApp Number');

export const botFlowOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: [
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many bot flows',
			description: 'Get the bot flows of a WhatsApp number',
			routing: {
				request: { url: '/whatsapp/get/bot-flow-list' },
				send: { preSend: [validateBody(z.object({ phone_number_id: NUMBER }))] },
				output: { postReceive: [unwrap('message')] },
			},
		},
		{
			name: 'Trigger',
			value: 'trigger',
			action: 'Trigger a bot flow',
			description: 'Start a bot flow for a subscriber',
			routing: sendRouting(triggerBotFlow),
		},
	],
	default: 'getMany',
};

export const botFlowDescription: INodeProperties[] = [
	botFlowOperations,
	whatsAppNumber(resource, ['getMany', 'trigger']),
	...triggerFields,
	recipient(resource, ['trigger']),
];
