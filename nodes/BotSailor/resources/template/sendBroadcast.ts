import { jsonParse, NodeOperationError } from 'n8n-workflow';
import { decodedListPayload } from '../../../shared/http/listText';
import { sendNumber } from '../common';
import { listRecords } from '../../../shared/http/envelope';
import { FORM_CONTENT_TYPE } from '../../../shared/http/transport';
import { recordOf } from '../../../shared/parameters/values';
import { labelNamed } from '../../running/steps';
import { optOutLabelOf, skipOptedOutFields } from '../../sending/skipOptedOut';
import { checkFields, inputs, onFirstUse, z } from '../../../shared/parameters/inputs';
import { type SendDefinition } from '../../sending/sendDefinition';
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
	// SPEC-GAP: flow_data's structure is not shown; its `template_id` as integrators send it, when there.
	templateIdOf(fields) {
		const id = recordOf(jsonParse(String(fields.flow_data), { fallbackValue: {} })).template_id;
		return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
	},
	async build(item) {
		optOutLabelOf(item);
		return checkFields(item, schema(), {
			phone_number_id: item.param('phoneNumberId', undefined, { extractValue: true }),
			flow_data: item.param('flowData'),
		});
	},
	/**
	 * Skip Opted-Out Subscribers: the opt-out label's id joins the campaign's `exclude_label_ids`. SPEC-GAP: flow_data's
	 * structure is not shown; the key is the campaign editor's "exclude labels" as integrators describe it. When the
	 * account has no such label, nobody carries it and the campaign goes as given.
	 */
	async beforeSend(item, fields) {
		const label = optOutLabelOf(item);
		if (!label) return fields;
		const earlier = (await item.credentials()).apiForm === 'earlier';
		const envelope = await item.request({
			method: 'POST',
			url: earlier ? '/whatsapp/label/list' : '/label/list',
			headers: { 'Content-Type': FORM_CONTENT_TYPE, Accept: 'application/json' },
			body: earlier ? { phone_number_id: fields.phone_number_id } : {},
		});
		// Fails closed: only a list of labels (`[]`: the account has none) says whether the label exists.
		const sent = envelope.message;
		const labels = sent === undefined || sent === null ? undefined : listRecords(envelope);
		const empty = Array.isArray(decodedListPayload(sent)) && labels?.length === 0;
		if (!labels || (!empty && !labels.every((entry) => 'label_name' in entry && 'id' in entry)))
			throw new NodeOperationError(
				item.getNode(),
				`The label list could not be read, so opted-out subscribers cannot be left out: the answer was ${JSON.stringify(sent ?? null).slice(0, 80)}`,
				{
					description:
						'Skip Opted-Out Subscribers adds the opt-out label’s ID to the campaign’s exclude_label_ids, read from the label list. Nothing was sent.',
					itemIndex: item.getItemIndex(),
				},
			);
		const found = labelNamed(labels, label);
		if (!found) return fields;
		const flow = recordOf(jsonParse(String(fields.flow_data)));
		const excluded = Array.isArray(flow.exclude_label_ids) ? flow.exclude_label_ids : [];
		const ids = [...new Set([...excluded.map(Number), Number(found.id)])];
		return { ...fields, flow_data: JSON.stringify({ ...flow, exclude_label_ids: ids }) };
	},
};

export const sendBroadcastOperation: OperationDescription = {
	kind: 'send',
	send: sendBroadcast,
	toolDescription:
		'Send a template campaign (broadcast) to many subscribers at once. Sends many messages.',
	option: {
		name: 'Send Broadcast',
		value: 'sendBroadcast',
		action: 'Send a broadcast template',
		description: 'Save and send a broadcast template campaign',
	},
	fields: [
		sendNumber(),
		{
			displayName: 'Flow Data',
			name: 'flowData',
			type: 'json',
			default: '{}',
			required: true,
			description:
				"The broadcast campaign as JSON (flow_data). The API documentation does not describe its structure; build it as your platform's broadcast editor does.",
		},
		...skipOptedOutFields(
			"Whether to leave out subscribers who carry the opt-out label (Subscriber → Opt Out): the label's ID is added to the campaign's exclude_label_ids. One request more (the label list).",
		),
	],
};
