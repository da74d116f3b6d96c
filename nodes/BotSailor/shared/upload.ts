import type { IBinaryData, IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, PreSendAction } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { sendItemOf, type SendItem } from './sendDefinition';

/** What the platform returns for an uploaded file (spec: "Uploaded media"). */
export interface UploadedMedia {
	media_id: string;
	media_type: string;
	media_name: string;
}

/** The item's binary property, or a clear error naming the missing property and the ones there are. */
export function binaryFile(item: SendItem, propertyName: string): IBinaryData {
	const name = propertyName.trim();
	const binary = item.binaries();
	if (!name || !binary[name]) {
		const available = Object.keys(binary);
		throw new NodeOperationError(item.getNode(), `The input item has no binary property "${name}"`, {
			description: available.length
				? `Binary properties on this item: ${available.join(', ')}. Set "Input Binary Field" to one of them.`
				: 'This item carries no binary data. Add a node that reads or downloads the file before this one.',
			itemIndex: item.getItemIndex(),
		});
	}
	return binary[name];
}

/** The multipart body of upload media: phone_number_id and the file as media_file (the credential adds the token). */
async function mediaFormData(item: SendItem, phoneNumberId: string, propertyName: string): Promise<FormData> {
	const meta = binaryFile(item, propertyName);
	const bytes = await item.binaryBuffer(propertyName.trim());
	const fileName = meta.fileName ?? `${propertyName.trim()}${meta.fileExtension ? `.${meta.fileExtension}` : ''}`;
	const form = new FormData();
	form.append('phone_number_id', phoneNumberId);
	form.append('media_file', new Blob([new Uint8Array(bytes)], { type: meta.mimeType }), fileName);
	return form;
}

/** Request headers without a Content-Type: fetch/axios sets multipart with its boundary from the FormData. */
function withoutContentType(headers: IHttpRequestOptions['headers']): IDataObject {
	return Object.fromEntries(Object.entries(headers ?? {}).filter(([key]) => key.toLowerCase() !== 'content-type'));
}

/**
 * The preSend of Media → Upload: the form body the routing built (phone_number_id) becomes
 * multipart/form-data with the binary property as media_file.
 */
export function multipartUpload(binaryPropertyParameter: string): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const fields = (requestOptions.body ?? {}) as IDataObject;
		const phoneNumberId = String(fields.phone_number_id ?? '').trim();
		if (!phoneNumberId) {
			throw new NodeOperationError(this.getNode(), 'WhatsApp Number is required', { itemIndex: this.getItemIndex() });
		}
		const propertyName = String(this.getNodeParameter(binaryPropertyParameter, 'data'));
		const body = await mediaFormData(sendItemOf(this), phoneNumberId, propertyName);
		return { ...requestOptions, body, headers: withoutContentType(requestOptions.headers) };
	};
}

/** Uploads the item's binary property to a number and returns the media id to send it by (a step of Send Media). */
export async function uploadBinary(item: SendItem, phoneNumberId: string, propertyName: string): Promise<UploadedMedia> {
	const body = await mediaFormData(item, phoneNumberId, propertyName);
	// The node's Options → Timeout (n8n adds it to declarative nodes) applies to this step too.
	const timeout = Number(item.param('requestOptions.timeout', 300_000)) || 300_000;
	const envelope = await item.request({ method: 'POST', url: '/whatsapp/upload/media', body, headers: { Accept: 'application/json' }, timeout });
	return { media_id: String(envelope.media_id ?? ''), media_type: String(envelope.media_type ?? ''), media_name: String(envelope.media_name ?? '') };
}
