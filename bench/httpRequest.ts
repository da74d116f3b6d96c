/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the bench is a command-line script in plain Node.js, not node code */
/** n8n's own HTTP Request node (from the pinned n8n in .cache), configured to call the same endpoints. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { NodeHelpers, type INodeType, type IVersionedNodeType } from 'n8n-workflow';
import { ROOT } from './lib';

export const HTTP_REQUEST_VERSION = 4.2;
const NODES_BASE = join(
	ROOT,
	'.cache',
	'n8n-2.41.1',
	'node_modules',
	'n8n-nodes-base',
	'dist',
	'nodes',
	'HttpRequest',
	'HttpRequest.node.js',
);

/** The HTTP Request node type at the version a new workflow gets, or undefined when n8n is not provisioned. */
export function httpRequestNode(): INodeType | undefined {
	if (!existsSync(NODES_BASE)) return undefined;
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded from the pinned n8n at run time
	const { HttpRequest } = require(NODES_BASE) as { HttpRequest: new () => IVersionedNodeType };
	return NodeHelpers.getVersionedNodeType(new HttpRequest(), HTTP_REQUEST_VERSION) as INodeType;
}

const field = (name: string, value: string) => ({ name, value });

/** POST /api/v1/whatsapp/send as a form: phone_number_id, phone_number, message, apiToken. */
export function httpSendParameters(baseUrl: string, token: string, phoneNumberId: string) {
	return {
		method: 'POST',
		url: `${baseUrl}/api/v1/whatsapp/send`,
		sendBody: true,
		contentType: 'form-urlencoded',
		bodyParameters: {
			parameters: [
				field('phone_number_id', phoneNumberId),
				field('phone_number', '={{ $json.phone }}'),
				field('message', '={{ $json.text }}'),
				field('apiToken', token),
			],
		},
		options: {},
	};
}

/** The subscriber list with HTTP Request's own pagination: offset = page number, stop when nextOffset is absent. */
export function httpListParameters(baseUrl: string, token: string, phoneNumberId: string) {
	return {
		method: 'POST',
		url: `${baseUrl}/api/v1/whatsapp/subscriber/list`,
		sendBody: true,
		contentType: 'form-urlencoded',
		bodyParameters: {
			parameters: [
				field('phone_number_id', phoneNumberId),
				field('limit', '100'),
				field('apiToken', token),
			],
		},
		options: {
			pagination: {
				pagination: {
					paginationMode: 'updateAParameterInEachRequest',
					parameters: {
						parameters: [{ type: 'body', name: 'offset', value: '={{ $pageCount + 1 }}' }],
					},
					paginationCompleteWhen: 'other',
					completeExpression: '={{ $response.body.nextOffset === undefined }}',
					limitPagesFetched: false,
				},
			},
		},
	};
}
