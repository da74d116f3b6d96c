import type {
	DeclarativeRestApiSettings,
	ICredentialDataDecryptedObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../../../shared/credential';
import { CONVERSATION_PAGE_SIZE } from '../../../shared/conversation';
import { validateBody, z } from '../../../shared/inputs';
import { platformTimeZone } from '../../../shared/platformTime';
import { readWindowStatus } from '../../../shared/sessionWindow';
import { sendRequest } from '../../../shared/transport';
import { requestBody } from '../../../shared/values';
import { whatsAppNumber } from '../common';
import { subscriberKeys, subscriberLocator } from './locator';
import type { OperationDescription } from '../resource';

/**
 * Subscriber → Get Window Status: whether free-form messages reach the subscriber now (WhatsApp's 24-hour customer
 * service window), read from the conversation's newest rows through the shared reader, stopping at the subscriber's
 * own newest message. Times are read in the credential's Platform Time Zone.
 */
async function readWindow(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const request = requestData.options as IHttpRequestOptions;
	const body = requestBody(request);
	const itemIndex = this.getItemIndex();
	const credentials = await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	const zone = platformTimeZone(this.getNode(), credentials);
	const status = await readWindowStatus(
		{
			node: this.getNode(),
			chatId: String(body.phone_number ?? ''),
			earlierForm: credentials.apiForm === 'earlier',
			fetch: async (page) =>
				await sendRequest.call(
					this,
					page === undefined
						? request
						: { ...request, body: { ...body, limit: CONVERSATION_PAGE_SIZE, offset: page } },
					itemIndex,
				),
		},
		zone,
	);
	return [
		{
			json: { phone_number: String(body.phone_number ?? ''), ...status },
			pairedItem: { item: itemIndex },
		},
	];
}

export const getWindowStatus: OperationDescription = {
	option: {
		name: 'Get Window Status',
		value: 'getWindowStatus',
		action: 'Get the 24-hour window status of a subscriber',
		description:
			'Whether free text, buttons and media reach the subscriber now: the 24-hour window after their last message',
		routing: {
			request: { url: '/whatsapp/get/conversation' },
			send: { preSend: [validateBody(() => z.object(subscriberKeys))] },
			operations: { pagination: readWindow },
		},
	},
	fields: [whatsAppNumber(), subscriberLocator()],
};
