import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';
import { sendsInFlight } from '../../shared/http/credential';
import { beforeCollections } from '../../shared/parameters/fieldOrder';
import { refuse } from '../../shared/parameters/inputs';
import { errorMessage, text } from '../../shared/parameters/values';
import { limiterFor, type Limiter } from './limiter';
import {
	FINAL_STATUSES,
	statusOf,
	statusRequest,
	type StatusReading,
} from '../reading/messageStatus';
import type { RecordContext } from './sendRecord';
import { isFinalStatus, onStatus, recentStatus } from '../../shared/triggers/statusEvents';
import { refusalFields } from '../../shared/whatsapp/metaRefusals';

/**
 * Wait for Delivery, an option of Send Text, Send Template, Send Buttons and Send Media: after the platform accepted a
 * message, the item waits (up to Max Wait) for `delivered`, `read` or `failed` and carries the outcome as `delivery`.
 *
 * - Only reads: the status is read with whatsapp/get/message-status (a read under the read policy). Nothing is ever
 *   sent again because of it; a read that fails leaves the outcome `unknown` (with the error), never a resend.
 * - One schedule per node run: every item of the run (the bulk path's items, or the declarative path's concurrent
 *   items and tool calls) is watched by one poller, which reads the outstanding ids in rounds, a bounded number at
 *   a time (the credential's Max Sends in Flight), instead of one poller per message.
 * - Backoff per message: first read FIRST_READ_MS after the send, then each gap BACKOFF times longer (up to MAX_GAP_MS);
 *   the last read at Max Wait. When few messages are left (at most TAIL_SHARE of those watched, or TAIL_MIN), they are
 *   read every TAIL_GAP_MS, so the run does not end long after the last status arrives; this tail costs at most
 *   TAIL_BUDGET reads per message watched in all.
 * - Status Updates From "Webhook Trigger Events, Reads as Backstop": a message settles at once, without a read, when
 *   the BotSailor Webhook Trigger in this process received (or receives) a final status for its wa_message_id (the
 *   status hub, shared/triggers/statusEvents.ts). Its first read is deferred to EVENTS_FIRST_READ_MS after the send
 *   (or Max Wait), then the usual backoff: where events never arrive (queue mode, another n8n, no webhook set up) the
 *   reads still find the outcome, later. The outcome's `source` says which settled it.
 * Run by the drivers at one place each: bulkSend.ts (watch after each send, settle before the output) and
 * declarativeSend.ts (after the item's send).
 */

export const FIRST_READ_MS = 2_000;
export const BACKOFF = 1.5;
export const MAX_GAP_MS = 15_000;
export const TAIL_GAP_MS = 1_000;
export const TAIL_SHARE = 0.05;
export const TAIL_MIN = 5;
export const TAIL_BUDGET = 3;
/** With the Webhook Trigger's events as the source: the first read (the backstop) this long after the send. */
export const EVENTS_FIRST_READ_MS = 30_000;
/** The read at Max Wait gets this long to answer (or the shorter Options → Timeout); then the item settles. */
export const LAST_READ_MS = 5_000;
/** How often the poller looks for reads that are due. */
const TICK_MS = 250;
/** The longest Max Wait (seconds). */
export const MAX_WAIT_SECONDS = 3_600;

/** What the wait reads of an item: sendItem.ts's SendItem (a part of it, so that a driver can hand over less). */
export interface WaitItem {
	getNode(): INode;
	getItemIndex(): number;
	param(name: string, fallback?: unknown): IDataObject[string];
	request(options: IHttpRequestOptions): Promise<IDataObject>;
	credentials(): Promise<ICredentialDataDecryptedObject>;
}

export type OnDeliveryFailed = 'fail' | 'output';
/** Where the statuses come from: the status reads alone, or the Webhook Trigger's events with the reads as backstop. */
export type DeliveryStatusSource = 'statusReads' | 'webhookEvents';
/** What settled an outcome. */
export type DeliverySource = 'webhook' | 'status read';

/** What an item's Wait for Delivery settings say. */
export interface DeliveryWaitSettings {
	maxWaitMs: number;
	onFailed: OnDeliveryFailed;
	source: DeliveryStatusSource;
}

/** The outcome put on the item as `delivery`. */
export interface DeliveryOutcome extends IDataObject {
	/** delivered, read or failed; the last status read (e.g. sent) when Max Wait ran out; unknown when it could not be read. */
	status: string;
	failed_reason?: string;
	/** Meta's code and its meaning, when failed_reason is one of Meta's refusals (shared/whatsapp/metaRefusals.ts). */
	failed_code?: string;
	failed_meaning?: string;
	waited_ms: number;
	timed_out?: boolean;
	/** Why the status is unknown (the read's error, or the run was cancelled). */
	error?: string;
	/** What gave the status: the Webhook Trigger's event, or a status read. */
	source?: DeliverySource;
}

const FAILED_CHOICES: Array<{ name: string; value: OnDeliveryFailed; description: string }> = [
	{
		name: 'Fail the Item',
		value: 'fail',
		description:
			'The item fails with the reason (with Continue On Fail it goes to the error output); nothing is sent again',
	},
	{
		name: 'Output the Item',
		value: 'output',
		description: 'The item is output with delivery.status "failed" and delivery.failed_reason',
	},
];

const SOURCE_CHOICES: Array<{ name: string; value: DeliveryStatusSource; description: string }> = [
	{
		name: 'Status Reads',
		value: 'statusReads',
		description:
			'Read the message status with a backoff (at most about 3 reads per message); works everywhere',
	},
	{
		name: 'Webhook Trigger Events, Reads as Backstop',
		value: 'webhookEvents',
		description:
			'Settle as soon as the BotSailor Webhook Trigger of this n8n receives the status; the first read waits 30 s, so the outcome is still found where no event arrives (queue mode), only later',
	},
];

/** The option's fields. */
export function waitForDeliveryFields(): INodeProperties[] {
	return [
		{
			displayName: 'Wait for Delivery',
			name: 'waitForDelivery',
			type: 'boolean',
			default: false,
			description:
				'Whether to wait, after the platform accepted the message, until it is delivered, read or failed, and output the outcome as "delivery" (status, failed_reason, waited_ms). Only reads the status; never sends again.',
		},
		{
			displayName: 'Max Wait (Seconds)',
			name: 'deliveryMaxWait',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_WAIT_SECONDS },
			default: 60,
			description:
				'How long to wait for the status; after it the item is output with the last status read and delivery.timed_out',
			displayOptions: { show: { waitForDelivery: [true] } },
		},
		{
			displayName: 'When Delivery Fails',
			name: 'onDeliveryFailed',
			type: 'options',
			options: FAILED_CHOICES,
			default: 'fail',
			description: 'What to do when WhatsApp reports the message failed',
			displayOptions: { show: { waitForDelivery: [true] } },
		},
		{
			displayName: 'Status Updates From',
			name: 'deliveryStatusSource',
			type: 'options',
			options: SOURCE_CHOICES,
			default: 'statusReads',
			description:
				"Pick Webhook Trigger Events when an active BotSailor Webhook Trigger on this n8n receives this number's Message Status webhooks (regular mode: one n8n process). The status reads stay as a backstop.",
			displayOptions: { show: { waitForDelivery: [true] } },
		},
	];
}

/** An operation's fields with Wait for Delivery added before its collections (Additional Fields, Options). */
export function withWaitForDelivery(fields: INodeProperties[]): INodeProperties[] {
	return beforeCollections(fields, waitForDeliveryFields());
}

/** The item's settings, checked (a bad value fails the item before anything is sent); undefined when it does not wait. */
export function deliveryWaitOf(item: WaitItem): DeliveryWaitSettings | undefined {
	if (item.param('waitForDelivery', false) !== true) return undefined;
	const seconds = Number(item.param('deliveryMaxWait', 60));
	if (!Number.isFinite(seconds) || seconds < 1 || seconds > MAX_WAIT_SECONDS)
		refuse(
			item,
			'Max Wait (Seconds) is out of range',
			`Parameter "Max Wait (Seconds)": give a number of seconds from 1 to ${MAX_WAIT_SECONDS}.`,
		);
	const onFailed = item.param('onDeliveryFailed', 'fail');
	if (onFailed !== 'fail' && onFailed !== 'output')
		refuse(
			item,
			'When Delivery Fails is not valid',
			'Parameter "When Delivery Fails": choose "fail" or "output".',
		);
	const source = item.param('deliveryStatusSource', 'statusReads');
	if (source !== 'statusReads' && source !== 'webhookEvents')
		refuse(
			item,
			'Status Updates From is not valid',
			'Parameter "Status Updates From": choose "statusReads" or "webhookEvents".',
		);
	return { maxWaitMs: Math.round(seconds * 1000), onFailed, source };
}

/** One message being watched. */
interface Watch {
	id: string;
	/** One status read, aborted when `left` ms have passed (the item's settleBy). */
	read: (id: string, left: number) => Promise<StatusReading>;
	cancelled: () => boolean;
	started: number;
	/** Max Wait: the last read starts here. */
	deadline: number;
	/** The item settles by then with what it has, a read in flight or not: Max Wait and the last read's time. */
	settleBy: number;
	/** No read before this (the deferred backstop of the events source; the send's time otherwise). */
	notBefore: number;
	/** Settled: later reads and events change nothing. */
	done: boolean;
	/** Stops listening to the status hub. */
	unsubscribe?: () => void;
	nextRead: number;
	lastRead: number;
	reads: number;
	/** A read of it is in flight. */
	reading: boolean;
	last?: StatusReading;
	resolve: (outcome: DeliveryOutcome) => void;
}

/** The poller of one node run: one schedule for all its watched messages. */
class DeliveryPoller {
	private readonly watches = new Set<Watch>();
	private running = false;
	/** Messages watched in all: the tail and its budget are shares of it. */
	private watched = 0;
	private tailReads = 0;

	constructor(
		private readonly limiter: Limiter,
		private readonly onIdle: () => void,
	) {}

	watch(
		id: string,
		maxWaitMs: number,
		read: Watch['read'],
		cancelled: Watch['cancelled'],
		events = false,
	): Promise<DeliveryOutcome> {
		return new Promise((resolve) => {
			const started = Date.now();
			const deadline = started + maxWaitMs;
			const notBefore = events ? Math.min(started + EVENTS_FIRST_READ_MS, deadline) : started;
			const watch: Watch = {
				id,
				read,
				cancelled,
				started,
				deadline,
				settleBy: deadline + LAST_READ_MS,
				notBefore,
				done: false,
				nextRead: Math.max(notBefore, Math.min(started + FIRST_READ_MS, deadline)),
				lastRead: started,
				reads: 0,
				reading: false,
				resolve,
			};
			this.watched++;
			if (events) {
				// A status that arrived before the wait started (even before the send's answer) settles it at once.
				const known = recentStatus(id);
				if (known && isFinalStatus(known.status)) {
					this.settleFromEvent(watch, known);
					// Nothing left to watch and no loop to end: the run forgets this poller.
					if (this.watches.size === 0 && !this.running) this.onIdle();
					return;
				}
				watch.unsubscribe = onStatus(id, (event) => {
					if (isFinalStatus(event.status)) this.settleFromEvent(watch, event);
				});
			}
			this.watches.add(watch);
			if (!this.running) void this.run();
		});
	}

	private settleFromEvent(watch: Watch, event: { status: string; failed_reason?: string }): void {
		this.settle(watch, {
			status: event.status,
			...(event.status === 'failed' ? { failed_reason: event.failed_reason ?? '' } : {}),
			source: 'webhook',
		});
	}

	private settle(watch: Watch, outcome: Omit<DeliveryOutcome, 'waited_ms'>): void {
		if (watch.done) return;
		watch.done = true;
		watch.unsubscribe?.();
		this.watches.delete(watch);
		watch.resolve({
			...outcome,
			...(outcome.status === 'failed' ? refusalFields(outcome.failed_reason) : {}),
			waited_ms: Date.now() - watch.started,
		} as DeliveryOutcome);
	}

	private async run(): Promise<void> {
		this.running = true;
		try {
			while (this.watches.size > 0) {
				const now = Date.now();
				const tail =
					this.watches.size <= Math.max(TAIL_MIN, Math.floor(this.watched * TAIL_SHARE)) &&
					this.tailReads < TAIL_BUDGET * this.watched;
				const due: Watch[] = [];
				for (const watch of this.watches) {
					if (watch.cancelled()) {
						this.settle(watch, { status: 'unknown', error: 'The run was cancelled' });
						continue;
					}
					if (watch.reading) {
						// A read that hangs does not hold the item past Max Wait: it settles with what it has.
						if (now >= watch.settleBy) this.settleAtDeadline(watch);
						continue;
					}
					const at = Math.max(
						watch.notBefore,
						tail ? Math.min(watch.nextRead, watch.lastRead + TAIL_GAP_MS) : watch.nextRead,
					);
					if (now >= at) due.push(watch);
				}
				if (tail) this.tailReads += due.length;
				// The reads of a round go out a bounded number at a time (the limiter); a slow one holds up no other message.
				for (const watch of due) {
					watch.reading = true;
					void this.readOnce(watch).finally(() => (watch.reading = false));
				}
				await sleep(TICK_MS);
			}
		} finally {
			this.running = false;
			this.onIdle();
		}
	}

	/** Max Wait ran out: the last status read, or unknown when no read answered in time. */
	private settleAtDeadline(watch: Watch): void {
		this.settle(watch, {
			status: watch.last?.status || 'unknown',
			timed_out: true,
			source: 'status read',
			...(watch.last ? {} : { error: 'No status read answered within Max Wait' }),
		});
	}

	private async readOnce(watch: Watch): Promise<void> {
		let reading: StatusReading;
		await this.limiter.acquire();
		try {
			if (watch.done) return;
			reading = await watch.read(watch.id, watch.settleBy - Date.now());
		} catch (error) {
			if (Date.now() >= watch.settleBy) return this.settleAtDeadline(watch);
			// A read that fails (after the read policy's retries) leaves the outcome unknown; nothing is sent again.
			this.settle(watch, { status: 'unknown', error: errorMessage(error), source: 'status read' });
			return;
		} finally {
			this.limiter.release();
		}
		if (watch.done) return;
		const now = Date.now();
		watch.reads++;
		watch.last = reading;
		watch.lastRead = now;
		if (FINAL_STATUSES.has(reading.status)) {
			this.settle(watch, {
				status: reading.status,
				...(reading.status === 'failed' ? { failed_reason: reading.failed_reason ?? '' } : {}),
				source: 'status read',
			});
			return;
		}
		if (now >= watch.deadline) return this.settleAtDeadline(watch);
		const gap = Math.min(MAX_GAP_MS, FIRST_READ_MS * BACKOFF ** watch.reads);
		watch.nextRead = Math.min(now + gap, watch.deadline);
	}
}

/** The pollers of the node runs in progress (module-level, so concurrent items and tool calls of a run share one). */
const pollers = new Map<string, DeliveryPoller>();

/** The poller of a node run: per execution and node. */
function pollerOf(context: RecordContext, limiter: Limiter): DeliveryPoller {
	const key = `${context.getExecutionId()}\u0000${context.getNode().name}`;
	let poller = pollers.get(key);
	if (!poller) {
		const created: DeliveryPoller = new DeliveryPoller(limiter, () => {
			if (pollers.get(key) === created) pollers.delete(key);
		});
		poller = created;
		pollers.set(key, poller);
	}
	return poller;
}

/** The wa_message_id of a send's output records, when the platform gave one. */
function messageIdOf(records: IDataObject[]): string | undefined {
	for (const record of records) {
		if (record.skipped === true) return undefined;
		const id = text(record.wa_message_id);
		if (id) return id;
	}
	return undefined;
}

/**
 * Waits for the delivery of an item's sent message, when the item asks for it; answers its records with `delivery`
 * on the record of the message. Throws (the item fails) when the message failed and the item chose Fail the Item.
 * Records without a wa_message_id (skipped, a broadcast) are answered as they are.
 */
export async function waitForDelivery(
	context: RecordContext,
	item: WaitItem,
	records: IDataObject[],
	cancelled: () => boolean = () => false,
): Promise<IDataObject[]> {
	const settings = deliveryWaitOf(item);
	const id = settings && messageIdOf(records);
	if (!settings || !id) return records;
	const credentials = await item.credentials();
	const limiter = limiterFor(item.getNode(), sendsInFlight(credentials));
	const outcome = await pollerOf(context, limiter).watch(
		id,
		settings.maxWaitMs,
		// Each read ends at the shorter of Options → Timeout (the item's request) and the time left.
		async (waMessageId, left) =>
			statusOf(
				await item.request(statusRequest(waMessageId, AbortSignal.timeout(Math.max(1, left)))),
			),
		cancelled,
		settings.source === 'webhookEvents',
	);
	return withOutcome(item, records, id, outcome, settings.onFailed);
}

/** The records with the outcome on the message's record; a failure when the message failed and the item fails then. */
function withOutcome(
	item: WaitItem,
	records: IDataObject[],
	id: string,
	outcome: DeliveryOutcome,
	onFailed: OnDeliveryFailed,
): IDataObject[] {
	if (outcome.status === 'failed' && onFailed === 'fail') {
		const error = new NodeOperationError(
			item.getNode(),
			`The message was not delivered: ${outcome.failed_reason || 'WhatsApp reported it failed'}`,
			{
				description: `The platform accepted the message (wa_message_id ${id}) and then reported it failed. It was not sent again.${outcome.failed_meaning ? ` ${outcome.failed_meaning}` : ''}`,
				itemIndex: item.getItemIndex(),
			},
		);
		error.context = { ...error.context, wa_message_id: id, delivery: outcome };
		throw error;
	}
	return records.map((record) =>
		text(record.wa_message_id) === id ? { ...record, delivery: outcome } : record,
	);
}

/**
 * The bulk path's waits: `watch` right after an item's send (so its wait starts with its send), `settle` once the
 * sends are done, answering each watched item's records with `delivery`, or its failure.
 */
export function deliveryWaits(context: RecordContext, cancelled: () => boolean) {
	const pending = new Map<number, Promise<{ records: IDataObject[] } | { error: unknown }>>();
	return {
		watch(index: number, item: WaitItem, records: IDataObject[]): void {
			if (item.param('waitForDelivery', false) !== true) return;
			pending.set(
				index,
				waitForDelivery(context, item, records, cancelled).then(
					(delivered) => ({ records: delivered }),
					(error: unknown) => ({ error }),
				),
			);
		},
		/** Waits for every watched item, and watches first the items given that are not watched yet (Retry On Fail's earlier sends). */
		async settle(
			sent: Array<[number, WaitItem, IDataObject[]]>,
		): Promise<Map<number, { records: IDataObject[] } | { error: unknown }>> {
			for (const [index, item, records] of sent)
				if (!pending.has(index)) this.watch(index, item, records);
			const settled = new Map<number, { records: IDataObject[] } | { error: unknown }>();
			for (const [index, outcome] of pending) settled.set(index, await outcome);
			return settled;
		},
	};
}
