import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { listRecords } from '../../shared/http/envelope';
import { jsonFromText } from '../../shared/parameters/jsonStrings';
import { botSailorRequest } from '../../shared/http/transport';
import { isRecord } from '../../shared/parameters/values';
import { checkFields, inputs, onFirstUse, refuse, z } from '../../shared/parameters/inputs';
import { templateVariables } from '../sending/templateVariables';
import type { SendItem } from '../sending/sendItem';

/**
 * Send and Wait's "Send As: Template": an approved template carries the question outside the 24-hour
 * window, one of its variables the answer link. Read and checked before any request.
 */
export interface TemplateQuestion {
	template_id: string;
	/** The template's other variables, as Send Template sends them. */
	variables: IDataObject;
	/** The variable that carries the link, as `templateVariable-{label}-{position}`. */
	linkVariable: string;
	/** A URL button's fixed start: the link must begin with it, and only the rest is sent. */
	linkBaseUrl?: string;
}

const schema = onFirstUse(() =>
	z.object({
		template_id: inputs.required.describe('Template'),
		link_variable: inputs.required.describe('Link Variable'),
	}),
);

const LINK_VARIABLE = /^(?:templateVariable-)?([A-Za-z0-9_]+)-([1-9]\d*)$/;

export function readTemplate(
	item: Pick<SendItem, 'param' | 'getNode' | 'getItemIndex'>,
): TemplateQuestion {
	const checked = checkFields(item, schema(), {
		template_id: item.param('templateId', undefined, { extractValue: true }),
		link_variable: String(item.param('linkVariable', '') ?? '').trim(),
	});
	const match = LINK_VARIABLE.exec(String(checked.link_variable));
	if (!match)
		refuse(
			item,
			`Link Variable "${String(checked.link_variable)}" is not a template variable`,
			'Parameter "Link Variable": write it as templateVariable-{label}-{position}, e.g. templateVariable-answer_link-1.',
		);
	const linkVariable = `templateVariable-${match[1]}-${match[2]}`;
	const variables = templateVariables(item);
	if (linkVariable in variables)
		refuse(
			item,
			`${linkVariable} is both the Link Variable and one of Other Variables`,
			'The node fills the Link Variable with the answer link: remove it from "Other Variables".',
		);
	const base = String(item.param('linkBaseUrl', '') ?? '').trim();
	if (base && !/^https?:\/\/\S+$/.test(base))
		refuse(
			item,
			'Button Base URL must be a URL, e.g. https://n8n.example.com/webhook-waiting/',
			'Parameter "Button Base URL". Leave it empty when the variable carries the whole link.',
		);
	return {
		template_id: String(checked.template_id),
		variables,
		linkVariable,
		...(base ? { linkBaseUrl: base } : {}),
	};
}

/** `https://host/webhook-waiting/` of `https://host/webhook-waiting/{execution}/{node}?…`: what every answer link of this n8n starts with. */
const linkStart = (link: string) => link.split('?')[0].replace(/\/[^/]*\/[^/]*$/, '/');

/** The value of the link variable: the whole link, or for a URL button the part after its fixed start. */
export function linkValue(
	item: Pick<SendItem, 'getNode' | 'getItemIndex'>,
	template: TemplateQuestion,
	link: string,
): string {
	if (!template.linkBaseUrl) return link;
	if (!link.startsWith(template.linkBaseUrl))
		refuse(
			item,
			'The answer link does not start with the Button Base URL',
			`Parameter "Button Base URL" is ${template.linkBaseUrl}, but this n8n's answer links start with ${linkStart(link)}. Make the template's button URL start with that.`,
		);
	return link.slice(template.linkBaseUrl.length);
}

const quickReplyTexts = (buttons: unknown): string[] =>
	Array.isArray(buttons)
		? buttons
				.filter(
					(button): button is IDataObject =>
						isRecord(button) && /^quick_?reply$/i.test(String(button.type ?? '')),
				)
				.map((button) => String(button.text ?? '').trim())
				.filter(Boolean)
		: [];

/**
 * The texts of a template's quick-reply buttons, in order, as the template list shows them (`button_content`, else
 * the BUTTONS component of `template_json`). Empty when the template has none or cannot be read: then the node cannot
 * tell a tap apart, and the answer link is the way to answer. One read, under the node's credential.
 */
export async function quickReplyTitles(
	context: IExecuteFunctions,
	phoneNumberId: string,
	templateId: string,
): Promise<string[]> {
	try {
		const envelope = await botSailorRequest.call(context, '/whatsapp/template/list', {
			phone_number_id: phoneNumberId,
		});
		const template = (listRecords(envelope) ?? []).find(
			(entry) => String(entry.template_id) === templateId,
		);
		if (!template) return [];
		const decode = (value: unknown) => (typeof value === 'string' ? jsonFromText(value) : value);
		const fromButtons = quickReplyTexts(decode(template.button_content));
		if (fromButtons.length) return fromButtons;
		const json = decode(template.template_json);
		const components = isRecord(json) && Array.isArray(json.components) ? json.components : [];
		return components.flatMap((component: unknown) =>
			isRecord(component) && String(component.type ?? '').toUpperCase() === 'BUTTONS'
				? quickReplyTexts(component.buttons)
				: [],
		);
	} catch {
		return [];
	}
}
