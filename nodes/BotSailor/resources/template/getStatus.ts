import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { unwrap } from '../../running/outputItems';
import { whatsAppNumber } from '../common';
import { templateLocator } from '../shared/templateLocator';
import type { OperationDescription } from '../resource';
import { JSON_HEADERS } from './create';

export const templateGetStatusOperation: OperationDescription = {
	kind: 'read',
	toolDescription: 'Get the approval status of a message template.',
	option: {
		name: 'Get Status',
		value: 'getStatus',
		action: 'Get a template status',
		description: 'Get the approval status of a template',
		routing: {
			request: { url: '/whatsapp/template/status', headers: JSON_HEADERS, json: true },
			send: {
				preSend: [
					validateBody(() =>
						z.object({
							phone_number_id: inputs.required.describe('WhatsApp Number'),
							template_id: inputs.required.describe('Template'),
						}),
					),
				],
			},
			output: { postReceive: [unwrap('data')] },
		},
	},
	fields: [
		whatsAppNumber(),
		{ ...templateLocator(), routing: { send: { type: 'body', property: 'template_id' } } },
	],
};
