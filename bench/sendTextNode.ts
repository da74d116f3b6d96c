/**
 * Send Text node variants for the bench and the delivery tests: the plain declarative operation
 * ("before") and the same operation with the shared delivery hook ("after"). Uses the real
 * Message → Send Text when the node has it, else a minimal copy of it (same request, same output).
 */
import { DirectoryLoader } from 'n8n-core';
import type { INodeProperties, INodePropertyOptions, INodeType, INodeTypeDescription } from 'n8n-workflow';
// The explicit .ts: under tsx, `BotSailor.node` would resolve to the codex file BotSailor.node.json.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { BotSailor } = require('../nodes/BotSailor/BotSailor.node.ts') as typeof import('../nodes/BotSailor/BotSailor.node');
import { whatsAppNumber } from '../nodes/BotSailor/resources/common';
import { deliver, type DeliveryOptions } from '../nodes/BotSailor/shared/delivery';
import { unwrap } from '../nodes/BotSailor/shared/output';

const fallbackProperties: INodeProperties[] = [
	{ displayName: 'Resource', name: 'resource', type: 'options', noDataExpression: true, options: [{ name: 'Message', value: 'message' }], default: 'message' },
	{
		displayName: 'Operation', name: 'operation', type: 'options', noDataExpression: true, default: 'sendText',
		displayOptions: { show: { resource: ['message'] } },
		options: [{ name: 'Send Text', value: 'sendText', action: 'Send a text message', routing: { request: { url: '/whatsapp/send' }, output: { postReceive: [unwrap('confirmation')] } } }],
	},
	whatsAppNumber('message', ['sendText']),
	{ displayName: 'Phone Number', name: 'phoneNumber', type: 'string', default: '', displayOptions: { show: { resource: ['message'], operation: ['sendText'] } }, routing: { send: { type: 'body', property: 'phone_number' } } },
	{ displayName: 'Message', name: 'message', type: 'string', default: '', displayOptions: { show: { resource: ['message'], operation: ['sendText'] } }, routing: { send: { type: 'body', property: 'message' } } },
];

function isMessageOperation(property: INodeProperties): boolean {
	return property.name === 'operation' && (property.displayOptions?.show?.resource ?? []).includes('message');
}

/** Whether the real node already has Message → Send Text. */
export function hasRealSendText(): boolean {
	return new BotSailor().description.properties.some(
		(property) => isMessageOperation(property) && (property.options as INodePropertyOptions[]).some((option) => option.value === 'sendText'),
	);
}

/** The Send Text operation option with the delivery hook added (what the integration adds to each send). */
function withDelivery(option: INodePropertyOptions, delivery: DeliveryOptions): INodePropertyOptions {
	const routing = option.routing ?? {};
	return {
		...option,
		routing: { ...routing, send: { ...routing.send, paginate: true }, operations: { ...routing.operations, pagination: deliver(delivery) } },
	};
}

/** The Send Text option as plain declarative n8n would send it: every item at once, no retry (the "before"). */
function withoutDelivery(option: INodePropertyOptions): INodePropertyOptions {
	const routing = option.routing ?? {};
	return {
		...option,
		routing: { request: routing.request, send: { preSend: routing.send?.preSend }, output: { postReceive: [unwrap('confirmation')] } },
	};
}

/** A node type whose Send Text is plain declarative (delivery: false) or uses the delivery hook. */
export function sendTextNode(delivery: false | DeliveryOptions): INodeType {
	const real = new BotSailor();
	const base: INodeTypeDescription = real.description;
	const properties = hasRealSendText() ? base.properties : [...fallbackProperties];
	const patched = properties.map((property) => {
		if (!isMessageOperation(property)) return property;
		const patch = (option: INodePropertyOptions) => (delivery ? withDelivery(option, delivery) : withoutDelivery(option));
		const options = (property.options as INodePropertyOptions[]).map((option) => (option.value === 'sendText' ? patch(option) : option));
		return { ...property, options };
	});
	const node = new BotSailor();
	node.description = { ...base, properties: patched };
	// As n8n's loader does for every declarative node: adds Request Options (batching, timeout, proxy).
	DirectoryLoader.applyDeclarativeNodeOptionParameters(node);
	return node;
}

/** Node parameters of Message → Send Text for one workflow (expressions read each item). */
export function sendTextParameters(phoneNumberId: string): Record<string, unknown> {
	return {
		resource: 'message',
		operation: 'sendText',
		phoneNumberId: { __rl: true, mode: 'id', value: phoneNumberId },
		phoneNumber: '={{ $json.phone }}',
		message: '={{ $json.text }}',
	};
}
