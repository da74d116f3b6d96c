import type { INodeProperties } from 'n8n-workflow';
import { sendNumber, sendRecipient } from '../common';
import { checkFields, inputs, onFirstUse, z } from '../../../shared/parameters/inputs';
import { type SendDefinition } from '../../sending/sendDefinition';
import type { OperationDescription } from '../resource';

const botFlowLocator: INodeProperties[] = [
	{
		displayName: 'Bot Flow',
		name: 'botFlowUniqueId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The bot flow to start; its unique_id is sent',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchBotFlows', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. flow_0_0_a1b2c3',
				hint: 'The unique_id from Bot Flow → Get Many',
			},
		],
	},
];

const schema = onFirstUse(() =>
	z.object({
		phone_number_id: inputs.required.describe('WhatsApp Number'),
		bot_flow_unique_id: inputs.required.describe('Bot Flow'),
		phone_number: inputs.phoneNumber.describe('Subscriber'),
	}),
);

/** Bot Flow → Trigger: starts a bot flow for a subscriber (it sends the flow's messages, so it is a send). */
export const triggerBotFlow: SendDefinition = {
	resource: 'botFlow',
	operation: 'trigger',
	url: '/whatsapp/trigger-bot',
	async build(item) {
		return checkFields(item, schema(), {
			phone_number_id: item.param('phoneNumberId', undefined, { extractValue: true }),
			bot_flow_unique_id: item.param('botFlowUniqueId', undefined, { extractValue: true }),
			phone_number: item.param('phoneNumber', undefined, { extractValue: true }),
		});
	},
};

export const triggerOperation: OperationDescription = {
	kind: 'send',
	send: triggerBotFlow,
	toolDescription:
		'Start a bot flow (an automated conversation) for one subscriber; the flow may send them messages.',
	option: {
		name: 'Trigger',
		value: 'trigger',
		action: 'Trigger a bot flow',
		description: 'Start a bot flow for a subscriber',
	},
	fields: [sendNumber(), ...botFlowLocator, sendRecipient()],
};
