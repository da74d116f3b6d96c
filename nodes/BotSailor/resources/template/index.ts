import type { INodeProperties } from 'n8n-workflow';
import { decodeJsonOption, whatsAppNumber } from '../common';
import { inputs, validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';
import { sendRouting } from '../../shared/sendDefinition';
import { templateLocator } from '../message/sendTemplate';
import { buildTemplateBody, createFields } from './create';
import { sendBroadcast, sendBroadcastFields } from './sendBroadcast';

const resource = 'template';
const NUMBER = inputs.required.describe('WhatsApp Number');
/** Template create and status are exemplified with a JSON body; the credential then adds the token to it and as Bearer. */
const JSON_HEADERS = { 'Content-Type': 'application/json' };

export const templateOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a template',
			description: 'Create a message template and submit it for approval',
			routing: {
				request: { url: '/whatsapp/template/create', headers: JSON_HEADERS, json: true },
				send: { preSend: [buildTemplateBody] },
				output: { postReceive: [unwrap('data')] },
			},
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many templates',
			description: 'Get the message templates of a WhatsApp number',
			routing: {
				request: { url: '/whatsapp/template/list' },
				send: { preSend: [validateBody(z.object({ phone_number_id: NUMBER }))] },
				output: { postReceive: [unwrap('message')] },
			},
		},
		{
			name: 'Get Status',
			value: 'getStatus',
			action: 'Get a template status',
			description: 'Get the approval status of a template',
			routing: {
				request: { url: '/whatsapp/template/status', headers: JSON_HEADERS, json: true },
				send: { preSend: [validateBody(z.object({ phone_number_id: NUMBER, template_id: inputs.required.describe('Template') }))] },
				output: { postReceive: [unwrap('data')] },
			},
		},
		{
			name: 'Send Broadcast',
			value: 'sendBroadcast',
			action: 'Send a broadcast template',
			description: 'Save and send a broadcast template campaign',
			routing: sendRouting(sendBroadcast),
		},
	],
	default: 'getMany',
};

export const templateDescription: INodeProperties[] = [
	templateOperations,
	whatsAppNumber(resource, ['create', 'getMany', 'getStatus', 'sendBroadcast']),
	templateLocator(resource, ['getStatus']),
	...createFields,
	...sendBroadcastFields,
	decodeJsonOption(resource, ['getMany']),
];
