import type { IDataObject } from 'n8n-workflow';
import { refuse, type ItemTarget } from '../parameters/inputs';
import { jsonFromText } from '../parameters/jsonStrings';

/**
 * WhatsApp's limits on what our sends send, refused before any request (the platform passes a message to Meta's
 * Cloud API, which refuses it, or cuts it, after the platform has taken it).
 * Source: Meta, WhatsApp Cloud API reference, Messages (developers.facebook.com/docs/whatsapp/cloud-api/reference/messages,
 * checked Nov 2026): text.body 4,096 characters; image, video and document caption 1,024; interactive body.text 1,024,
 * header.text 60, footer.text 60; reply buttons: 1 to 3, each title 20 characters and id 256.
 * Template sends (Send Template, Send Broadcast) carry only variables, whose limit depends on the template: not checked.
 * Characters are counted as Unicode code points (an emoji is one).
 */
export const WHATSAPP_LIMITS: Readonly<
	Record<string, Readonly<Record<string, { field: string; max: number }>>>
> = Object.freeze({
	'/whatsapp/send': { message: { field: 'Message', max: 4096 } },
	'/whatsapp/send/file': { media_caption_text: { field: 'Caption', max: 1024 } },
	'/whatsapp/send/interactive-buttons': {
		message: { field: 'Message', max: 1024 },
		button_header_text: { field: 'Header Text', max: 60 },
		button_footer_text: { field: 'Footer Text', max: 60 },
	},
});

/** Reply buttons: at most 3, each title at most 20 characters and each id at most 256 (same source). */
export const BUTTON_LIMITS = Object.freeze({ count: 3, title: 20, id: 256 });

const lengthOf = (text: string) => Array.from(text).length;

function tooLong(target: ItemTarget, field: string, length: number, max: number): never {
	return refuse(
		target,
		`${field} is too long for WhatsApp: ${length} characters, at most ${max}`,
		`Parameter "${field}" has ${length} characters; WhatsApp accepts at most ${max}. Shorten it, or split the text into several messages.`,
	);
}

/**
 * The fields of a send, checked against WhatsApp's limits (WHATSAPP_LIMITS): the first one over fails the item, naming
 * it (`names`: the parameters a field is made of, where the send builds it from more than one).
 */
export function checkWhatsAppLimits(
	target: ItemTarget,
	url: string,
	fields: IDataObject,
	names: Record<string, string> = {},
): IDataObject {
	for (const [name, limit] of Object.entries(WHATSAPP_LIMITS[url] ?? {})) {
		const value = fields[name];
		if (typeof value === 'string' && lengthOf(value) > limit.max)
			tooLong(target, names[name] ?? limit.field, lengthOf(value), limit.max);
	}
	if (url === '/whatsapp/send/interactive-buttons' && typeof fields.buttons === 'string') {
		const buttons = jsonFromText(fields.buttons);
		if (Array.isArray(buttons)) {
			if (buttons.length > BUTTON_LIMITS.count)
				refuse(
					target,
					`WhatsApp allows at most ${BUTTON_LIMITS.count} reply buttons`,
					`Parameter "Buttons" has ${buttons.length} buttons.`,
				);
			for (const [index, button] of buttons.entries()) {
				const { id, title } =
					typeof button === 'string'
						? { id: undefined, title: button }
						: (button as { id?: unknown; title?: unknown });
				if (typeof title === 'string' && lengthOf(title) > BUTTON_LIMITS.title)
					tooLong(target, `Button ${index + 1} Title`, lengthOf(title), BUTTON_LIMITS.title);
				if (typeof id === 'string' && lengthOf(id) > BUTTON_LIMITS.id)
					tooLong(target, `Button ${index + 1} ID`, lengthOf(id), BUTTON_LIMITS.id);
			}
		}
	}
	return fields;
}
