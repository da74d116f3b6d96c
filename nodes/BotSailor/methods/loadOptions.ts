import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { catalogs, customFields, dealOverview, labels, sequences, teamMembers } from './lists';

async function getLabels(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await labels(this);
}

async function getSequences(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await sequences(this);
}

async function getCustomFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await customFields(this);
}

async function getTeamMembers(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await teamMembers(this);
}

async function getCatalogs(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await catalogs(this);
}

/** The platform has no pipeline list: offer what the subscriber's deal overview reports. */
async function getCrmPipelines(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const deal = await dealOverview(this);
	return deal?.pipeline_id ? [{ name: String(deal.pipeline_name ?? deal.pipeline_id), value: String(deal.pipeline_id) }] : [];
}

async function getCrmStages(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const deal = await dealOverview(this);
	return deal?.stage_id ? [{ name: String(deal.stage_name ?? deal.stage_id), value: String(deal.stage_id) }] : [];
}

export const loadOptions = {
	getLabels,
	getSequences,
	getCustomFields,
	getTeamMembers,
	getCatalogs,
	getCrmPipelines,
	getCrmStages,
};
