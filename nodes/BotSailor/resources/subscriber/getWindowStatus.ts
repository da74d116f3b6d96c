import type {
	DeclarativeRestApiSettings,
	ICredentialDataDecryptedObject,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../../../shared/http/credential';
import { subscriberKeys, validateBody, z } from '../../../shared/parameters/inputs';
import { platformTimeZone } from '../../../shared/http/platformTime';
import { readWindowStatus } from '../../../shared/whatsapp/sessionWindow';
import { conversationOf } from '../../reading/transcript';
import { whatsAppNumber } from '../common';
import { subscriberLocator } from '../shared/subscriber';
import type { OperationContext, OperationDescription } from '../resource';

/**
 * Subscriber → Get Window Status: whether free-form messages reach the subscriber now (WhatsApp's 24-hour customer
 * service window), read from the conversation's newest rows through the shared reader, stopping at the subscriber's
 * own newest message. Times are read in the credential's Platform Time Zone.
 */
async function readWindow(
	this: OperationContext,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const source = await conversationOf(this, requestData.options as IHttpRequestOptions);
	const credentials = await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	const status = await readWindowStatus(source, platformTimeZone(this.getNode(), credentials));
	return [
		{
			json: { phone_number: source.chatId, ...status },
			pairedItem: { item: this.getItemIndex() },
		},
	];
}

export const getWindowStatusOperation: OperationDescription = {
	kind: 'read',
	execute: readWindow,
	toolDescription:
		"Check whether the subscriber's 24-hour window is open: WhatsApp lets free text, buttons and media reach them only within 24 hours of their own last message; outside it only a template does. Returns window_open, last_incoming_at, window_closes_at and seconds_left; window_open is null (with a reason) when the platform's times cannot tell, then send and use a template if refused. Use it before writing to someone who may not have written recently.",
	option: {
		name: 'Get Window Status',
		value: 'getWindowStatus',
		action: 'Get the 24-hour window status of a subscriber',
		description:
			'Whether free text, buttons and media reach the subscriber now: the 24-hour window after their last message',
		routing: {
			request: { url: '/whatsapp/get/conversation' },
			send: { preSend: [validateBody(() => z.object(subscriberKeys))] },
		},
	},
	fields: [whatsAppNumber(), subscriberLocator()],
};
