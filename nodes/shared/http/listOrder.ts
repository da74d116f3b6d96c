import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

/**
 * The order a deployment pages a list in, read from the data: the spec does not say it for the
 * subscriber list's default order, nor for conversations, and deployments differ.
 */
export type ListOrder = 'newestFirst' | 'oldestFirst';

/** What one page tells: an order, nothing (fewer than two distinct keys), or no order at all. */
export type PageOrder = ListOrder | 'undetermined' | 'unordered';

/** The direction of a sequence of keys; equal neighbours say nothing. */
function direction(keys: Array<string | number>): PageOrder {
	let up = 0;
	let down = 0;
	for (let index = 1; index < keys.length; index++) {
		if (keys[index] > keys[index - 1]) up++;
		else if (keys[index] < keys[index - 1]) down++;
	}
	if (up && down) return 'unordered';
	if (down) return 'newestFirst';
	return up ? 'oldestFirst' : 'undetermined';
}

const subscriberIdOf = (record: IDataObject) => Number(record.subscriber_id);

/** A subscriber page as served: by subscriber_id (ids grow with creation). */
export function subscriberPageOrder(records: IDataObject[]): PageOrder {
	return direction(records.map(subscriberIdOf).filter((id) => Number.isFinite(id)));
}

/**
 * A conversation page as served: by conversation_time; by id only when every time is the same
 * (messages of one second may come in any id order).
 */
export function conversationPageOrder(records: IDataObject[]): PageOrder {
	const byTime = direction(
		records.map((record) => String(record.conversation_time ?? '')).filter((time) => time !== ''),
	);
	if (byTime !== 'undetermined') return byTime;
	return direction(records.map((record) => Number(record.id)).filter((id) => Number.isFinite(id)));
}

/** The first keys of a page, to show what was found. */
function sample(values: unknown[]): string {
	const shown = values.slice(0, 5).map((value) => String(value));
	return `${shown.join(', ')}${values.length > shown.length ? ', …' : ''}`;
}

/**
 * The error of a list the trigger cannot follow: what it expected and what it found. Thrown at
 * activation (the workflow is not activated) or by the poll that meets it (nothing is stored).
 */
export function listOrderError(
	context: Pick<IPollFunctions, 'getNode'>,
	list: 'subscribers' | 'conversation',
	found: { page: number; records: IDataObject[]; chatId?: string },
): NodeOperationError {
	if (list === 'subscribers') {
		return new NodeOperationError(
			context.getNode(),
			`The subscriber list is in an order New Subscriber cannot follow: expected its default order (orderBy=0) by subscriber_id, oldest or newest first; found subscriber_id ${sample(found.records.map(subscriberIdOf))} on page ${found.page}`,
			{
				description:
					'New subscribers are found where the list ends (or starts) in creation order; in another order they could be anywhere, and reading every page on every poll is not done. Nothing was stored. Ask your platform provider for the list in creation order.',
			},
		);
	}
	return new NodeOperationError(
		context.getNode(),
		`The conversation of ${found.chatId ?? 'a subscriber'} is paged in an order the trigger cannot follow: expected pages by conversation_time, newest or oldest first; found conversation_time ${sample(found.records.map((record) => record.conversation_time))} on page ${found.page}`,
		{
			description:
				'New messages are found on the newest page of a conversation; in no time order they could be on any page. Nothing was stored. The BotSailor Webhook Trigger (Incoming Message) does not depend on this order.',
		},
	);
}
