import type { IDataObject } from 'n8n-workflow';
import { refuse } from '../../shared/parameters/inputs';
import type { SendItem } from './sendItem';

/** A template variable's field name: `templateVariable-{LABEL}-{POSITION}`. */
export const TEMPLATE_VARIABLE = /^templateVariable-(.+)-(\d+)$/;

const isEmpty = (value: unknown) =>
	value === undefined || value === null || String(value).trim() === '';

/**
 * The mapped and manual variables as `templateVariable-{LABEL}-{POSITION}` fields. Every variable
 * must have a value: the mapper lists all the template's variables (its schema), removed ones included.
 * Both are read whatever Variables shows (workflows saved before that choice may hold both).
 */
export function templateVariables(
	item: Pick<SendItem, 'param' | 'getNode' | 'getItemIndex'>,
): IDataObject {
	const fields: IDataObject = {};
	const manual = item.param('manualVariables.variable', []) as IDataObject[];
	for (const [index, row] of manual.entries()) {
		const label = String(row.label ?? '').trim();
		const position = Number(row.position);
		const where = 'Parameter "Manual Variables".';
		if (!/^[A-Za-z0-9_]+$/.test(label))
			refuse(
				item,
				`Manual variable ${index + 1}: Label must be letters, digits or underscores, e.g. first_name`,
				where,
			);
		if (!Number.isInteger(position) || position < 1)
			refuse(item, `Manual variable ${index + 1}: Position must be a whole number from 1`, where);
		if (isEmpty(row.value))
			refuse(
				item,
				`Manual variable ${index + 1} (${label}) is empty`,
				`${where} Every variable needs a value; remove the row if the template has no such variable.`,
			);
		fields[`templateVariable-${label}-${position}`] = String(row.value);
	}
	const mapper = (item.param('templateVariables', {}) ?? {}) as {
		value?: IDataObject | null;
		schema?: Array<{ id?: string; displayName?: string }>;
	};
	const mapped = mapper.value ?? {};
	const names = new Map<string, string>();
	for (const field of mapper.schema ?? [])
		if (field.id && TEMPLATE_VARIABLE.test(field.id))
			names.set(field.id, field.displayName ?? field.id);
	for (const key of Object.keys(mapped))
		if (TEMPLATE_VARIABLE.test(key) && !names.has(key)) names.set(key, key);
	for (const [key, name] of names) {
		// A manual variable of the same name wins (version 1 shows both fields).
		if (key in fields) continue;
		if (!isEmpty(mapped[key])) fields[key] = String(mapped[key]);
		else
			refuse(
				item,
				`Template variable ${name} is empty`,
				'Parameter "Template Variables": every variable of the template needs a value (an expression such as {{ $json.first_name }} or a text).',
			);
	}
	return fields;
}
