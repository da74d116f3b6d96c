import type { IDataObject } from 'n8n-workflow';
import { listRecords } from '../../shared/http/envelope';
import { FORM_CONTENT_TYPE } from '../../shared/http/transport';
import { jsonFromText } from '../../shared/parameters/jsonStrings';
import type { SendItem } from './sendItem';

/**
 * What each send put out, in Meta's terms (Meta bills per message by these; docs/message-kinds.md): `message_kind`
 * `free-form` (a session message: text, buttons, media, inside the 24-hour window) or `template`, and for a template
 * its `template_category` (`marketing`, `utility`, `authentication`) as the platform's template list gives it (the
 * `category` inside `template_json`, spec "Message template"; a top-level `category` where a deployment adds one).
 * The list is read once per run and WhatsApp number (TemplateCategories), after the first template went out, never
 * before a send: a list that cannot be read leaves `template_category` null, the send stands.
 */

export type MessageKind = 'free-form' | 'template';

/** What one send definition puts out: a template (and which), or a free-form message. */
export interface SentKind {
	kind: MessageKind;
	/** The template's id (the template list's `template_id`), when the send names one. */
	templateId?: string;
}

/** A template's category from its template-list record, lower case; null when the record does not say. */
export function categoryOf(template: IDataObject): string | null {
	const own = template.category;
	const json =
		typeof template.template_json === 'string'
			? jsonFromText(template.template_json)
			: template.template_json;
	const nested =
		json && typeof json === 'object' && !Array.isArray(json)
			? (json as IDataObject).category
			: undefined;
	const category = [own, nested].find((value) => typeof value === 'string' && value.trim());
	return typeof category === 'string' ? category.trim().toLowerCase() : null;
}

/** One run's template categories: WhatsApp number → (template_id → category), each list read once. */
export class TemplateCategories {
	private readonly lists = new Map<string, Promise<Map<string, string | null>>>();

	async of(item: SendItem, phoneNumberId: string, templateId: string): Promise<string | null> {
		let list = this.lists.get(phoneNumberId);
		if (!list) {
			list = readCategories(item, phoneNumberId);
			this.lists.set(phoneNumberId, list);
		}
		return (await list).get(templateId) ?? null;
	}
}

async function readCategories(
	item: SendItem,
	phoneNumberId: string,
): Promise<Map<string, string | null>> {
	try {
		const envelope = await item.request({
			method: 'POST',
			url: '/whatsapp/template/list',
			headers: { 'Content-Type': FORM_CONTENT_TYPE, Accept: 'application/json' },
			body: { phone_number_id: phoneNumberId },
		});
		return new Map(
			(listRecords(envelope) ?? []).map((template) => [
				String(template.template_id ?? ''),
				categoryOf(template),
			]),
		);
	} catch {
		// The message went out: an unreadable list only leaves its category unknown.
		return new Map();
	}
}

/** The records of one send with `message_kind` (and `template_category`) added; skipped records stay as they are. */
export async function withMessageKind(
	item: SendItem,
	records: IDataObject[],
	sent: (record: IDataObject) => SentKind | undefined,
	phoneNumberId: string,
	categories: TemplateCategories,
): Promise<IDataObject[]> {
	const result: IDataObject[] = [];
	for (const record of records) {
		const what = record.skipped === true ? undefined : sent(record);
		if (!what) {
			result.push(record);
			continue;
		}
		if (what.kind === 'free-form') {
			result.push({ ...record, message_kind: 'free-form' });
			continue;
		}
		const category = what.templateId
			? await categories.of(item, phoneNumberId, what.templateId)
			: null;
		result.push({ ...record, message_kind: 'template', template_category: category });
	}
	return result;
}

/** "Sent: 812 templates (marketing), 40 free-form": the run's records counted by kind and category. */
export function kindCounts(records: IDataObject[]): string {
	const counts = new Map<string, number>();
	for (const record of records) {
		if (record.message_kind === 'free-form')
			counts.set('free-form', (counts.get('free-form') ?? 0) + 1);
		else if (record.message_kind === 'template') {
			const key = `template:${typeof record.template_category === 'string' ? record.template_category : 'category unknown'}`;
			counts.set(key, (counts.get(key) ?? 0) + 1);
		}
	}
	const parts = [...counts]
		.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
		.map(([key, count]) =>
			key === 'free-form'
				? `${count} free-form`
				: `${count} template${count === 1 ? '' : 's'} (${key.slice('template:'.length)})`,
		);
	return parts.length ? `Sent: ${parts.join(', ')}` : '';
}
