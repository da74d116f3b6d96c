import type { INodeProperties } from 'n8n-workflow';
import { showFor } from '../common';
import { checkFields, inputs, z } from '../../shared/inputs';
import type { SendDefinition } from '../../shared/sendDefinition';

export const sendBroadcastFields: INodeProperties[] = [
	{
		displayName: 'Flow Data',
		name: 'flowData',
		type: 'json',
		default: '{}',
		required: true,
		description:
			'The broadcast campaign as JSON (flow_data). The API documentation does not describe its structure; build it as your platform\'s broadcast editor does.',
		displayOptions: showFor('template', ['sendBroadcast']),
	},
];

const schema = z.object({
	phone_number_id: inputs.required.describe('WhatsApp Number'),
	// An empty object is the field's default, not a campaign.
	flow_data: inputs.json.refine((json) => json !== '{}' && json !== '[]', 'must describe the campaign (it is empty)').describe('Flow Data'),
});

/** Template → Send Broadcast: saves and sends a broadcast template campaign. */
export const sendBroadcast: SendDefinition = {
	resource: 'template',
	operation: 'sendBroadcast',
	url: '/whatsapp/broadcast/template/send',
	async build(item) {
		return checkFields(item, schema, {
			phone_number_id: item.param('phoneNumberId', undefined, { extractValue: true }),
			flow_data: item.param('flowData'),
		});
	},
};
