import type {
	DeclarativeRestApiSettings,
	IExecutePaginationFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { onceOrRetriedIfRead, requestOnce } from '../../shared/http/transport';
import { answersAsTool, asNodeError, errorItem } from './itemResult';

/**
 * What an operation's own code runs with: n8n's per-item slot in a declarative node (resources/resource.ts). Its n8n
 * name is written only here, so the day n8n renames or reshapes the slot one line changes (resource.ts re-exports it
 * for the resources; the wings below resources/ import it from here).
 */
export type OperationContext = IExecutePaginationFunctions;

/**
 * The request of every operation that says nothing else of how it runs (no `send`, `list` or `execute` in its
 * record, resources/resource.ts). It sends the operation's request exactly as RoutingNode would, through the one door
 * (transport.ts requestOnce): a network failure becomes our NodeApiError naming the operation, where RoutingNode would
 * pass on the raw AxiosError, whose `config` holds the form body and headers with the API token. A read (an operation
 * of kind read) is repeated while it fails in a way worth repeating (retry.ts); anything else goes out once.
 */
export async function operationRequest(
	this: OperationContext,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const once = async () =>
		await requestOnce(
			this,
			requestData.options,
			async (options) => await this.makeRoutingRequest({ ...requestData, options }),
			{ itemIndex: this.getItemIndex() },
		);
	let failure: unknown;
	try {
		return await onceOrRetriedIfRead(requestData.options.url, once);
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
