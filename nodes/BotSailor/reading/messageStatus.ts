import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { listRecords } from '../../shared/http/envelope';
import { FORM_CONTENT_TYPE } from '../../shared/http/transport';
import { isRecord, text } from '../../shared/parameters/values';
import { refusalFields } from '../../shared/whatsapp/metaRefusals';

/**
 * Reading a sent message's status (Message → Get Status's endpoint, whatsapp/get/message-status), for Wait for
 * Delivery (deliveryWait.ts) and Message → Get Delivery Report. The endpoint is a read (READ_PATHS): the transport
 * repeats it under the read policy (retry.ts READ_RETRY). Reading a status never sends anything.
 */

export const MESSAGE_STATUS_URL = '/whatsapp/get/message-status';

/** Statuses after which nothing more is waited for: the platform delivered the message, it was read, or it failed. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(['delivered', 'read', 'failed']);

/** A message's status as read: `message_status` in lower case ('' when the platform gave none). */
export interface StatusReading {
	status: string;
	failed_reason?: string;
	/** Meta's code and its meaning in plain words, when `failed_reason` is one of Meta's refusals (metaRefusals.ts). */
	failed_code?: string;
	failed_meaning?: string;
	updated_at?: string;
}

/**
 * The request of one status read (the caller's transport adds the credential and the operation's Options → Timeout).
 * `abortSignal` ends it earlier, e.g. at the end of the wait it serves.
 */
export function statusRequest(waMessageId: string, abortSignal?: AbortSignal): IHttpRequestOptions {
	return {
		method: 'POST',
		url: MESSAGE_STATUS_URL,
		headers: { 'Content-Type': FORM_CONTENT_TYPE, Accept: 'application/json' },
		body: { wa_message_id: waMessageId },
		...(abortSignal ? { abortSignal } : {}),
	};
}

/** The status in a message-status envelope (a Message status object; on some deployments a list of one). */
export function statusOf(envelope: IDataObject): StatusReading {
	const record = isRecord(envelope.message)
		? envelope.message
		: ((listRecords(envelope) ?? [])[0] ?? {});
	const status = (text(record.message_status) ?? '').toLowerCase();
	const reading: StatusReading = { status };
	const updatedAt = text(record.delivery_status_updated_at);
	if (updatedAt) reading.updated_at = updatedAt;
	if (status === 'failed') {
		reading.failed_reason = text(record.failed_reason) ?? '';
		Object.assign(reading, refusalFields(reading.failed_reason));
	}
	return reading;
}

/**
 * The wa_message_ids of a parameter: an array (an expression such as `{{ $json.ids }}`), or a text separated by
 * commas, semicolons, spaces or line breaks. Empty entries are dropped, repeated ids kept once, in order.
 */
export function messageIdsOf(value: unknown): string[] {
	const parts = Array.isArray(value)
		? value.flatMap((entry) => (isRecord(entry) ? [entry.wa_message_id] : [entry]))
		: String(value ?? '').split(/[\s,;]+/);
	const ids: string[] = [];
	const seen = new Set<string>();
	for (const part of parts) {
		const id = text(part);
		if (id === undefined || seen.has(id)) continue;
		seen.add(id);
		ids.push(id);
	}
	return ids;
}
