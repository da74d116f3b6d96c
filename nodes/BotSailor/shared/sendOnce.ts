import type {
	DeclarativeRestApiSettings,
	IExecutePaginationFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { apiToken, transportError } from './request';

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
		throw await routingFailure(this, error);
	}
}

/**
 * The error to report for a failed `makeRoutingRequest`. n8n's request helper wraps a network
 * failure in a NodeApiError around the AxiosError (token inside); that becomes our transport error.
 * Our own errors (envelope, validation) carry no AxiosError and pass through unchanged.
 */
export async function routingFailure(context: IExecutePaginationFunctions, failure: unknown): Promise<unknown> {
	const cause = (failure as { cause?: Error & { isAxiosError?: boolean } }).cause;
	if (failure instanceof NodeOperationError) return failure;
	if (failure instanceof NodeApiError && cause?.isAxiosError !== true) return failure;
	const network = cause?.isAxiosError === true ? cause : (failure as Error);
	return transportError(context, network, await apiToken(context), context.getItemIndex());
}
