import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { locatorValue } from '../../../shared/parameters/locatorValue';
import { listRecords } from '../../../shared/http/envelope';
import { botSailorRequest } from '../../../shared/http/transport';
import { matching } from '../../../shared/parameters/matching';

/** Rows of a list endpoint of the chosen WhatsApp number, or none until a number is chosen. */
async function listOfNumber(context: ILoadOptionsFunctions, path: string): Promise<IDataObject[]> {
	const phoneNumberId = locatorValue(context, 'phoneNumberId');
	if (!phoneNumberId) return [];
	const envelope = await botSailorRequest.call(context, path, { phone_number_id: phoneNumberId });
	return listRecords(envelope) ?? [];
}

const isApproved = (template: IDataObject) => String(template.status).toUpperCase() === 'APPROVED';

/**
 * Templates as "name (language)", approved ones first; a template WhatsApp has not approved says so,
 * since it cannot be sent. The value is the template_id that send template and template status take.
 */
async function searchTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const templates = await listOfNumber(this, '/whatsapp/template/list');
	const ordered = [
		...templates.filter(isApproved),
		...templates.filter((template) => !isApproved(template)),
	];
	return matching(
		ordered.map((template) => ({
			name: `${template.template_name} (${template.locale})${isApproved(template) ? '' : ` – ${template.status}, not sendable yet`}`,
			value: String(template.template_id),
		})),
		filter,
	);
}

/** Bot flows by name; the value is the unique_id that trigger bot takes. */
async function searchBotFlows(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const flows = await listOfNumber(this, '/whatsapp/get/bot-flow-list');
	return matching(
		flows.map((flow) => ({ name: String(flow.name), value: String(flow.unique_id) })),
		filter,
	);
}

export const messagingSearch = { searchTemplates, searchBotFlows };
