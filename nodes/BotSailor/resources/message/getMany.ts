import type {
	DeclarativeRestApiSettings,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';
import {
	conversationRow,
	conversationSource,
	readConversation,
} from '../../../shared/conversation/conversation';
import { subscriberKeys, validateBody, z } from '../../../shared/parameters/inputs';
import { sendRequest, usesEarlierForm } from '../../../shared/http/transport';
import { requestBody } from '../../../shared/parameters/values';
import { decodeJsonOption, recipient, returnAllAndLimit, whatsAppNumber } from '../common';
import { requestedLimit, type OperationContext, type OperationDescription } from '../resource';

/**
 * Get Many reads through the shared conversation reader (shared/conversation/conversation.ts), so its items are
 * newest first whichever order the deployment pages in, and lists sent as JSON text are read as lists.
 */
async function getManyMessages(
	this: OperationContext,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const limit = requestedLimit(this);
	const request = requestData.options as IHttpRequestOptions;
	const body = requestBody(request);
	const itemIndex = this.getItemIndex();
	const rows = await readConversation(
		conversationSource(
			this.getNode(),
			body,
			await usesEarlierForm(this),
			async (fields) => await sendRequest.call(this, { ...request, body: fields }, itemIndex),
		),
		{ limit },
	);
	const decode = this.getNodeParameter('options.decodeJsonFields', true) !== false;
	return rows.map((row) => ({
		json: conversationRow(row, decode),
		pairedItem: { item: itemIndex },
	}));
}

export const messageGetManyOperation: OperationDescription = {
	kind: 'read',
	execute: getManyMessages,
	toolDescription:
		'Read the WhatsApp conversation with one subscriber, newest message first: who wrote what and when. Use it before answering, to see what the subscriber asked.',
	returnsCustomerText: true,
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many messages',
		description: 'Get the conversation with a subscriber, newest first',
		routing: {
			request: { url: '/whatsapp/get/conversation' },
			send: {
				preSend: [
					validateBody(() =>
						z.object({
							...subscriberKeys,
						}),
					),
				],
			},
		},
	},
	fields: [whatsAppNumber(), recipient(), ...returnAllAndLimit(), decodeJsonOption()],
};
