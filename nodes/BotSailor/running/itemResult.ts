import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * How an item's result leaves the node, for every driver (the sends' bulk and declarative paths, uploads, downloads,
 * the request hook): its recipient, its failure as n8n's error pointing at the item, and the item a failure becomes
 * under Continue On Fail or as a tool's answer.
 */

/** A send's output record with the number it went to, which the platform's confirmation does not repeat. */
export function withRecipient(record: IDataObject, fields: IDataObject): IDataObject {
	return fields.phone_number === undefined
		? record
		: { ...record, phone_number: fields.phone_number };
}

/** Any failure of an item as n8n's error type, pointing at the item. */
export function asNodeError(
	node: INode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	const nodeError =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(node, error as Error, { itemIndex });
	nodeError.context = { ...nodeError.context, itemIndex };
	return nodeError;
}

/**
 * Whether a failure is answered as data rather than thrown. Only for a tool whose caller would hide a
 * thrown error: AI Agent 1.x/2.x run tools through LangChain's AgentExecutor, which turns any thrown
 * error into an empty string for the model, so the model gets `[{"error": "<the API's text>"}]` instead
 * (what AI Agent 3.x shows for a thrown error). The MCP Server Trigger passes a thrown error on in full
 * (`isError: true`, and n8n records the call as failed), so there the failure is thrown. Tools called
 * through `execute` see their caller's execute data (`getExecuteData().node`, public API since 1.x).
 */
export function answersAsTool(context: {
	getNode(): INode;
	getExecuteData?(): { node?: INode } | undefined;
}): boolean {
	if (!context.getNode().type.endsWith('Tool')) return false;
	const caller = context.getExecuteData?.()?.node?.type ?? '';
	return !caller.endsWith('.mcpTrigger');
}

/** The output item of a failed item under Continue On Fail: its message as JSON, the error, paired to its input. */
export function errorItem(
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	// Meta's refusal of the send (delivery.ts metaRefused): its code and meaning, for an IF or Switch to branch on.
	const refusal =
		typeof error.context?.failed_code === 'string'
			? { failed_code: error.context.failed_code, failed_meaning: error.context.failed_meaning }
			: {};
	return { json: { error: error.message, ...refusal }, error, pairedItem: { item: itemIndex } };
}
