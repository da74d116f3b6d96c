import type { IDataObject } from 'n8n-workflow';
import { isRecord } from '../parameters/values';

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

const firstOf = (value: unknown): unknown => (Array.isArray(value) ? value[0] : undefined);

/**
 * The WhatsApp message inside a `message_content`: the content itself, or, for rows stored in Meta's
 * webhook format (SPEC-GAP: reported by integrators, not in the spec), `entry[0].changes[0].value.messages[0]`.
 * A Meta webhook that holds no message (a `value.statuses` report) gives undefined.
 */
export function innerMessage(content: unknown): unknown {
	if (!isRecord(content) || !Array.isArray(content.entry)) return content;
	const entry = firstOf(content.entry);
	const change = isRecord(entry) ? firstOf(entry.changes) : undefined;
	const messages = objectAt(change, 'value')?.messages;
	const message = firstOf(messages);
	return isRecord(message) ? message : undefined;
}

/**
 * The template of a template send: `{type: "template", template: {…}}` as sent to Meta, or the template
 * itself with no `type` (name, language, components), as deployments store template and broadcast sends.
 */
function templateOf(message: IDataObject): IDataObject | undefined {
	if (message.type === 'template') return objectAt(message, 'template') ?? message;
	if (
		message.type === undefined &&
		typeof message.name === 'string' &&
		Array.isArray(message.components)
	)
		return message;
	return undefined;
}

/** The body text of a template: its body component's `text`, else the body's parameters' texts. */
function templateText(template: IDataObject): string {
	const components: IDataObject[] = Array.isArray(template.components)
		? template.components.filter(isRecord)
		: [];
	const body = components.find(
		(component) => String(component.type ?? '').toLowerCase() === 'body',
	);
	if (!body) return '';
	if (typeof body.text === 'string') return body.text;
	const parameters: IDataObject[] = Array.isArray(body.parameters)
		? body.parameters.filter(isRecord)
		: [];
	return parameters
		.map((parameter) => stringAt(parameter, 'text'))
		.filter((value): value is string => value !== undefined)
		.join(' ');
}

/** The text of a panel event row (sender `system`): the content as text, or the text it holds. */
function systemText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (!isRecord(content)) return '';
	return (
		stringAt(content, 'text') ??
		stringAt(objectAt(content, 'text'), 'body') ??
		stringAt(content, 'message') ??
		stringAt(content, 'body') ??
		''
	);
}

/**
 * The flat fields a workflow switches on, read from a decoded `message_content` (WhatsApp's message
 * JSON, or Meta's webhook holding it): `text` (the text body, a media caption, a button's or list row's
 * title, a reaction emoji, a template's body; '' when the message has none), `message_type`, and
 * `caption` for media that carry one. `sender` "system" (a panel event such as "Label added: …") gives
 * `message_type` "system".
 */
export function flatMessageFields(content: unknown, sender?: string): IDataObject {
	if (sender === 'system') return { text: systemText(content), message_type: 'system' };
	if (typeof content === 'string') return { text: content, message_type: 'text' };
	const inner = innerMessage(content);
	if (!isRecord(inner)) return { text: '', message_type: '' };
	const message = inner;
	const template = templateOf(message);
	if (template) return { text: templateText(template), message_type: 'template' };
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
