import { withWaitForDelivery } from '../../sending/deliveryWait';
import type { INodeProperties } from 'n8n-workflow';
import { sendNumber, sendRecipient } from '../common';
import {
	checkFields,
	inputs,
	onFirstUse,
	subscriberKeys,
	z,
} from '../../../shared/parameters/inputs';
import { type SendDefinition } from '../../sending/sendDefinition';
import type { OperationDescription } from '../resource';
import { withReplyGuards } from '../../sending/replyGuards';
import { windowChoiceOf, withWindowFields } from './outsideWindow';
import { optOutLabelOf, withSkipOptedOut } from '../../sending/skipOptedOut';

const fields: INodeProperties[] = [
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		description: 'The text to send',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: withReplyGuards([]),
	},
];

const schema = onFirstUse(() =>
	z.object({
		...subscriberKeys,
		message: inputs.required.describe('Message'),
	}),
);

/** Message → Send Text: free text, inside the 24-hour session window. */
export const sendText: SendDefinition = {
	resource: 'message',
	operation: 'sendText',
	url: '/whatsapp/send',
	session: { sentAs: 'text', choice: windowChoiceOf },
	optOutLabel: optOutLabelOf,
	async build(item) {
		return checkFields(item, schema(), {
			phone_number_id: item.param('phoneNumberId', undefined, { extractValue: true }),
			phone_number: item.param('phoneNumber', undefined, { extractValue: true }),
			message: item.param('message'),
		});
	},
};

export const sendTextOperation: OperationDescription = {
	kind: 'send',
	send: sendText,
	toolDescription:
		'Send a free-text WhatsApp message to one subscriber. WhatsApp delivers free text only inside the 24-hour window after the subscriber last wrote to this number; outside it the platform refuses, and Send Template is the way to reach them. Each call sends one message; do not call it again for the same message after a failure that says it may have been delivered.',
	option: {
		name: 'Send Text',
		value: 'sendText',
		action: 'Send a text message',
		description:
			'Send free text. It only reaches a subscriber inside the 24-hour session window after their last message; otherwise use Send Template.',
	},
	fields: withWaitForDelivery(
		withWindowFields(withSkipOptedOut([sendNumber(), sendRecipient(), ...fields])),
	),
};
