import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import type { SendRecord } from './sendRecord';

/** An item this run has not sent yet: `send` sends it and records what happened. */
export interface NotYetSent {
	send(perform: () => Promise<IDataObject[]>): Promise<IDataObject[]>;
}

/**
 * The at-most-once bookkeeping of every send (the bulk path, the declarative path, Send and Wait): a message is
 * never sent twice by n8n's Retry On Fail, which runs the node again with the same input in the same process.
 * - an item an earlier attempt delivered: its records, to output again (nothing is sent);
 * - an item whose earlier outcome is unknown (the platform may have acted): that failure, thrown again;
 * - otherwise `send`, which records the records it delivered, or the failure when its outcome is unknown (a refused
 *   item, or one that never reached the platform, is not recorded: it may be sent again).
 * The look-up and the send are two steps so that the bulk path can look every item up before sending any.
 */
export function atMostOnce(
	record: SendRecord,
	itemIndex: number,
	fingerprint: string,
): { records: IDataObject[] } | NotYetSent {
	const earlier = record.get(itemIndex, fingerprint);
	if (earlier && 'unknown' in earlier) throw earlier.unknown;
	if (earlier) return { records: earlier.records };
	return {
		async send(perform) {
			return await perform().then(
				(records) => {
					record.save(itemIndex, { fingerprint, records });
					return records;
				},
				async (error: unknown) => {
					if (error instanceof NodeApiError && error.context?.outcome === 'unknown')
						record.save(itemIndex, { fingerprint, unknown: error });
					return await Promise.reject(error);
				},
			);
		},
	};
}
