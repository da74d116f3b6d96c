import type {
	DeclarativeRestApiSettings,
	IBinaryData,
	IDataObject,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyRouting,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { recipient, whatsAppNumber } from '../common';
import type { OperationContext, OperationDescription } from '../resource';
import {
	conversationSource,
	findInConversation,
	isMessage,
} from '../../../shared/conversation/conversation';
import { innerMessage } from '../../../shared/conversation/messageContent';
import { inputs } from '../../../shared/parameters/inputs';
import { decodeJsonFields, jsonFromText } from '../../../shared/parameters/jsonStrings';
import { FORM_CONTENT_TYPE, sendRequest, usesEarlierForm } from '../../../shared/http/transport';
import { limiterFor } from '../../sending/limiter';
import { asNodeError, errorItem } from '../../running/itemResult';
import {
	downloadMedia,
	findMedia,
	MEDIA_MESSAGE_TYPES,
} from '../../../shared/whatsapp/mediaDownload';
import { isRecord, text } from '../../../shared/parameters/values';

const showBy = (source: string) => ({ show: { messageSource: [source] } });

/** The message's `message_content`, decoded. */
function contentOf(record: IDataObject): unknown {
	const content = record.message_content;
	return typeof content === 'string' ? jsonFromText(content, content) : content;
}

/** The conversation endpoint with the node's request options (Options → Timeout, proxy, certificates), as the routing would send it. */
type ConversationReader = (fields: IDataObject) => Promise<IDataObject>;

function conversationReader(
	context: OperationContext,
	request: IHttpRequestOptions,
): ConversationReader {
	const itemIndex = context.getItemIndex();
	return async (fields) =>
		await sendRequest.call(
			context,
			{
				method: 'POST',
				url: '/whatsapp/get/conversation',
				headers: { 'Content-Type': FORM_CONTENT_TYPE, Accept: 'application/json' },
				body: fields,
				timeout: Number(request.timeout) || 60_000,
				...(request.proxy ? { proxy: request.proxy } : {}),
				...(request.skipSslCertificateValidation ? { skipSslCertificateValidation: true } : {}),
			},
			itemIndex,
		);
}

/** A message of a conversation by id or wa_message_id, newest first in either page order (shared/conversation/conversation.ts). */
async function findMessage(
	context: OperationContext,
	read: ConversationReader,
	phoneNumberId: string,
	phoneNumber: string,
	messageId: string,
): Promise<IDataObject | undefined> {
	return await findInConversation(
		conversationSource(
			context.getNode(),
			{ phone_number_id: phoneNumberId, phone_number: phoneNumber },
			await usesEarlierForm(context),
			read,
		),
		isMessage(messageId),
		{ maxPages: MAX_PAGES },
	);
}

/** At most this many pages of 50 are searched for a message by id. */
const MAX_PAGES = 100;

/** The message a run item is about: the input item's record, or the one found by id (also for an input item without message_content). */
async function messageRecord(
	context: OperationContext,
	read: ConversationReader,
): Promise<{ record: IDataObject; fromInput: boolean }> {
	const node = context.getNode();
	const itemIndex = context.getItemIndex();
	const lookUp = async (phoneNumberId: string, phoneNumber: string, messageId: string) => {
		const found = await findMessage(context, read, phoneNumberId, phoneNumber, messageId);
		if (!found) {
			throw new NodeOperationError(
				node,
				`Message ${messageId} was not found in the conversation with ${phoneNumber}`,
				{
					description: `Searched the newest ${MAX_PAGES * 50} messages of the conversation on WhatsApp number ${phoneNumberId}. Use the message's id or wa_message_id.`,
					itemIndex,
				},
			);
		}
		return decodeJsonFields(found);
	};
	if (context.getNodeParameter('messageSource', 'input') === 'id') {
		const phoneNumberId = String(
			context.getNodeParameter('phoneNumberId', '', { extractValue: true }) ?? '',
		).trim();
		const phone = inputs.phoneNumber.safeParse(
			String(context.getNodeParameter('phoneNumber', '', { extractValue: true }) ?? ''),
		);
		const messageId = String(context.getNodeParameter('messageId', '') ?? '').trim();
		if (!phoneNumberId)
			throw new NodeOperationError(node, 'WhatsApp Number is required', { itemIndex });
		if (!phone.success)
			throw new NodeOperationError(node, `Subscriber ${phone.error.issues[0].message}`, {
				itemIndex,
			});
		if (!messageId)
			throw new NodeOperationError(node, 'Message ID is required', {
				description: "Set it to the message's id or wa_message_id.",
				itemIndex,
			});
		return { record: await lookUp(phoneNumberId, phone.data, messageId), fromInput: false };
	}
	const json = context.getInputData().json ?? {};
	if (json.message_content !== undefined && json.message_content !== null)
		return { record: json, fromInput: true };
	// An item with the message's ids but no content (e.g. from a webhook): the content is read from the conversation.
	const messageId = text(json.wa_message_id) ?? text(json.id);
	const phoneNumberId = text(json.phone_number_id);
	const phoneNumber =
		text(json.phone_number) ??
		text(json.chat_id) ??
		text(json.whatsapp_bot_subscriber_subscriber_id);
	if (messageId && phoneNumberId && phoneNumber)
		return {
			record: {
				...json,
				message_content: (await lookUp(phoneNumberId, phoneNumber, messageId)).message_content,
			},
			fromInput: true,
		};
	throw new NodeOperationError(node, 'The input item is not a message: it has no message_content', {
		description:
			'Connect BotSailor Trigger (New Message) or Message → Get Many, or set Message to "By ID" and give the WhatsApp number, the subscriber and the message ID.',
		itemIndex,
	});
}

const DOWNLOADS_AT_ONCE = 4;

/** Message → Download Media, one input item (its `execute`: run in place of the request, resource.ts). */
async function downloadMessageMedia(
	this: OperationContext,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const itemIndex = this.getItemIndex();
	const input = this.getInputData();
	try {
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const { record } = await messageRecord(
			this,
			conversationReader(this, requestData.options as IHttpRequestOptions),
		);
		const media = findMedia(contentOf(record));
		if (!media) {
			if (options.passThrough === true)
				return [
					{
						json: record,
						...(input.binary ? { binary: input.binary } : {}),
						pairedItem: { item: itemIndex },
					},
				];
			const content = innerMessage(contentOf(record));
			const type = isRecord(content)
				? text(content.type)
				: typeof content === 'string'
					? 'text'
					: undefined;
			throw new NodeOperationError(
				this.getNode(),
				`The message has no media${type ? ` (it is a ${type} message)` : ''}`,
				{
					description: `Download Media reads ${MEDIA_MESSAGE_TYPES.join(', ')} messages. To let other messages through unchanged, turn on Options → Pass Through Messages Without Media.`,
					itemIndex,
				},
			);
		}
		const property = String(this.getNodeParameter('binaryPropertyName', 'data')).trim() || 'data';
		const reference = text(record.wa_message_id) ?? text(record.id) ?? media.id ?? 'message';
		// n8n's declarative engine starts every item at once: a few downloads at a time.
		const limiter = limiterFor(this.getNode(), DOWNLOADS_AT_ONCE);
		await limiter.acquire();
		let binary: IBinaryData;
		try {
			binary = await downloadMedia(this, media, {
				timeout:
					Number(options.timeout) > 0
						? Number(options.timeout)
						: Number(requestData.options.timeout) || 60_000,
				idUrl: text(options.mediaIdUrl),
				fallbackName: `${media.type}-${reference}`.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120),
				itemIndex,
				skipSslCertificateValidation: requestData.options.skipSslCertificateValidation === true,
				proxy: (requestData.options as IHttpRequestOptions).proxy,
			});
		} finally {
			limiter.release();
		}
		return [
			{
				json: record,
				binary: { ...(input.binary ?? {}), [property]: binary },
				pairedItem: { item: itemIndex },
			},
		];
	} catch (error) {
		const failure = asNodeError(this.getNode(), error, itemIndex);
		if (!this.continueOnFail()) throw failure;
		return [errorItem(failure, itemIndex)];
	}
}

/** The operation's request: its `execute` (downloadMessageMedia) runs in place of it, once per item. */
const downloadMediaRouting: INodePropertyRouting = {
	request: { url: '/whatsapp/get/conversation' },
};

const downloadMediaFields: INodeProperties[] = [
	{
		displayName: 'Message',
		name: 'messageSource',
		type: 'options',
		options: [
			{
				name: 'From Input Item',
				value: 'input',
				description:
					'The message record in the input item, as BotSailor Trigger (New Message) or Message → Get Many output it',
			},
			{ name: 'By ID', value: 'id', description: 'A message of a conversation, by its ID' },
		],
		default: 'input',
	},
	{ ...whatsAppNumber(), displayOptions: showBy('id'), routing: undefined },
	{ ...recipient(), displayOptions: showBy('id'), routing: undefined },
	{
		displayName: 'Message ID',
		name: 'messageId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. wamid.HBgLMTU1NTAxMDAwMDAVAgARGBI',
		description: "The message's ID or wa_message_id, as Message → Get Many outputs them",
		displayOptions: showBy('id'),
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the output binary field to put the file in',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Media URL for IDs',
				name: 'mediaIdUrl',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://your-platform.example/media/{ID}',
				description:
					'For messages that carry only a WhatsApp media ID (no link): an address that serves the file by ID, with {ID} where the ID goes',
			},
			{
				displayName: 'Pass Through Messages Without Media',
				name: 'passThrough',
				type: 'boolean',
				default: false,
				description:
					'Whether to output a message without media unchanged (no binary) instead of failing its item',
			},
			{
				displayName: 'Timeout',
				name: 'timeout',
				type: 'number',
				default: 60000,
				typeOptions: { minValue: 1 },
				description: 'Time in ms to wait for the server holding the file before the download fails',
			},
		],
	},
];

export const downloadMediaOperation: OperationDescription = {
	kind: 'read',
	execute: downloadMessageMedia,
	toolDescription:
		'Download the image, audio, video or document of a received message as a file. Use it only when the file itself is needed.',
	returnsCustomerText: true,
	option: {
		name: 'Download Media',
		value: 'downloadMedia',
		action: 'Download the media of a message',
		description:
			'Download the image, video, audio, voice note, document or sticker of a message, as binary data',
		routing: downloadMediaRouting,
	},
	fields: downloadMediaFields,
};
