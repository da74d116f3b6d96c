import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';

/** What the record needs of a context: the bulk path's IExecuteFunctions or the declarative path's per-item context. */
export type RecordContext = Pick<
	IExecuteFunctions,
	'getExecutionId' | 'getNode' | 'getWorkflowDataProxy'
>;

/**
 * What the sends of a node run have done, kept in memory for the rest of the execution, so that
 * n8n's Retry On Fail (the node is run again with the same input, in the same process) outputs the
 * earlier result of an item instead of sending it again. Delivered items and items whose outcome
 * is unknown are recorded; an item the platform refused may be sent again.
 * Bounded: the oldest executions are forgotten once MAX_ITEMS items are held.
 */

/** What an earlier attempt of the same run did with an item. */
export type Recorded =
	| { fingerprint: string; records: IDataObject[] }
	| { fingerprint: string; unknown: NodeApiError };

const MAX_ITEMS = 50_000;
const runs = new Map<string, Map<number, Recorded>>();
let held = 0;

export interface SendRecord {
	/** The earlier outcome of this item, when the same fields were sent for it in this run. */
	get(itemIndex: number, fingerprint: string): Recorded | undefined;
	save(itemIndex: number, outcome: Recorded): void;
}

/** The fingerprint of what an item sends: the endpoint, the fields and, for a file, its metadata. */
export function fingerprintOf(url: string, fields: IDataObject, extra: unknown = null): string {
	return createHash('sha256')
		.update(JSON.stringify([url, fields, extra]))
		.digest('base64');
}

/** The key of the current node run: execution, node and run index (Retry On Fail keeps all three). */
export function runKeyOf(context: RecordContext): string {
	const runIndex = context.getWorkflowDataProxy(0).$runIndex as number;
	return `${context.getExecutionId()}\u0000${context.getNode().name}\u0000${runIndex}`;
}

/** The record of the current node run: execution, node and run index (Retry On Fail keeps all three). */
export function sendRecordOf(context: RecordContext): SendRecord {
	const key = runKeyOf(context);
	return {
		get(itemIndex, fingerprint) {
			const saved = runs.get(key)?.get(itemIndex);
			return saved?.fingerprint === fingerprint ? saved : undefined;
		},
		save(itemIndex, outcome) {
			let items = runs.get(key);
			if (!items) {
				items = new Map();
				runs.set(key, items);
			}
			if (!items.has(itemIndex)) held++;
			items.set(itemIndex, outcome);
			for (const [oldest, oldItems] of runs) {
				if (held <= MAX_ITEMS || oldest === key) break;
				held -= oldItems.size;
				runs.delete(oldest);
			}
		},
	};
}
