import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { catalogs, customFields, knownDeals, labels, sequences, teamMembers } from './lists';

/** Distinct options, in the order first seen. */
function distinct(options: INodePropertyOptions[]): INodePropertyOptions[] {
	const seen = new Set<string>();
	return options.filter(
		(option) => !seen.has(String(option.value)) && seen.add(String(option.value)),
	);
}

/** The platform has no pipeline list: offer the pipelines its deal overviews report (see knownDeals). */
async function getCrmPipelines(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const deals = await knownDeals(this);
	return distinct(
		deals
			.filter((deal) => deal.pipeline_id)
			.map((deal) => ({
				name: String(deal.pipeline_name ?? deal.pipeline_id),
				value: String(deal.pipeline_id),
			})),
	);
}

/** The stages seen in deal overviews, of the chosen pipeline when one is chosen. */
async function getCrmStages(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const deals = await knownDeals(this);
	let pipeline = '';
	try {
		pipeline = String(this.getCurrentNodeParameter('updateFields.pipelineId') ?? '');
	} catch {
		pipeline = '';
	}
	const inPipeline = deals.filter(
		(deal) => deal.stage_id && (!pipeline || String(deal.pipeline_id) === pipeline),
	);
	return distinct(
		inPipeline.map((deal) => ({
			name: `${String(deal.stage_name ?? deal.stage_id)} (${String(deal.pipeline_name ?? deal.pipeline_id)})`,
			value: String(deal.stage_id),
		})),
	);
}

/** The dropdowns' option lists; the account's lists come straight from lists.ts. */
export const loadOptions = {
	getLabels: labels,
	getSequences: sequences,
	getCustomFields: customFields,
	getTeamMembers: teamMembers,
	getCatalogs: catalogs,
	getCrmPipelines,
	getCrmStages,
};
