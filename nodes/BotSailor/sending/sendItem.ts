/** What a send reads of one input item, whichever driver runs it (bulkSend.ts, declarativeSend.ts), and the uploads (upload.ts) with it. */
import type {
	IBinaryKeyData,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INode,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../../shared/http/credential';
import { sendRequest } from '../../shared/http/transport';
import { requestDefaults, type RequestOptionsParameter } from '../running/requestOptions';

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
	/** The input item's JSON (what the trigger gave), where the driver has it. */
	input?(): IDataObject;
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
		// The operation's Options (timeout, proxy, certificates) for the requests the send makes itself.
		request: async (options) =>
			await sendRequest.call(
				context,
				{
					...requestDefaults(
						context.getNode(),
						context.getNodeParameter('requestOptions', {}) as RequestOptionsParameter,
					),
					...options,
				},
				context.getItemIndex(),
			),
		credentials: async () =>
			await context.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE),
		input: () => context.getInputData().json ?? {},
	};
}
