import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { payloadRecords } from '../shared/envelope';
import { botSailorRequest, usesEarlierForm } from '../shared/request';

/** Fetches behind the dropdowns of the subscriber, CRM, label and catalog resources. */

/** A parameter's current value in the editor, or ''; a resource locator gives its value. */
function current(context: ILoadOptionsFunctions, name: string): string {
	let value: unknown;
	try {
		value = context.getCurrentNodeParameter(name);
	} catch {
		return '';
	}
	if (value && typeof value === 'object' && 'value' in value) value = (value as IDataObject).value;
	return value === undefined || value === null ? '' : String(value);
}

/** The WhatsApp number currently chosen on the node (locator value), or ''. */
export function chosenNumber(context: ILoadOptionsFunctions): string {
	return current(context, 'phoneNumberId');
}

/** Options sorted by name, as people scan a long list of labels or sequences. */
function byName(options: INodePropertyOptions[]): INodePropertyOptions[] {
	return [...options].sort((a, b) => a.name.localeCompare(b.name));
}

export async function teamMembers(context: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	try {
		const envelope = await botSailorRequest.call(context, '/user/team-member/list');
		return payloadRecords(envelope).map((member) => ({ name: `${member.name} (${member.email})`, value: String(member.id) }));
	} catch (error) {
		// An account without team members answers status 0 "No team member found": an empty list, not an error.
		if (error instanceof NodeApiError && /No team member found/i.test(error.message)) return [];
		throw new NodeOperationError(context.getNode(), error as Error);
	}
}

export async function labels(context: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const earlier = await usesEarlierForm(context);
	const phoneNumberId = chosenNumber(context);
	if (earlier && !phoneNumberId) return [];
	const envelope = earlier
		? await botSailorRequest.call(context, '/whatsapp/label/list', { phone_number_id: phoneNumberId })
		: await botSailorRequest.call(context, '/label/list');
	return byName(payloadRecords(envelope).map((label) => ({ name: String(label.label_name), value: String(label.id) })));
}

export async function sequences(context: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const phoneNumberId = chosenNumber(context);
	if (!phoneNumberId) return [];
	const envelope = await botSailorRequest.call(context, '/whatsapp/subscriber/sequence/list', { phone_number_id: phoneNumberId });
	return byName(payloadRecords(envelope).map((sequence) => ({ name: String(sequence.name), value: String(sequence.id) })));
}

export async function customFields(context: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const envelope = await botSailorRequest.call(context, '/whatsapp/subscriber/custom-fields/list');
	// The API maps custom fields by name (spec: Assign custom fields), so the name is the value.
	return payloadRecords(envelope, 'data').map((field) => ({ name: String(field.name), value: String(field.name), description: `Type: ${field.reply_type}` }));
}

export async function catalogs(context: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const envelope = await botSailorRequest.call(context, '/whatsapp/catalog/list');
	return payloadRecords(envelope).map((catalog) => ({ name: String(catalog.catalog_name), value: String(catalog.catalog_id) }));
}

/** The deal overview of the chosen subscriber, which names its pipeline and stage (spec: CRM overview update). */
export async function dealOverview(context: ILoadOptionsFunctions): Promise<IDataObject | undefined> {
	const phoneNumberId = chosenNumber(context);
	const phoneNumber = current(context, 'subscriber').replace(/\D/g, '');
	if (!phoneNumberId || !phoneNumber) return undefined;
	const envelope = await botSailorRequest.call(context, '/whatsapp/subscriber/crm/get', { phone_number_id: phoneNumberId, phone_number: phoneNumber });
	return payloadRecords(envelope)[0];
}
