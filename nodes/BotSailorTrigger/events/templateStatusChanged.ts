import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { decodeJsonFields } from '../../shared/parameters/jsonStrings';
import { botSailorRequest } from '../../shared/http/transport';
import { listPayload } from '../polling/api';
import { phoneNumberIdOf, type TriggerEvent } from '../polling/event';

const EVENT = 'templateStatusChanged';

/** Bounded: the statuses of the MAX_TRACKED_TEMPLATES most recently updated templates of the number. */
export const MAX_TRACKED_TEMPLATES = 1000;

interface TemplateState {
	/** template_id → status. */
	statuses: Record<string, string>;
}

const idOf = (template: IDataObject) => String(template.template_id ?? template.id ?? '');
const statusOf = (template: IDataObject) => String(template.status ?? '');
const updatedAt = (template: IDataObject) => String(template.updated_at ?? '');

/** The number's templates, most recently updated first. */
async function listTemplates(context: IPollFunctions): Promise<IDataObject[]> {
	const envelope = await botSailorRequest.call(context, '/whatsapp/template/list', {
		phone_number_id: phoneNumberIdOf(context),
	});
	return listPayload(context, envelope)
		.filter((template) => idOf(template) !== '')
		.sort((a, b) => updatedAt(b).localeCompare(updatedAt(a)));
}

function statusesOf(templates: IDataObject[]): Record<string, string> {
	return Object.fromEntries(
		templates
			.slice(0, MAX_TRACKED_TEMPLATES)
			.map((template) => [idOf(template), statusOf(template)]),
	);
}

function templateItem(
	template: IDataObject,
	previous: string | null,
	phoneNumberId: string,
): IDataObject {
	return {
		...decodeJsonFields(template),
		previous_status: previous,
		phone_number_id: phoneNumberId,
	};
}

export const templateStatusChanged: TriggerEvent<TemplateState> = {
	value: EVENT,
	name: 'Template Status Changed',
	description: 'A message template was approved, rejected or otherwise changed status',
	perNumber: true,
	properties: [],
	scope: (context) => `${EVENT}:${phoneNumberIdOf(context)}`,
	stateVersion: 1,
	start: async (context) => ({ statuses: statusesOf(await listTemplates(context)) }),
	async poll(context, state) {
		const phoneNumberId = phoneNumberIdOf(context);
		const templates = await listTemplates(context);
		// A template not seen before is recorded silently: its first status is not a change.
		const items = templates
			.filter(
				(template) =>
					idOf(template) in state.statuses && state.statuses[idOf(template)] !== statusOf(template),
			)
			.reverse()
			.map((template) => templateItem(template, state.statuses[idOf(template)], phoneNumberId));
		return { items, state: { statuses: statusesOf(templates) } };
	},
	async newest(context) {
		const [template] = await listTemplates(context);
		return template ? templateItem(template, null, phoneNumberIdOf(context)) : undefined;
	},
};
