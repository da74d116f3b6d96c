/**
 * Send Text node variants for the bench and the delivery tests: the plain declarative operation
 * ("before": the node without its customOperations, so n8n's RoutingNode runs the operation's
 * routing and the sends' declarative path) and the real node ("after": the bulk path, optionally
 * with other delivery settings).
 */
import { DirectoryLoader } from 'n8n-core';
import type { INodeType } from 'n8n-workflow';
// The explicit .ts: under tsx, `BotSailor.node` would resolve to the codex file BotSailor.node.json.
/* eslint-disable @typescript-eslint/no-require-imports */
const { BotSailor } =
	require('../nodes/BotSailor/BotSailor.node.ts') as typeof import('../nodes/BotSailor/BotSailor.node');
/* eslint-enable @typescript-eslint/no-require-imports */
import type { DeliveryOptions } from '../nodes/BotSailor/sending/delivery';
import { bulkSends } from '../nodes/BotSailor/sending/bulkSend';
import { SENDS } from '../nodes/BotSailor/resources/sends';

/** The node with its sends on the declarative path only (delivery: false) or on the bulk path with these delivery settings. */
export function sendTextNode(delivery: false | DeliveryOptions): INodeType {
	const node: INodeType = new BotSailor();
	node.description = { ...node.description, properties: [...node.description.properties] };
	node.customOperations = delivery ? bulkSends([...SENDS], delivery) : undefined;
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
