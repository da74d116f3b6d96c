import type { IDataObject } from 'n8n-workflow';
import { isRecord } from './values';

/** WhatsApp message types whose content object may carry a `caption`. */
const MEDIA_TYPES = new Set(['image', 'video', 'document', 'audio', 'sticker']);

function objectAt(value: unknown, key: string): IDataObject | undefined {
	const inner = isRecord(value) ? value[key] : undefined;
	return isRecord(inner) ? inner : undefined;
}

function stringAt(value: IDataObject | undefined, key: string): string | undefined {
	const inner = value?.[key];
	return typeof inner === 'string' ? inner : undefined;
}

/** What a reply's text is in an interactive message: the chosen button or list row, or the message body. */
function interactiveText(interactive: IDataObject | undefined): string {
	return (
		stringAt(objectAt(interactive, 'button_reply'), 'title') ??
		stringAt(objectAt(interactive, 'list_reply'), 'title') ??
		stringAt(objectAt(interactive, 'body'), 'text') ??
		''
	);
}

/**
 * The flat fields a workflow switches on, read from a decoded `message_content` (WhatsApp's message
 * JSON): `text` (the text body, a media caption, a button's or list row's title, a reaction emoji; ''
 * when the message has none), `message_type`, and `caption` for media that carry one.
 */
export function flatMessageFields(content: unknown): IDataObject {
	if (typeof content === 'string') return { text: content, message_type: 'text' };
	if (!isRecord(content)) return { text: '', message_type: '' };
	const message = content;
	const type = typeof message.type === 'string' ? message.type : '';
	const body = objectAt(message, type);
	const fields: IDataObject = { text: '', message_type: type };
	if (MEDIA_TYPES.has(type)) {
		const caption = stringAt(body, 'caption');
		if (caption !== undefined) {
			fields.text = caption;
			fields.caption = caption;
		}
	} else if (type === 'text') {
		fields.text = stringAt(body, 'body') ?? '';
	} else if (type === 'interactive') {
		fields.text = interactiveText(body);
	} else if (type === 'button') {
		fields.text = stringAt(body, 'text') ?? '';
	} else if (type === 'reaction') {
		fields.text = stringAt(body, 'emoji') ?? '';
	}
	return fields;
}
