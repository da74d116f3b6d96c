import type {
	DeclarativeRestApiSettings,
	IBinaryKeyData,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodePropertyRouting,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE, sendsInFlight } from '../../shared/credential';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { deliver } from './delivery';
import { fingerprintOf, sendRecordOf } from './sendRecord';
import { unwrap } from './output';
import {
	apiToken,
	FORM_CONTENT_TYPE,
	reportedFailure,
	sendRequest,
	withDeadline,
} from '../../shared/transport';
import { checkWhatsAppLimits } from '../../shared/whatsAppLimits';
import { CONVERSATION_PAGE_SIZE } from '../../shared/conversation';
import { platformTimeZone } from '../../shared/platformTime';
import { readWindowStatus, type WindowStatus } from '../../shared/sessionWindow';
import { sendInWindow, type SessionKind, type WindowChoice } from './windowSend';
import { hasOptOutLabel } from './optOut';
import { listRecords } from '../../shared/envelope';

/**
 * One definition per send (Send Text, Send Template, Send Buttons, Send Media, Template → Send
 * Broadcast, Bot Flow → Trigger): what it sends and how. Two drivers run it:
 * - in a workflow, the bulk path (bulkSend.ts, the node's `customOperations`): every item checked
 *   before anything is sent, bounded concurrency, stop at the first failure, Retry On Fail safe;
 * - as an AI Agent tool under agents that call the node's `execute` (n8n's declarative engine,
 *   RoutingNode), `sendRouting` below: the same build, the same delivery policy, the same output.
 */
export interface SendDefinition {
	resource: string;
	operation: string;
	/** The endpoint under /api/v1. */
	url: string;
	/** The form fields to send, validated: a bad input throws a NodeOperationError naming the field. Sends nothing. */
	build(item: SendItem): Promise<IDataObject>;
	/** Requests the send needs first (Send Media's upload), run in the item's own turn; returns the fields to send. */
	beforeSend?(item: SendItem, fields: IDataObject): Promise<IDataObject>;
	/** A free-form (session) message: what it is in `sent_as`, and the item's Outside the 24-Hour Window choice. */
	session?: { sentAs: SessionKind; choice(item: SendItem): WindowChoice };
	/** A send to one subscriber with Skip Opted-Out Subscribers: the opt-out label of the item, if it skips. */
	optOutLabel?(item: SendItem): string | undefined;
}

/** One item, checked before anything is sent: the fields, the window choice, and their fingerprint (sendRecord.ts). */
export interface PreparedSend {
	fields: IDataObject;
	choice: WindowChoice;
	/** The opt-out label whose subscribers get nothing (Skip Opted-Out Subscribers). */
	optOutLabel?: string;
	fingerprint: string;
}

/** Builds and checks one item (a bad input throws, naming the field); sends nothing. */
export async function prepareSend(
	definition: SendDefinition,
	item: SendItem,
): Promise<PreparedSend> {
	const fields = checkWhatsAppLimits(item, definition.url, await definition.build(item));
	const choice: WindowChoice = definition.session?.choice(item) ?? { action: 'fail' };
	const optOutLabel = definition.optOutLabel?.(item);
	const files = Object.values(item.binaries()).map(({ id, fileName, mimeType, fileSize }) => [
		id,
		fileName,
		mimeType,
		fileSize,
	]);
	return {
		fields,
		choice,
		optOutLabel,
		fingerprint: fingerprintOf(definition.url, fields, [files, choice, optOutLabel ?? null]),
	};
}

/**
 * Sends one prepared item: its own steps first (beforeSend), then the send and, for a free-form message, its window
 * choice (windowSend.ts). `deliverTo(url, fields)` is the driver's request under the delivery policy, answering the
 * output records (each with the recipient).
 */
export async function performSend(
	definition: SendDefinition,
	item: SendItem,
	prepared: PreparedSend,
	deliverTo: (url: string, fields: IDataObject) => Promise<IDataObject[]>,
): Promise<IDataObject[]> {
	const sendFree = async () => {
		const fields = definition.beforeSend
			? await definition.beforeSend(item, prepared.fields)
			: prepared.fields;
		return await deliverTo(definition.url, fields);
	};
	const { phone_number_id, phone_number } = prepared.fields;
	if (prepared.optOutLabel && (await isOptedOut(item, prepared.fields, prepared.optOutLabel)))
		return [
			{
				skipped: true,
				reason: `Opted out: the subscriber carries the label "${prepared.optOutLabel}"`,
				phone_number: String(phone_number ?? ''),
			},
		];
	if (!definition.session) return await sendFree();
	return await sendInWindow(definition.session.sentAs, prepared.choice, phone_number, {
		sendFree,
		sendTemplate: async (fields) => await deliverTo(TEMPLATE_SEND_URL, fields),
		readWindow: async () => await windowOf(item, String(phone_number_id), String(phone_number)),
	});
}

/** Whether the item's subscriber carries the opt-out label (Subscriber → Get); a number that is no subscriber yet does not. */
async function isOptedOut(item: SendItem, fields: IDataObject, label: string): Promise<boolean> {
	let failure: unknown;
	try {
		const envelope = await item.request({
			method: 'POST',
			url: '/whatsapp/subscriber/get',
			headers: { 'Content-Type': FORM_CONTENT_TYPE, Accept: 'application/json' },
			body: { phone_number_id: fields.phone_number_id, phone_number: fields.phone_number },
		});
		// A list of one (spec: Subscriber get), or the record itself on some deployments (listRecords).
		return hasOptOutLabel(listRecords(envelope)?.[0] ?? {}, label);
	} catch (error) {
		failure = error;
	}
	// The platform's answer for a number it does not know (Subscriber get); anything else fails the item.
	if (failure instanceof NodeApiError && /subscriber not found/i.test(failure.message))
		return false;
	throw failure;
}

/** Where a template goes (Send Template's endpoint), for the free-form sends' fallback. */
const TEMPLATE_SEND_URL = '/whatsapp/send/template';

/** The subscriber's 24-hour window, read from their conversation (Check Window First). */
async function windowOf(
	item: SendItem,
	phoneNumberId: string,
	phoneNumber: string,
): Promise<WindowStatus> {
	const credentials = await item.credentials();
	return await readWindowStatus(
		{
			node: item.getNode(),
			chatId: phoneNumber,
			earlierForm: credentials.apiForm === 'earlier',
			fetch: async (page) =>
				await item.request({
					method: 'POST',
					url: '/whatsapp/get/conversation',
					headers: { 'Content-Type': FORM_CONTENT_TYPE, Accept: 'application/json' },
					body: {
						phone_number_id: phoneNumberId,
						phone_number: phoneNumber,
						...(page === undefined ? {} : { limit: CONVERSATION_PAGE_SIZE, offset: page }),
					},
				}),
		},
		platformTimeZone(item.getNode(), credentials),
		{ stopWhenClosed: true },
	);
}

/** What a send definition reads of one input item, whichever driver runs it. */
export interface SendItem {
	getNode(): INode;
	getItemIndex(): number;
	/** A node parameter for this item. */
	param(
		name: string,
		fallback?: unknown,
		options?: { extractValue?: boolean },
	): IDataObject[string];
	/** The item's binary properties. */
	binaries(): IBinaryKeyData;
	/** The bytes of one of the item's binary properties. */
	binaryBuffer(propertyName: string): Promise<Buffer>;
	/** The bytes of a stored binary (one with an id: filesystem, S3 or database mode), as a stream. */
	binaryStream(binaryDataId: string): Promise<AsyncIterable<Uint8Array>>;
	/** Size, name and MIME type of a stored binary, read without reading the file. */
	binaryMetadata(
		binaryDataId: string,
	): Promise<{ fileName?: string; mimeType?: string; fileSize: number }>;
	/** A request to the platform with the credential (a step before the send, such as an upload); returns the envelope. */
	request(options: IHttpRequestOptions): Promise<IDataObject>;
	/** The credential's fields. */
	credentials(): Promise<ICredentialDataDecryptedObject>;
}

/** The item as n8n's declarative engine presents it (one context per item). */
export function sendItemOf(context: IExecuteSingleFunctions): SendItem {
	return {
		getNode: () => context.getNode(),
		getItemIndex: () => context.getItemIndex(),
		param: (name, fallback, options) =>
			context.getNodeParameter(name, fallback, options) as IDataObject[string],
		binaries: () => context.getInputData().binary ?? {},
		binaryBuffer: async (propertyName) => await context.helpers.getBinaryDataBuffer(propertyName),
		binaryStream: async (binaryDataId) => await context.helpers.getBinaryStream(binaryDataId),
		binaryMetadata: async (binaryDataId) => await context.helpers.getBinaryMetadata(binaryDataId),
		request: async (options) => await sendRequest.call(context, options, context.getItemIndex()),
		credentials: async () =>
			await context.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE),
	};
}

/** A send's output record with the number it went to, which the platform's confirmation does not repeat. */
export function withRecipient(record: IDataObject, fields: IDataObject): IDataObject {
	return fields.phone_number === undefined
		? record
		: { ...record, phone_number: fields.phone_number };
}

/** Any failure of an item as n8n's error type, pointing at the item. */
export function asNodeError(
	node: INode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	const nodeError =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(node, error as Error, { itemIndex });
	nodeError.context = { ...nodeError.context, itemIndex };
	return nodeError;
}

/**
 * Whether a failure is answered as data rather than thrown. Only for a tool whose caller would hide a
 * thrown error: AI Agent 1.x/2.x run tools through LangChain's AgentExecutor, which turns any thrown
 * error into an empty string for the model, so the model gets `[{"error": "<the API's text>"}]` instead
 * (what AI Agent 3.x shows for a thrown error). The MCP Server Trigger passes a thrown error on in full
 * (`isError: true`, and n8n records the call as failed), so there the failure is thrown. Tools called
 * through `execute` see their caller's execute data (`getExecuteData().node`, public API since 1.x).
 */
export function answersAsTool(context: {
	getNode(): INode;
	getExecuteData?(): { node?: INode } | undefined;
}): boolean {
	if (!context.getNode().type.endsWith('Tool')) return false;
	const caller = context.getExecuteData?.()?.node?.type ?? '';
	return !caller.endsWith('.mcpTrigger');
}

/** The output item of a failed item under Continue On Fail: its message as JSON, the error, paired to its input. */
export function errorItem(
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	return { json: { error: error.message }, error, pairedItem: { item: itemIndex } };
}

/**
 * The declarative routing of a send. RoutingNode calls an operation's `pagination` function in
 * place of its request, so the send runs there: the definition's fields replace the body the
 * parameters built, and the request goes out under the delivery policy. Bad input and API failures
 * end as in the bulk path (under Continue On Fail, the same error item).
 */
export function sendRouting(definition: SendDefinition): INodePropertyRouting {
	async function send(
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const item = sendItemOf(this);
		const itemIndex = this.getItemIndex();
		try {
			const prepared = await prepareSend(definition, item);
			// What an earlier attempt of this node run (Retry On Fail) did with the item is output again, not sent again.
			const record = sendRecordOf(this);
			const earlier = record.get(itemIndex, prepared.fingerprint);
			if (earlier && 'unknown' in earlier) throw earlier.unknown;
			if (earlier)
				return earlier.records.map((json) => ({ json, pairedItem: { item: itemIndex } }));
			const concurrency = sendsInFlight(await item.credentials());
			const deliverTo = async (url: string, fields: IDataObject) => {
				const items = await deliver(
					this.getNode(),
					itemIndex,
					async () => {
						// Options → Timeout as a deadline for the whole request (transport.ts withDeadline).
						const deadline = withDeadline(this, { ...requestData.options, url, body: fields });
						try {
							return await this.makeRoutingRequest({ ...requestData, options: deadline.options });
						} catch (error) {
							throw reportedFailure(this, error, await apiToken(this), itemIndex, deadline);
						}
					},
					{
						options: { concurrency },
						cancelled: () => this.getExecutionCancelSignal()?.aborted === true,
					},
				);
				return items.map((entry) => withRecipient(entry.json, fields));
			};
			let records: IDataObject[];
			try {
				records = await performSend(definition, item, prepared, deliverTo);
			} catch (error) {
				if (error instanceof NodeApiError && error.context?.outcome === 'unknown')
					record.save(itemIndex, { fingerprint: prepared.fingerprint, unknown: error });
				throw asNodeError(this.getNode(), error, itemIndex);
			}
			record.save(itemIndex, { fingerprint: prepared.fingerprint, records });
			return records.map((json) => ({ json, pairedItem: { item: itemIndex } }));
		} catch (error) {
			const failure = asNodeError(this.getNode(), error, itemIndex);
			if (!this.continueOnFail() && !answersAsTool(this)) throw failure;
			return [errorItem(failure, itemIndex)];
		}
	}
	return {
		request: { url: definition.url },
		operations: { pagination: send },
		output: { postReceive: [unwrap('confirmation')] },
	};
}
