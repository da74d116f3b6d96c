import type { INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

/** Keeps the entries whose name or value contains the filter, case-insensitively (the searchable dropdowns' filter box). */
export function matching(results: INodeListSearchItems[], filter?: string): INodeListSearchResult {
	const needle = (filter ?? '').trim().toLowerCase();
	return {
		results: needle
			? results.filter((entry) => `${entry.name} ${entry.value}`.toLowerCase().includes(needle))
			: results,
	};
}
