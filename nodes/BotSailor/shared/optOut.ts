import type { IDataObject } from 'n8n-workflow';

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
