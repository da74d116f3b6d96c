import type { IDataObject } from 'n8n-workflow';
import { listRecords } from '../../shared/http/envelope';
import { decodedListPayload } from '../../shared/http/listText';
import { isRecord } from '../../shared/parameters/values';
import { refuse, type ItemTarget } from '../../shared/parameters/inputs';

/**
 * Opt-outs (Subscriber → Opt Out / Opt In): an opted-out subscriber carries a label, by default this one, which
 * the user may rename in the operation. A send that must skip opted-out subscribers reads the subscriber
 * (Subscriber → Get: `label_names`, comma-separated) and asks `hasOptOutLabel`.
 */
export const DEFAULT_OPT_OUT_LABEL = 'opted-out';

/** The label names of a subscriber record (`label_names`, comma-separated text, or a list). */
export function labelNamesOf(subscriber: IDataObject): string[] {
	const names = subscriber.label_names;
	const list = Array.isArray(names) ? names.map(String) : String(names ?? '').split(',');
	return list.map((name) => name.trim()).filter((name) => name !== '');
}

/** Whether a subscriber record (as Subscriber → Get outputs it) carries the opt-out label (case and spaces ignored). */
export function hasOptOutLabel(subscriber: IDataObject, label = DEFAULT_OPT_OUT_LABEL): boolean {
	const wanted = label.trim().toLowerCase();
	return wanted !== '' && labelNamesOf(subscriber).some((name) => name.toLowerCase() === wanted);
}

/**
 * What Subscriber → Get's answer says about the opt-out label, read strictly (a check before a send fails closed):
 * - `optedOut`: every record has readable `label_names` (text, or a list of texts), and whether one carries the label;
 * - `noSubscriber`: the platform lists no subscriber with this number (`message: []`); the number is sent to;
 * - `unreadable`: anything else (`message` text, `{}`, missing, a record without `label_names` or with it as another
 *   type): never read as "not opted out". SPEC-GAP: the spec shows `label_names` as comma-separated text.
 */
export type OptOutReading = { optedOut: boolean } | { noSubscriber: true } | { unreadable: string };

const shown = (value: unknown) => {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	return `"${text.length > 80 ? `${text.slice(0, 80)}…` : text}"`;
};

function typeOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list that is not all text';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export function readOptOut(envelope: IDataObject, label: string): OptOutReading {
	const sent = envelope.message;
	if (sent === undefined || sent === null || sent === '')
		return { unreadable: 'the answer holds no subscriber record (no "message")' };
	const payload = decodedListPayload(sent);
	if (Array.isArray(payload) && payload.length === 0) return { noSubscriber: true };
	if (Array.isArray(payload) && !payload.every(isRecord))
		return {
			unreadable: `the answer's "message" is a list of ${shown(payload)}, not of subscriber records`,
		};
	const records = listRecords(envelope);
	if (!records)
		return { unreadable: `the answer's "message" is not a subscriber record: ${shown(sent)}` };
	if (records.length === 0 || records.every((record) => Object.keys(record).length === 0))
		return { unreadable: `the answer's "message" is an empty record: ${shown(sent)}` };
	for (const record of records) {
		if (!('label_names' in record))
			return { unreadable: 'the subscriber record has no "label_names"' };
		const names = record.label_names;
		const readable =
			typeof names === 'string' ||
			(Array.isArray(names) && names.every((name) => typeof name === 'string'));
		if (!readable)
			return {
				unreadable: `the subscriber record's "label_names" is ${typeOf(names)} (${shown(names)}), not text`,
			};
	}
	return { optedOut: records.some((record) => hasOptOutLabel(record, label)) };
}

/** What a send does when Subscriber → Get's answer does not show whether the subscriber opted out (field in skipOptedOut.ts). */
export type OptOutUnreadable = 'fail' | 'skip';

/** The item's choice for an unreadable opt-out (checked before any request), or undefined when it does not skip opted-out subscribers. */
export function optOutUnreadableOf(
	item: ItemTarget & { param(name: string, fallback?: unknown): unknown },
): OptOutUnreadable | undefined {
	if (item.param('skipOptedOut', false) !== true) return undefined;
	const choice = String(item.param('optOutUnreadable', 'fail'));
	if (choice !== 'fail' && choice !== 'skip')
		refuse(
			item,
			`When Opt-Out Cannot Be Read must be Fail Item or Skip Item, not "${choice}"`,
			'Parameter "When Opt-Out Cannot Be Read".',
		);
	return choice;
}
