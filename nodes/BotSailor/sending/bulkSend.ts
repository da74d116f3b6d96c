import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeType,
} from 'n8n-workflow';
import {
	baseUrlProblem,
	CREDENTIAL_TYPE,
	rateLimitBudgetMs,
	sendsInFlight,
} from '../../shared/http/credential';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import {
	DELIVERY_DEFAULTS,
	deliver,
	NotAttempted,
	recipientOf,
	RateLimitBudget,
	type DeliveryOptions,
} from './delivery';
import { atMostOnce, type NotYetSent } from './atMostOnce';
import { deliveryWaits } from './deliveryWait';
import { payloadRecords } from '../../shared/http/envelope';
import { decodeJsonFields } from '../../shared/parameters/jsonStrings';
import { sendRequest } from '../../shared/http/transport';
import {
	requestDefaults,
	requestTemplate,
	type RequestOptionsParameter,
} from '../running/requestOptions';
import { asNodeError, errorItem, withRecipient } from '../running/itemResult';
import { performSend, prepareSend, type PreparedSend, type SendDefinition } from './sendDefinition';
import { kindCounts, TemplateCategories } from './messageKind';
import type { SendItem } from './sendItem';
import { sendRecordOf } from './sendRecord';

/**
 * The sends in a workflow run (the node's `customOperations`), for many items at once:
 * 1. every item's fields are built and checked before anything is sent;
 * 2. items an earlier attempt of this run already delivered (n8n's Retry On Fail) are not sent again;
 * 3. the sends go out in input order, a bounded number at a time, under the delivery policy
 *    (delivery.ts); without Continue On Fail no request leaves after the first failure (the sends in flight
 *    finish; the ones waiting for a slot, and retries, are not attempted);
 * 4. a failed run names what was delivered (items and wa_message_id) and what was not attempted.
 * The credential is decrypted once per run (n8n reads it from its database on every request otherwise).
 */
export function bulkSends(
	definitions: SendDefinition[],
	options: DeliveryOptions = {},
): NonNullable<INodeType['customOperations']> {
	const custom: NonNullable<INodeType['customOperations']> = {};
	for (const definition of definitions) {
		custom[definition.resource] = {
			...custom[definition.resource],
			[definition.operation]: async function (this: IExecuteFunctions) {
				return await runSends.call(this, definition, options);
			},
		};
	}
	return custom;
}

/** The item as the bulk path presents it: parameters and binary data by index, requests with the run's credential. */
function sendItemAt(
	context: IExecuteFunctions,
	itemIndex: number,
	credentials: ICredentialsDecrypted,
	defaults: Partial<IHttpRequestOptions> = {},
): SendItem {
	return {
		getNode: () => context.getNode(),
		getItemIndex: () => itemIndex,
		param: (name, fallback, options) =>
			context.getNodeParameter(name, itemIndex, fallback, options) as IDataObject[string],
		binaries: () => context.getInputData()[itemIndex].binary ?? {},
		binaryBuffer: async (propertyName) =>
			await context.helpers.getBinaryDataBuffer(itemIndex, propertyName),
		binaryStream: async (binaryDataId) => await context.helpers.getBinaryStream(binaryDataId),
		binaryMetadata: async (binaryDataId) => await context.helpers.getBinaryMetadata(binaryDataId),
		request: async (options) =>
			await sendRequest.call(context, { ...defaults, ...options }, itemIndex, credentials),
		credentials: async () => credentials.data ?? {},
		input: () => context.getInputData()[itemIndex]?.json ?? {},
	};
}

type ItemOutcome =
	| { records: IDataObject[] }
	| { error: NodeApiError | NodeOperationError }
	| undefined;

/**
 * Runs `fn` over the indexes, at most `limit` at once, in input order; stops starting new ones once `stop()` says so.
 * An item that waits for a customer's cooldown (Meta's pair rate limit, delivery.ts) says so with `cooling(true)` and
 * does not count meanwhile: the other customers' sends go on at the account's pace.
 */
async function forEachLimited(
	indexes: number[],
	limit: number,
	fn: (index: number, cooling: (waiting: boolean) => void) => Promise<void>,
	stop: () => boolean,
): Promise<void> {
	let next = 0;
	let counted = 0;
	let running = 0;
	await new Promise<void>((resolve) => {
		const pump = () => {
			while (counted < limit && next < indexes.length && !stop()) {
				const index = indexes[next++];
				let waiting = false;
				counted++;
				running++;
				const cooling = (on: boolean) => {
					if (on === waiting) return;
					waiting = on;
					counted += on ? -1 : 1;
					if (on) pump();
				};
				// fn never throws (send() keeps every failure as the item's outcome).
				void fn(index, cooling).finally(() => {
					if (!waiting) counted--;
					running--;
					pump();
				});
			}
			if (running === 0) resolve();
		};
		pump();
	});
}

/** "items 3, 5–9" */
function itemList(indexes: number[]): string {
	const ranges: string[] = [];
	for (let start = 0; start < indexes.length; ) {
		let end = start;
		while (end + 1 < indexes.length && indexes[end + 1] === indexes[end] + 1) end++;
		ranges.push(end > start ? `${indexes[start]}–${indexes[end]}` : String(indexes[start]));
		start = end + 1;
	}
	return `${indexes.length === 1 ? 'item' : 'items'} ${ranges.join(', ')}`;
}

/** "item 1 (Outside the 24-hour window: …); items 2, 4 (Already answered: …)": each skipped item with its own reason. */
function skipReasons(skipped: number[], reasonOf: (index: number) => unknown): string {
	const byReason = new Map<string, number[]>();
	for (const index of skipped) {
		const reason = String(reasonOf(index) ?? 'no reason given');
		byReason.set(reason, [...(byReason.get(reason) ?? []), index]);
	}
	return [...byReason].map(([reason, indexes]) => `${itemList(indexes)} (${reason})`).join('; ');
}

/** The description of a failure before a run's report was added: Retry On Fail reports the same error again. */
const ownDescriptions = new WeakMap<object, string>();

/**
 * The first failure of a run, its description extended with the three outcomes of the run's items: delivered (with
 * their wa_message_id), may have been delivered (the platform may have acted: check before sending them again), and
 * not sent (refused, failed before reaching the platform, or not attempted: safe to send again).
 */
function failureReport(
	failure: NodeApiError | NodeOperationError,
	outcomes: ItemOutcome[],
): NodeApiError | NodeOperationError {
	const indexesWhere = (test: (outcome: ItemOutcome) => boolean) =>
		outcomes.flatMap((outcome, index) => (test(outcome) ? [index] : []));
	const firstRecord = (outcome: ItemOutcome) =>
		outcome !== undefined && 'records' in outcome ? outcome.records[0] : undefined;
	const skipped = indexesWhere((outcome) => firstRecord(outcome)?.skipped === true);
	const delivered = indexesWhere(
		(outcome) =>
			outcome !== undefined && 'records' in outcome && firstRecord(outcome)?.skipped !== true,
	);
	const asTemplate = indexesWhere((outcome) => firstRecord(outcome)?.sent_as === 'template');
	const unknown = indexesWhere(
		(outcome) =>
			outcome !== undefined && 'error' in outcome && outcome.error.context?.outcome === 'unknown',
	);
	const failed = indexesWhere(
		(outcome) =>
			outcome !== undefined && 'error' in outcome && outcome.error.context?.outcome !== 'unknown',
	);
	const notAttempted = indexesWhere((outcome) => outcome === undefined);
	const ids = delivered.slice(0, 20).map((index) => {
		const outcome = outcomes[index] as { records: IDataObject[] };
		const id = outcome.records[0]?.wa_message_id;
		return id ? `${index}: ${String(id)}` : String(index);
	});
	const notSent = [
		failed.length ? `${itemList(failed)} (failed)` : '',
		notAttempted.length ? `${itemList(notAttempted)} (not attempted)` : '',
	].filter(Boolean);
	const sent = kindCounts(sentRecords(outcomes));
	const parts = [
		// What went out by Meta's kinds (messageKind.ts), before the per-item account.
		sent ? `${sent}.` : '',
		`Delivered: ${delivered.length} of ${outcomes.length} items${delivered.length ? ` (${ids.join('; ')}${delivered.length > ids.length ? `; and ${delivered.length - ids.length} more` : ''})` : ''}.`,
		asTemplate.length
			? `Sent as a template (outside the 24-hour window): ${itemList(asTemplate)}.`
			: '',
		skipped.length
			? `Skipped (nothing sent): ${skipReasons(skipped, (index) => firstRecord(outcomes[index])?.reason)}.`
			: '',
		unknown.length
			? `May have been delivered: ${itemList(unknown)} (check the conversation before sending again).`
			: '',
		notSent.length ? `Not sent: ${notSent.join(', ')}.` : '',
	];
	if (!ownDescriptions.has(failure)) ownDescriptions.set(failure, failure.description ?? '');
	failure.description = [ownDescriptions.get(failure), parts.filter(Boolean).join(' ')]
		.filter(Boolean)
		.join(' ');
	failure.context = {
		...failure.context,
		delivered: delivered.length,
		...(asTemplate.length ? { sentAsTemplate: asTemplate.length } : {}),
		...(skipped.length ? { skipped: skipped.length } : {}),
		mayHaveBeenDelivered: unknown.length,
		notAttempted: notAttempted.length,
	};
	return failure;
}

/** The records of the items that went out (skipped ones and failures left out). */
function sentRecords(outcomes: ItemOutcome[]): IDataObject[] {
	return outcomes.flatMap((outcome) =>
		outcome && 'records' in outcome
			? outcome.records.filter((record) => record.skipped !== true)
			: [],
	);
}

/** A run that sent: its count by Meta's message kinds ("Sent: 812 templates (marketing), 40 free-form") as n8n's hint. */
function sentSummary(context: IExecuteFunctions, outcomes: ItemOutcome[]): void {
	const sent = kindCounts(sentRecords(outcomes));
	// n8n shows it above the output; older n8n versions have no hints.
	if (sent && typeof context.addExecutionHints === 'function')
		context.addExecutionHints({ message: sent, location: 'outputPane' });
}

async function runSends(
	this: IExecuteFunctions,
	definition: SendDefinition,
	delivery: DeliveryOptions,
): Promise<INodeExecutionData[][]> {
	const node = this.getNode();
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const requestOptions = this.getNodeParameter('requestOptions', 0, {}) as RequestOptionsParameter;
	const template = requestTemplate(node, definition.url, requestOptions);
	const reference = node.credentials?.[CREDENTIAL_TYPE];
	const credentials: ICredentialsDecrypted = {
		id: reference?.id ?? '',
		name: reference?.name ?? '',
		type: CREDENTIAL_TYPE,
		data: await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE),
	};
	// A Base URL mistake fails the run before anything is sent (it would fail every item alike).
	const problem = baseUrlProblem(credentials.data?.baseUrl);
	if (problem)
		throw new NodeOperationError(node, problem, {
			description:
				'Fix the Base URL in the BotSailor credential. Nothing was sent to the platform.',
		});
	const record = sendRecordOf(this);
	const defaults = requestDefaults(node, requestOptions);
	const sendItems = items.map((_, index) => sendItemAt(this, index, credentials, defaults));
	const outcomes: ItemOutcome[] = items.map(() => undefined);

	// 1. Every item's fields (and window choice), checked before anything is sent.
	const prepared: PreparedSend[] = [];
	for (const [index, item] of sendItems.entries()) {
		try {
			prepared[index] = await prepareSend(definition, item);
		} catch (error) {
			const failure = asNodeError(node, error, index);
			if (!continueOnFail) throw failure;
			outcomes[index] = { error: failure };
		}
	}

	// 2. What an earlier attempt of this run (Retry On Fail) did is output again, not sent again.
	const toSend: number[] = [];
	const notYetSent: NotYetSent[] = [];
	for (let index = 0; index < items.length; index++) {
		if (outcomes[index]) continue;
		try {
			const once = atMostOnce(record, index, prepared[index].fingerprint);
			if ('records' in once) outcomes[index] = { records: once.records };
			else {
				notYetSent[index] = once;
				toSend.push(index);
			}
		} catch (unknown) {
			outcomes[index] = { error: unknown as NodeApiError };
		}
	}

	// 3. The sends, in input order and bounded (the credential's Max Sends in Flight); without Continue On Fail, none starts after a failure.
	const settings = {
		...DELIVERY_DEFAULTS,
		concurrency: sendsInFlight(credentials.data),
		...delivery,
	};
	const cancelled = () => this.getExecutionCancelSignal()?.aborted === true;
	// One budget for the run's waits on the platform's rate limit (the credential's Rate Limit Wait Budget).
	const budget = new RateLimitBudget(rateLimitBudgetMs(credentials.data));
	let failed = outcomes.some((outcome) => outcome && 'error' in outcome);
	const stop = () => (failed && !continueOnFail) || cancelled();
	// Wait for Delivery (deliveryWait.ts): each item's wait starts with its send (and ends when the run stops); only reads.
	const deliveries = deliveryWaits(this, stop);
	// The template list, read once in the run for the categories of the templates sent (messageKind.ts).
	const categories = new TemplateCategories();
	const send = async (index: number, cooling?: (waiting: boolean) => void) => {
		const item = sendItems[index];
		try {
			const deliverTo = async (url: string, body: IDataObject) => {
				const request =
					url === definition.url ? template : requestTemplate(node, url, requestOptions);
				const envelope = await deliver(
					node,
					index,
					async () => await sendRequest.call(this, { ...request, body }, index, credentials),
					{
						options: settings,
						cancelled,
						stopped: stop,
						budget,
						recipient: recipientOf(body),
						cooling,
					},
				);
				return payloadRecords(envelope, 'confirmation').map((entry) => withRecipient(entry, body));
			};
			const records = await notYetSent[index].send(
				async () => await performSend(definition, item, prepared[index], deliverTo, categories),
			);
			outcomes[index] = { records };
			deliveries.watch(index, item, records);
		} catch (error) {
			// It waited for a slot while the run stopped: it stays "not attempted" (outcome undefined).
			if (error instanceof NotAttempted) return;
			const failure = asNodeError(node, error, index);
			outcomes[index] = { error: failure };
			failed = true;
		}
	};
	// Options → Batching: a pause between batches of items, as RoutingNode applies it.
	const { batchSize = 0, batchInterval = 0 } = requestOptions.batching?.batch ?? {};
	const batch = batchInterval > 0 && batchSize > 0 ? batchSize : toSend.length;
	for (let start = 0; start < toSend.length && !stop(); start += batch) {
		if (start > 0) await sleep(batchInterval);
		await forEachLimited(toSend.slice(start, start + batch), settings.concurrency, send, stop);
	}

	// Wait for Delivery: the outcome on each waiting item (or its failure), unless the run fails anyway.
	if (!stop())
		for (const [index, waited] of await deliveries.settle(
			outcomes.flatMap((outcome, index) =>
				outcome && 'records' in outcome
					? [[index, sendItems[index], outcome.records] as [number, SendItem, IDataObject[]]]
					: [],
			),
		))
			outcomes[index] =
				'records' in waited ? waited : { error: asNodeError(node, waited.error, index) };

	// 4. Outputs in input order; a failure is an error item under Continue On Fail, else the run fails saying what was delivered.
	const firstFailure = outcomes.find((outcome) => outcome && 'error' in outcome) as
		| { error: NodeApiError | NodeOperationError }
		| undefined;
	if (firstFailure && !continueOnFail) throw failureReport(firstFailure.error, outcomes);
	sentSummary(this, outcomes);
	const output: INodeExecutionData[] = [];
	for (const [index, outcome] of outcomes.entries()) {
		if (!outcome) continue;
		if ('error' in outcome) {
			output.push(errorItem(outcome.error, index));
			continue;
		}
		const decode = sendItems[index].param('options.decodeJsonFields', true) !== false;
		for (const entry of outcome.records)
			output.push({ json: decode ? decodeJsonFields(entry) : entry, pairedItem: { item: index } });
	}
	return [output];
}
