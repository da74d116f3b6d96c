import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { boundedMemory } from '../../../shared/parameters/boundedMemory';
import { locatorValue } from '../../../shared/parameters/locatorValue';
import { listRecords, payloadRecords } from '../../../shared/http/envelope';
import { botSailorRequest, usesEarlierForm } from '../../../shared/http/transport';

/** Fetches behind the dropdowns of the subscriber, CRM, label and catalog resources. */

/** The WhatsApp number currently chosen on the node, or ''. */
const chosenNumber = (context: ILoadOptionsFunctions) => locatorValue(context, 'phoneNumberId');

/** Options sorted by name, as people scan a long list of labels or sequences. */
function byName(options: INodePropertyOptions[]): INodePropertyOptions[] {
	return [...options].sort((a, b) => a.name.localeCompare(b.name));
}

export async function teamMembers(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	try {
		const envelope = await botSailorRequest.call(this, '/user/team-member/list');
		return payloadRecords(envelope).map((member) => ({
			name: `${member.name} (${member.email})`,
			value: String(member.id),
		}));
	} catch (error) {
		// An account without team members answers status 0 "No team member found": an empty list, not an error.
		if (error instanceof NodeApiError && /No team member found/i.test(error.message)) return [];
		throw new NodeOperationError(this.getNode(), error as Error);
	}
}

export async function labels(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const earlier = await usesEarlierForm(this);
	const phoneNumberId = chosenNumber(this);
	if (earlier && !phoneNumberId) return [];
	const envelope = earlier
		? await botSailorRequest.call(this, '/whatsapp/label/list', {
				phone_number_id: phoneNumberId,
			})
		: await botSailorRequest.call(this, '/label/list');
	return byName(
		payloadRecords(envelope).map((label) => ({
			name: String(label.label_name),
			value: String(label.id),
		})),
	);
}

export async function sequences(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const phoneNumberId = chosenNumber(this);
	if (!phoneNumberId) return [];
	const envelope = await botSailorRequest.call(this, '/whatsapp/subscriber/sequence/list', {
		phone_number_id: phoneNumberId,
	});
	return byName(
		payloadRecords(envelope).map((sequence) => ({
			name: String(sequence.name),
			value: String(sequence.id),
		})),
	);
}

export async function customFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const envelope = await botSailorRequest.call(this, '/whatsapp/subscriber/custom-fields/list');
	// The API maps custom fields by name (spec: Assign custom fields), so the name is the value.
	return payloadRecords(envelope, 'data').map((field) => ({
		name: String(field.name),
		value: String(field.name),
		description: `Type: ${field.reply_type}`,
	}));
}

export async function catalogs(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const envelope = await botSailorRequest.call(this, '/whatsapp/catalog/list');
	return payloadRecords(envelope).map((catalog) => ({
		name: String(catalog.catalog_name),
		value: String(catalog.catalog_id),
	}));
}

/** How many recently active subscribers' deals are read to learn the pipelines and stages in use. */
export const DEALS_SAMPLED = 20;
const DEALS_CACHE_MS = 60_000;
/** Per account, number and subscriber; a Promise hides its size, so each entry counts as DEALS_SAMPLED overviews of 4 kB. */
const dealCache = boundedMemory<string, Promise<IDataObject[]>>({
	maxEntries: 200,
	maxBytes: 200 * DEALS_SAMPLED * 4_096,
	ttlMs: DEALS_CACHE_MS,
	sizeOf: () => DEALS_SAMPLED * 4_096,
});

async function readDeals(
	context: ILoadOptionsFunctions,
	phoneNumberId: string,
	chosen: string,
): Promise<IDataObject[]> {
	const page = await botSailorRequest.call(context, '/whatsapp/subscriber/list', {
		phone_number_id: phoneNumberId,
		limit: DEALS_SAMPLED,
		offset: 1,
		orderBy: 1,
	});
	const others = (listRecords(page) ?? []).map((subscriber) =>
		String(subscriber.chat_id ?? subscriber.phone_number ?? '').replace(/\D/g, ''),
	);
	const phones = [...new Set([chosen, ...others].filter((phone) => phone !== ''))].slice(
		0,
		DEALS_SAMPLED,
	);
	const deals = await Promise.all(
		phones.map(async (phone) => {
			const envelope = await botSailorRequest.call(context, '/whatsapp/subscriber/crm/get', {
				phone_number_id: phoneNumberId,
				phone_number: phone,
			});
			return payloadRecords(envelope)[0];
		}),
	);
	return deals.filter((deal): deal is IDataObject => deal !== undefined);
}

/**
 * Deal overviews of the chosen subscriber and of the number's most recently active subscribers: the
 * platform has no list of pipelines and stages, but every overview names its own (spec: CRM overview
 * get). Cached for a minute, so the Pipeline and Stage dropdowns share one read.
 */
export async function knownDeals(context: ILoadOptionsFunctions): Promise<IDataObject[]> {
	const phoneNumberId = chosenNumber(context);
	if (!phoneNumberId) return [];
	const chosen = locatorValue(context, 'subscriber').replace(/\D/g, '');
	const key = [context.getNode().credentials?.botSailorApi?.id ?? '', phoneNumberId, chosen].join(
		'\u0000',
	);
	const cached = dealCache.get(key);
	if (cached) return await cached;
	const deals = readDeals(context, phoneNumberId, chosen);
	dealCache.set(key, deals);
	// A failed read is not kept: the next dropdown opening tries again.
	deals.catch(() => dealCache.delete(key));
	return await deals;
}
