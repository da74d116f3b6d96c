import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/**
 * The second line of "one message, one execution" for a workflow with both BotSailor triggers, for n8n's
 * queue mode: there the Webhook Trigger answers on a webhook process and the polling trigger runs on the
 * main, so their in-process memory (deliveryMemory.ts) is not shared, and the main's poll saves its whole
 * static data over what the webhook side wrote. What every process shares is n8n's database, and the one
 * public door to it is the processed-items list of n8n's deduplication helpers (`checkProcessedAndRecord`,
 * the list n8n's Remove Duplicates node keeps), which n8n offers in an execution, not in a poll or a
 * webhook call. So each trigger also has an `execute()`: n8n runs it as the first step of every execution
 * the trigger starts (on the worker, in queue mode), with the trigger's items as input. It records each
 * message id there and passes on only the ids not recorded before: an execution that the other trigger
 * (or another process's copy of the same webhook) already started for a message ends at the trigger with
 * no item, and no node after it runs.
 *
 * Limits, as n8n's helper has them: its check-and-record is a read, then a write of the list, without a lock.
 * Within one n8n process the calls are put in a row here; two executions checking the same message at the
 * same moment on two workers can still both pass. Manual runs record nothing (a test must not hide a real
 * message). Where the helper is missing or refuses (a Remove Duplicates node keeping the workflow's list
 * in a "latest" mode), the items pass unchanged, as before.
 */

/** Prefix of our entries, so that they never equal a value another node records in the workflow's list. */
export const KEY_PREFIX = 'botsailor:message:';
/** How many ids the list keeps (oldest dropped first): far more than arrive between a webhook and the next poll. */
export const MAX_ENTRIES = 10000;

/** The last check of each workflow in this process: the next one waits for it. */
const chains = new Map<string, Promise<unknown>>();

async function inRow<T>(workflowId: string, task: () => Promise<T>): Promise<T> {
	const previous = chains.get(workflowId) ?? Promise.resolve();
	const next = previous.then(task, task);
	const tail = next.then(
		() => undefined,
		() => undefined,
	);
	chains.set(workflowId, tail);
	void tail.then(() => {
		if (chains.get(workflowId) === tail) chains.delete(workflowId);
	});
	return await next;
}

function keyOf(item: INodeExecutionData): string | undefined {
	const id = item.json.wa_message_id;
	return typeof id === 'string' && id !== '' ? `${KEY_PREFIX}${id}` : undefined;
}

/**
 * The items whose message no execution of this workflow started before (items without a message id pass).
 * Records the ids of the items it passes. `isMessage` says which items are customer messages (the key both
 * triggers share); the others pass unchanged.
 */
export async function firstStarts(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	isMessage: (item: INodeExecutionData) => boolean = () => true,
): Promise<INodeExecutionData[]> {
	if (context.getMode() === 'manual') return items;
	const helpers = context.helpers as Partial<IExecuteFunctions['helpers']>;
	const record = helpers.checkProcessedAndRecord;
	if (typeof record !== 'function') return items;
	const keys = [
		...new Set(
			items
				.filter(isMessage)
				.map(keyOf)
				.filter((key): key is string => key !== undefined),
		),
	];
	if (!keys.length) return items;
	let processed: Set<string>;
	try {
		const result = await inRow(String(context.getWorkflow().id ?? ''), async () =>
			record.call(helpers, keys, 'workflow', {
				mode: 'entries',
				maxEntries: MAX_ENTRIES,
			}),
		);
		processed = new Set(result.processed.map(String));
	} catch {
		return items;
	}
	return items.filter((item) => {
		if (!isMessage(item)) return true;
		const key = keyOf(item);
		return key === undefined || !processed.has(key);
	});
}
