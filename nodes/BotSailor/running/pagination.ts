import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';
import { refuse } from '../../shared/parameters/inputs';
import { payloadRecords, type Page } from '../../shared/http/envelope';
import { toOutputItems } from './outputItems';
import { sendRequest, usesEarlierForm } from '../../shared/http/transport';
import { requestBody } from '../../shared/parameters/values';
import type { OperationContext } from './operationRequest';

export interface PageWalk {
	/** The endpoint's largest page. */
	maxPageSize: number;
	/** Stop after this many records; undefined returns all. */
	limit?: number;
}

/**
 * Page-number paging (`offset` is a page number from 1, the API answers `nextOffset`).
 * The page size stays constant, so page numbers stay meaningful; the walk stops on the limit,
 * a short page, or a missing or non-advancing `nextOffset`.
 */
export async function collectPages(
	fetchPage: (page: number, pageSize: number) => Promise<Page>,
	{ maxPageSize, limit }: PageWalk,
): Promise<IDataObject[]> {
	const pageSize = limit === undefined ? maxPageSize : Math.max(1, Math.min(maxPageSize, limit));
	const collected: IDataObject[] = [];
	let page = 1;
	for (;;) {
		const { records, nextOffset } = await fetchPage(page, pageSize);
		collected.push(...records);
		if (limit !== undefined && collected.length >= limit) return collected.slice(0, limit);
		const next = Number(nextOffset);
		if (records.length < pageSize || !Number.isInteger(next) || next <= page) return collected;
		page = next;
	}
}

/** How many records the user asked for: undefined for Return All. */
export function requestedLimit(context: OperationContext): number | undefined {
	if (context.getNodeParameter('returnAll', false) === true) return undefined;
	const limit = context.getNodeParameter('limit', 50) as unknown;
	const value = typeof limit === 'string' && limit.trim() !== '' ? Number(limit) : limit;
	// An expression can bypass the field's own minimum: refuse rather than send limit=NaN or return nothing.
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
		refuse(
			context,
			'Limit must be a whole number of at least 1',
			`The parameter "Limit" received ${JSON.stringify(limit)}.`,
		);
	}
	return value;
}

/**
 * How a list runs (an operation record's `list`, resources/resource.ts): page by page up to the limit.
 * `unpaginatedInEarlierForm`: the earlier interface had no paging parameters on this list,
 * so one request is sent without them and the limit is applied to what comes back.
 */
export function paginate(
	maxPageSize: number,
	{ unpaginatedInEarlierForm = false } = {},
): (
	this: OperationContext,
	requestData: DeclarativeRestApiSettings.ResultOptions,
) => Promise<INodeExecutionData[]> {
	return async function (this: OperationContext, requestData) {
		const limit = requestedLimit(this);
		const request = requestData.options as IHttpRequestOptions;
		const baseBody = requestBody(request);
		const itemIndex = this.getItemIndex();
		const fetchPage = async (page: number, pageSize: number): Promise<Page> => {
			const envelope = await sendRequest.call(
				this,
				{ ...request, body: { ...baseBody, limit: pageSize, offset: page } },
				itemIndex,
			);
			return { records: payloadRecords(envelope, 'message'), nextOffset: envelope.nextOffset };
		};

		let records: IDataObject[];
		if (unpaginatedInEarlierForm && (await usesEarlierForm(this))) {
			const envelope = await sendRequest.call(this, request, itemIndex);
			records = payloadRecords(envelope, 'message');
			if (limit !== undefined) records = records.slice(0, limit);
		} else {
			records = await collectPages(fetchPage, { maxPageSize, limit });
		}
		return toOutputItems(this, records);
	};
}
