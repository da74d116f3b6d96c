import type { INodeProperties } from 'n8n-workflow';
import { showFor, subscriberPhoneNumber, whatsAppNumber } from '../common';
import { inputs, validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';
import { sendRouting } from '../../shared/sendExecutor';

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
			routing: sendRouting('/whatsapp/trigger-bot', [
				validateBody(
					z.object({
						phone_number_id: NUMBER,
						bot_flow_unique_id: inputs.required.describe('Bot Flow'),
						phone_number: inputs.phoneNumber.describe('Phone Number'),
					}),
				),
			]),
		},
	],
	default: 'getMany',
};

export const botFlowDescription: INodeProperties[] = [
	botFlowOperations,
	whatsAppNumber(resource, ['getMany', 'trigger']),
	{
		displayName: 'Bot Flow',
		name: 'botFlowUniqueId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The bot flow to start; its unique_id is sent',
		displayOptions: showFor(resource, ['trigger']),
		modes: [
			{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod: 'searchBotFlows', searchable: true } },
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. flow_0_0_a1b2c3', hint: 'The unique_id from Bot Flow → Get Many' },
		],
		routing: { send: { type: 'body', property: 'bot_flow_unique_id' } },
	},
	subscriberPhoneNumber(resource, ['trigger']),
];
