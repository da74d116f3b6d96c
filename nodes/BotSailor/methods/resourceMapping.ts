import type {
	ILoadOptionsFunctions,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';
import { locatorValue } from '../../shared/parameters/locatorValue';
import { listRecords } from '../../shared/http/envelope';
import { botSailorRequest } from '../../shared/http/transport';
import { recordOf } from '../../shared/parameters/values';
import { jsonFromText } from '../../shared/parameters/jsonStrings';

interface MapEntry {
	position?: unknown;
	label?: unknown;
}

function entries(value: unknown): MapEntry[] {
	return Array.isArray(value) ? (value as MapEntry[]) : [];
}

/**
 * Send Template's variables, from the chosen template's variable_map (header and body arrays of
 * position + label), one field per variable named as the API reads it: templateVariable-{LABEL}-{POSITION}.
 */
async function getTemplateVariables(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	// An expression (such as {{ $json.phone_number_id }}) has no value in the editor: say so rather than "choose".
	const raw = this.getCurrentNodeParameters() ?? {};
	const isExpression = (name: string) => {
		const value = raw[name];
		const inner = value && typeof value === 'object' && 'value' in value ? value.value : value;
		return typeof inner === 'string' && inner.startsWith('=');
	};
	const unresolved = [
		['phoneNumberId', 'WhatsApp Number'],
		['templateId', 'Template'],
	]
		.filter(([name]) => isExpression(name))
		.map(([, label]) => label);
	if (unresolved.length) {
		const what = `${unresolved.join(' and ')} ${unresolved.length > 1 ? 'are expressions' : 'is an expression'}`;
		return {
			fields: [],
			emptyFieldsNotice: `${what}, so the template's variables cannot be listed here. Pick from the list, or choose Variables → By Label and Position.`,
		};
	}
	const phoneNumberId = locatorValue(this, 'phoneNumberId');
	const templateId = locatorValue(this, 'templateId');
	if (!phoneNumberId || !templateId)
		return { fields: [], emptyFieldsNotice: 'Choose a WhatsApp number and a template first.' };
	const envelope = await botSailorRequest.call(this, '/whatsapp/template/list', {
		phone_number_id: phoneNumberId,
	});
	const templates = listRecords(envelope) ?? [];
	const template = templates.find((entry) => String(entry.template_id) === templateId);
	if (!template)
		return {
			fields: [],
			emptyFieldsNotice:
				'The template was not found on this number. Choose Variables → By Label and Position.',
		};
	const map = recordOf(
		typeof template.variable_map === 'string'
			? jsonFromText(template.variable_map)
			: template.variable_map,
	);
	const fields: ResourceMapperField[] = [];
	for (const section of ['header', 'body'] as const) {
		for (const entry of entries(map[section])) {
			const label = String(entry.label ?? '').trim();
			const position = Number(entry.position);
			if (!label || !Number.isInteger(position)) continue;
			fields.push({
				id: `templateVariable-${label}-${position}`,
				displayName: `${section === 'header' ? 'Header' : 'Body'} {{${position}}} (${label})`,
				// Every variable of the template must have a value: WhatsApp fails or sends a broken message otherwise.
				required: true,
				defaultMatch: false,
				display: true,
				type: 'string',
				canBeUsedToMatch: false,
			});
		}
	}
	return fields.length
		? { fields }
		: {
				fields,
				emptyFieldsNotice:
					'This template has no variable map. Choose Variables → By Label and Position if it has variables.',
			};
}

export const resourceMapping = {
	getTemplateVariables,
};
