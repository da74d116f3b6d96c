import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';
import type { Page } from '../../shared/http/envelope';
import { listRecords } from '../../shared/http/envelope';
import { botSailorRequest, usesEarlierForm } from '../../shared/http/transport';
export { nextPage } from '../../shared/http/lastPage';
export { compareMessages, newestFirst } from '../../shared/conversation/conversation';

/** The reads the trigger makes, all through the action node's request + envelope code. */

export const SUBSCRIBER_PAGE_SIZE = 100;

const earlierForms = new WeakMap<object, Promise<boolean>>();

/**
 * Whether the credential is on the earlier API form (read once per poll): there the subscriber list and
 * the conversation have no paging parameters and answer the whole list in one page (spec, Versioning).
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
	const paging = (await earlierForm(context)) ? {} : { limit: pageSize, offset: page };
	const envelope = await botSailorRequest.call(context, '/whatsapp/subscriber/list', {
		phone_number_id: phoneNumberId,
		...paging,
		orderBy,
	});
	return { records: listPayload(context, envelope), nextOffset: envelope.nextOffset };
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
