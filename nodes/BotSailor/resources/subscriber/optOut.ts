import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { listRecords } from '../../../shared/http/envelope';
import { refuse, subscriberKeys, validateBody, z } from '../../../shared/parameters/inputs';
import { requestBody, text } from '../../../shared/parameters/values';
import { DEFAULT_OPT_OUT_LABEL } from '../../reading/optOut';
import { labelNamed, Steps } from '../../running/steps';
import { whatsAppNumber } from '../common';
import type { OperationContext, OperationDescription } from '../resource';
import { subscriberLocator } from '../shared/subscriber';

export { DEFAULT_OPT_OUT_LABEL, hasOptOutLabel } from '../../reading/optOut';

/** The label that marks an opted-out subscriber (both Opt Out and Opt In). */
export const optOutLabelField: INodeProperties = {
	displayName: 'Opt-Out Label',
	name: 'optOutLabel',
	type: 'string',
	default: DEFAULT_OPT_OUT_LABEL,
	required: true,
	description:
		'The name of the label that marks an opted-out subscriber; Opt Out creates it when the account has none of that name',
};

/** The checked subscriber and label of an Opt Out / Opt In item, before any request. */
export function optOutTarget(
	context: OperationContext,
	request: IHttpRequestOptions,
): { phoneNumberId: string; phoneNumber: string; label: string } {
	const body = requestBody(request);
	const given = context.getNodeParameter('optOutLabel', DEFAULT_OPT_OUT_LABEL) as unknown;
	const label = typeof given === 'string' ? given.trim() : '';
	if (!label)
		refuse(
			context,
			'Opt-Out Label is required',
			`The parameter "Opt-Out Label" received ${JSON.stringify(given)}. Give the name of the label that marks opted-out subscribers, e.g. ${DEFAULT_OPT_OUT_LABEL}.`,
		);
	return {
		phoneNumberId: String(body.phone_number_id),
		phoneNumber: String(body.phone_number),
		label,
	};
}

/**
 * Subscriber → Opt Out, one input item: the opt-out label (created when missing), out of every sequence
 * campaign of the number, and, when asked, the conversation blocked. Each step is a request; a failure names
 * the step and what was already done (running/steps.ts).
 */
async function optOut(
	this: OperationContext,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const request = requestData.options as IHttpRequestOptions;
	const { phoneNumberId, phoneNumber, label } = optOutTarget(this, request);
	const removeSequences = this.getNodeParameter('removeFromSequences', true) !== false;
	const block = this.getNodeParameter('blockConversation', false) === true;
	const subscriber = { phone_number_id: phoneNumberId, phone_number: phoneNumber };
	const steps = new Steps(this, request);

	let found = labelNamed(await steps.labels(phoneNumberId), label);
	const created = !found;
	if (!found) {
		await steps.createLabel(phoneNumberId, label);
		steps.record(`label "${label}" created`);
		found = labelNamed(await steps.labels(phoneNumberId), label);
		if (!found)
			await steps.run('find the created label', async () => {
				throw new Error(`the label "${label}" is not in the label list after it was created`);
			});
	}
	const labelId = String(found!.id);
	await steps.call('add the label', '/whatsapp/subscriber/chat/assign-labels', {
		...subscriber,
		label_ids: labelId,
	});
	steps.record(`label "${label}" added to ${phoneNumber}`);

	let sequenceIds: string[] = [];
	if (removeSequences) {
		const sequences = await steps.call('read the sequences', '/whatsapp/subscriber/sequence/list', {
			phone_number_id: phoneNumberId,
		});
		sequenceIds = (listRecords(sequences) ?? [])
			.map((sequence) => text(sequence.id))
			.filter((id): id is string => id !== undefined);
		if (sequenceIds.length) {
			await steps.call('remove from the sequences', '/whatsapp/subscriber/chat/remove-sequence', {
				...subscriber,
				sequence_ids: sequenceIds.join(','),
			});
			steps.record(`removed from sequences ${sequenceIds.join(', ')}`);
		}
	}
	if (block) {
		await steps.call('block the conversation', '/whatsapp/subscriber/chat/mark-conversation', {
			...subscriber,
			action: 'blocked',
		});
		steps.record('conversation blocked');
	}
	const json: IDataObject = {
		phone_number: phoneNumber,
		opted_out: true,
		label: { id: found!.id, name: text(found!.label_name) ?? label },
		label_created: created,
		removed_from_sequences: sequenceIds,
		blocked: block,
		done: steps.done,
	};
	return [{ json, pairedItem: { item: this.getItemIndex() } }];
}

export const optOutOperation: OperationDescription = {
	kind: 'write',
	execute: optOut,
	toolDescription:
		'Opt the subscriber out of messages: adds the opt-out label and removes them from every follow-up sequence. Use it when the customer asks to stop receiving messages (STOP, unsubscribe, "do not message me"). Then send no further marketing; one short confirmation that they were unsubscribed is the most to send.',
	option: {
		name: 'Opt Out',
		value: 'optOut',
		action: 'Opt a subscriber out of messages',
		description:
			'Mark a subscriber as opted out: the opt-out label, out of every sequence, and the conversation blocked if asked',
		routing: {
			request: {},
			send: { preSend: [validateBody(() => z.object(subscriberKeys))] },
		},
	},
	fields: [
		whatsAppNumber(),
		subscriberLocator(),
		optOutLabelField,
		{
			displayName: 'Remove From Sequences',
			name: 'removeFromSequences',
			type: 'boolean',
			default: true,
			description:
				'Whether to remove the subscriber from every sequence campaign of the WhatsApp number, so no scheduled follow-up reaches them',
		},
		{
			displayName: 'Block Conversation',
			name: 'blockConversation',
			type: 'boolean',
			default: false,
			description:
				'Whether to also mark the conversation as blocked in the inbox (Opt In can unblock it)',
		},
	],
};
