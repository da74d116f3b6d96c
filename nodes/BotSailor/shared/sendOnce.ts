import type {
	DeclarativeRestApiSettings,
	IExecutePaginationFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import {
	apiToken,
	isReadPath,
	reportedFailure,
	retryRead,
	withDeadline,
} from '../../shared/transport';
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
	const once = async () => {
		// Options → Timeout as a deadline for the whole request (transport.ts withDeadline).
		const deadline = withDeadline(this, requestData.options);
		try {
			return await this.makeRoutingRequest({ ...requestData, options: deadline.options });
		} catch (error) {
			throw reportedFailure(this, error, await apiToken(this), this.getItemIndex(), deadline);
		}
	};
	let failure: unknown;
	try {
		// A read is repeated while it fails in a way worth repeating (transport.ts, retryRead); anything else goes out once.
		return isReadPath(requestData.options.url) ? await retryRead(once) : await once();
	} catch (error) {
		failure = error;
	}
	// As an AI tool under an agent that hides thrown errors, the model gets the API's text as data (see answersAsTool).
	if (answersAsTool(this))
		return [
			errorItem(asNodeError(this.getNode(), failure, this.getItemIndex()), this.getItemIndex()),
		];
	throw failure;
}
