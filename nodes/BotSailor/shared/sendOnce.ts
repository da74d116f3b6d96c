import type {
	DeclarativeRestApiSettings,
	IExecutePaginationFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { apiToken, reportedFailure } from './request';
import { answersAsTool, asNodeError, errorItem } from './sendDefinition';

/**
 * The node-wide `requestOperations.pagination` (operations with their own, such as lists, replace
 * it): sends the operation's one request exactly as RoutingNode would, but a network failure
 * (dropped connection, timeout) becomes our NodeApiError naming the operation. Without it,
 * RoutingNode passes on the raw AxiosError, whose `config` holds the form body and headers with
 * the API token, into error items under Continue On Fail.
 */
export async function sendOnce(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	try {
		return await this.makeRoutingRequest(requestData);
	} catch (error) {
		const failure = reportedFailure(this, error, await apiToken(this), this.getItemIndex());
		// As an AI tool called through execute, the model gets the API's text as data (see answersAsTool).
		if (answersAsTool(this.getNode())) return [errorItem(asNodeError(this.getNode(), failure, this.getItemIndex()), this.getItemIndex())];
		throw failure;
	}
}

