import type { IDataObject } from 'n8n-workflow';
import { canonical } from '../payload/fields';
import type { WebhookEvent } from '../payload/event';
import { conversationStatusChanged } from './conversationStatusChanged';
import { flowData } from './flowData';
import { incomingMessage } from './incomingMessage';
import { messageStatusChanged } from './messageStatusChanged';
import { outgoingMessage } from './outgoingMessage';

/** Every event, alphabetised by name as n8n lists options. */
export const EVENTS: WebhookEvent[] = [
	conversationStatusChanged,
	flowData,
	incomingMessage,
	messageStatusChanged,
	outgoingMessage,
];

/**
 * Which event a flat body is. The order matters: a status report and a conversation change are told
 * by their own markers first; a flow's data has `postbackid`/`user_input_data` but also `user_message`,
 * so it is checked before the incoming message.
 */
const DETECTION_ORDER: WebhookEvent[] = [
	messageStatusChanged,
	conversationStatusChanged,
	flowData,
	incomingMessage,
];

export const ANY_EVENT = 'anyEvent';
export const UNKNOWN_EVENT = 'unknown';

/** A body none of the events recognises (Any Event only): kept whole, keyed on its content. */
export const unknownEvent: WebhookEvent = {
	value: UNKNOWN_EVENT,
	name: 'Unknown',
	description: 'A body of a kind the node does not recognise',
	setup: '',
	properties: [],
	matches: () => true,
	key: (body: IDataObject) => ({ key: `other:${canonical(body)}`, life: 'content' }),
	item: async ({ phoneNumberId }) => ({ phone_number_id: phoneNumberId }),
};

export function eventOf(body: IDataObject): WebhookEvent {
	return DETECTION_ORDER.find((event) => event.matches(body)) ?? unknownEvent;
}
