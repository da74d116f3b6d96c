import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';
import type { Page } from '../../shared/envelope';
import { listRecords } from '../../shared/envelope';
import { botSailorRequest, usesEarlierForm } from '../../shared/transport';

/** The reads the trigger makes, all through the action node's request + envelope code. */

export const SUBSCRIBER_PAGE_SIZE = 100;
export const CONVERSATION_PAGE_SIZE = 50;

const earlierForms = new WeakMap<object, Promise<boolean>>();

/**
 * Whether the credential is on the earlier API form (read once per poll): there the subscriber list and
 * the conversation have no pagination parameters and answer the whole list in one page (spec, Versioning).
 */
export async function earlierForm(context: IPollFunctions): Promise<boolean> {
	let known = earlierForms.get(context);
	if (!known) {
		known = usesEarlierForm(context);
		earlierForms.set(context, known);
	}
	return await known;
}

/**
 * One page of a number's subscribers; orderBy 1 = most recent message first, 0 = default order. On the
 * earlier form, the whole list as page 1 (no nextOffset), orderBy sent as the action node does.
 */
export async function subscriberPage(
	context: IPollFunctions,
	phoneNumberId: string,
	page: number,
	orderBy: 0 | 1,
	pageSize = SUBSCRIBER_PAGE_SIZE,
): Promise<Page> {
	const pagination = (await earlierForm(context)) ? {} : { limit: pageSize, offset: page };
	const envelope = await botSailorRequest.call(context, '/whatsapp/subscriber/list', {
		phone_number_id: phoneNumberId,
		...pagination,
		orderBy,
	});
	return { records: listPayload(context, envelope), nextOffset: envelope.nextOffset };
}

/**
 * One page of a subscriber's conversation in the order the platform serves it (see lib/conversation.ts
 * for which page holds the newest messages). On the earlier form, the whole conversation as page 1.
 */
export async function servedConversationPage(
	context: IPollFunctions,
	phoneNumberId: string,
	phoneNumber: string,
	page = 1,
): Promise<Page> {
	const pagination = (await earlierForm(context))
		? {}
		: { limit: CONVERSATION_PAGE_SIZE, offset: page };
	const envelope = await botSailorRequest.call(context, '/whatsapp/get/conversation', {
		phone_number_id: phoneNumberId,
		phone_number: phoneNumber,
		...pagination,
	});
	return { records: listPayload(context, envelope), nextOffset: envelope.nextOffset };
}

/** One page of a subscriber's conversation, its messages sorted newest first. */
export async function conversationPage(
	context: IPollFunctions,
	phoneNumberId: string,
	phoneNumber: string,
	page = 1,
): Promise<Page> {
	const served = await servedConversationPage(context, phoneNumberId, phoneNumber, page);
	return { ...served, records: [...served.records].sort(newestFirst) };
}

/**
 * The records of a list read (listRecords: an array, an object keyed by id, or a single record); any
 * other payload is a malformed answer: the poll fails and no cursor moves.
 */
export function listPayload(context: IPollFunctions, envelope: IDataObject): IDataObject[] {
	const records = listRecords(envelope);
	if (records) return records;
	throw new NodeOperationError(
		context.getNode(),
		'The platform answered a list request without a list',
		{
			description: 'The poll will be retried; no event was lost.',
		},
	);
}

/** Timestamps are `YYYY-MM-DD HH:MM:SS`, so text order is time order; ids break ties. */
export function compareMessages(a: IDataObject, b: IDataObject): number {
	return (
		String(a.conversation_time ?? '').localeCompare(String(b.conversation_time ?? '')) ||
		Number(a.id) - Number(b.id)
	);
}

export function newestFirst(a: IDataObject, b: IDataObject): number {
	return compareMessages(b, a);
}

/** The page after `page`, or undefined when the API announced none (or a non-advancing one). */
export function nextPage(current: Page, page: number, pageSize: number): number | undefined {
	const next = Number(current.nextOffset);
	if (current.records.length < pageSize || !Number.isInteger(next) || next <= page)
		return undefined;
	return next;
}

/** Keeps the newest `cap` entries of a list already sorted newest first. */
export function capped<T>(entries: T[], cap: number): T[] {
	return entries.length > cap ? entries.slice(0, cap) : entries;
}
