import { whatsAppNumber } from '../common';
import { checkFields, inputs, onFirstUse, z } from '../../../shared/inputs';
import { sendRouting, type SendDefinition } from '../../shared/sendDefinition';
import type { OperationDescription } from '../resource';

const schema = onFirstUse(() =>
	z.object({
		phone_number_id: inputs.required.describe('WhatsApp Number'),
		// An empty object is the field's default, not a campaign.
		flow_data: inputs.json
			.refine((json) => json !== '{}' && json !== '[]', 'must describe the campaign (it is empty)')
			.describe('Flow Data'),
	}),
);

/** Template → Send Broadcast: saves and sends a broadcast template campaign. */
export const sendBroadcast: SendDefinition = {
	resource: 'template',
	operation: 'sendBroadcast',
	url: '/whatsapp/broadcast/template/send',
	async build(item) {
		return checkFields(item, schema(), {
			phone_number_id: item.param('phoneNumberId', undefined, { extractValue: true }),
			flow_data: item.param('flowData'),
		});
	},
};

export const sendBroadcastOperation: OperationDescription = {
	option: {
		name: 'Send Broadcast',
		value: 'sendBroadcast',
		action: 'Send a broadcast template',
		description: 'Save and send a broadcast template campaign',
		routing: sendRouting(sendBroadcast),
	},
	fields: [
		whatsAppNumber(),
		{
			displayName: 'Flow Data',
			name: 'flowData',
			type: 'json',
			default: '{}',
			required: true,
			description:
				"The broadcast campaign as JSON (flow_data). The API documentation does not describe its structure; build it as your platform's broadcast editor does.",
		},
	],
};
