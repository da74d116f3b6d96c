import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';
import { subscriberKeys, validateBody, z } from '../../../shared/parameters/inputs';
import { text } from '../../../shared/parameters/values';
import { labelNamed, Steps } from '../../running/steps';
import { whatsAppNumber } from '../common';
import type { OperationContext, OperationDescription } from '../resource';
import { subscriberLocator } from '../shared/subscriber';
import { optOutLabelField, optOutTarget } from './optOut';

/**
 * Subscriber → Opt In, one input item: the reverse of Opt Out. The opt-out label removed (nothing to do when the
 * account has no such label) and, when asked, the conversation unblocked. Sequences are not re-added: which
 * ones the subscriber should get again is the workflow's choice (Subscriber → Add to Sequences).
 */
async function optIn(
	this: OperationContext,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const request = requestData.options as IHttpRequestOptions;
	const { phoneNumberId, phoneNumber, label } = optOutTarget(this, request);
	const unblock = this.getNodeParameter('unblockConversation', false) === true;
	const subscriber = { phone_number_id: phoneNumberId, phone_number: phoneNumber };
	const steps = new Steps(this, request);

	const found = labelNamed(await steps.labels(phoneNumberId), label);
	if (found) {
		await steps.call('remove the label', '/whatsapp/subscriber/chat/remove-labels', {
			...subscriber,
			label_ids: String(found.id),
		});
		steps.record(`label "${label}" removed from ${phoneNumber}`);
	}
	if (unblock) {
		await steps.call('unblock the conversation', '/whatsapp/subscriber/chat/mark-conversation', {
			...subscriber,
			action: 'unblocked',
		});
		steps.record('conversation unblocked');
	}
	const json: IDataObject = {
		phone_number: phoneNumber,
		opted_out: false,
		label: found ? { id: found.id, name: text(found.label_name) ?? label } : null,
		label_removed: Boolean(found),
		unblocked: unblock,
		done: steps.done,
	};
	return [{ json, pairedItem: { item: this.getItemIndex() } }];
}

export const optInOperation: OperationDescription = {
	kind: 'write',
	execute: optIn,
	toolDescription:
		'Opt a subscriber back in after an earlier opt-out (removes the opt-out label). Use it only when the customer clearly asks to receive messages again (START, subscribe).',
	option: {
		name: 'Opt In',
		value: 'optIn',
		action: 'Opt a subscriber back in to messages',
		description: 'Undo an opt-out: remove the opt-out label, and unblock the conversation if asked',
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
			displayName: 'Unblock Conversation',
			name: 'unblockConversation',
			type: 'boolean',
			default: false,
			description:
				'Whether to also unblock the conversation in the inbox (after Opt Out blocked it)',
		},
	],
};
