import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { payloadRecords } from '../../../shared/http/envelope';
import { botSailorRequest } from '../../../shared/http/transport';
import { matching } from '../../../shared/parameters/matching';
import { withNextPage } from '../../resources/resource';
import { recordsOf } from '../../../shared/parameters/values';
import { jsonFromText } from '../../../shared/parameters/jsonStrings';

/** Searchable lists of the user group: users, packages, modules, addons (and variations), addon purchases. */

async function records(
	context: ILoadOptionsFunctions,
	path: string,
	fields: IDataObject = {},
): Promise<IDataObject[]> {
	return payloadRecords(await botSailorRequest.call(context, path, fields));
}

/** One page of users (the API's largest), then the next through the page token. */
async function searchUsers(
	this: ILoadOptionsFunctions,
	filter?: string,
	pageToken?: string,
): Promise<INodeListSearchResult> {
	const page = Number(pageToken ?? 1) || 1;
	const envelope = await botSailorRequest.call(this, '/user/list', { limit: 1000, offset: page });
	const users = payloadRecords(envelope).map((user) => ({
		name: `${user.name} (${user.email})`,
		value: String(user.user_id),
	}));
	const next = Number(envelope.nextOffset);
	return withNextPage(
		matching(users, filter),
		Number.isInteger(next) && next > page ? String(next) : undefined,
	);
}

async function searchPackages(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const packages = await records(this, '/user/package/list');
	return matching(
		packages.map((entry) => ({
			name: `${entry.package_name}${entry.package_type === 'team' ? ' (team role)' : ''}`,
			value: String(entry.id),
		})),
		filter,
	);
}

async function searchModules(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const modules = await records(this, '/user/module/list');
	return matching(
		modules.map((module) => ({ name: String(module.module_name), value: String(module.id) })),
		filter,
	);
}

function variationsOf(addon: IDataObject): IDataObject[] {
	return recordsOf(
		typeof addon.variation_data === 'string'
			? jsonFromText(addon.variation_data)
			: addon.variation_data,
	);
}

async function searchAddons(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const addons = await records(this, '/user/addon/list');
	return matching(
		addons.map((addon) => ({ name: String(addon.addon_name), value: String(addon.id) })),
		filter,
	);
}

/** Each addon, followed by its variations as `<addon_id>-<index>` (index 0 is the first variation). */
async function searchAddonsAndVariations(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const addons = await records(this, '/user/addon/list');
	return matching(
		addons.flatMap((addon) => [
			{ name: String(addon.addon_name), value: String(addon.id) },
			...variationsOf(addon).map((variation, index) => ({
				name: `${addon.addon_name} → ${variation.name ?? `variation ${index + 1}`}`,
				value: `${addon.id}-${index}`,
			})),
		]),
		filter,
	);
}

async function searchAddonPurchases(
	this: ILoadOptionsFunctions,
	filter?: string,
	pageToken?: string,
): Promise<INodeListSearchResult> {
	const page = Number(pageToken ?? 1) || 1;
	const envelope = await botSailorRequest.call(this, '/user/addon/assign/list', {
		limit: 100,
		offset: page,
	});
	const purchases = payloadRecords(envelope).map((purchase) => ({
		name: `${purchase.addon_name} → ${purchase.name} (${purchase.email}) #${purchase.id}`,
		value: String(purchase.id),
	}));
	const next = Number(envelope.nextOffset);
	return withNextPage(
		matching(purchases, filter),
		Number.isInteger(next) && next > page ? String(next) : undefined,
	);
}

export const userGroupSearch = {
	searchUsers,
	searchPackages,
	searchModules,
	searchAddons,
	searchAddonsAndVariations,
	searchAddonPurchases,
};
