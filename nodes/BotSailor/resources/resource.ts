import type {
	DeclarativeRestApiSettings,
	INodeExecutionData,
	INodeListSearchResult,
	INodeProperties,
	INodePropertyOptions,
	INodePropertyRouting,
} from 'n8n-workflow';
import { sendOnce, sendRouting } from '../sending/declarativeSend';
import { operationRequest, type OperationContext } from '../running/operationRequest';
import { paginate, type PageWalk } from '../running/pagination';
import type { SendDefinition } from '../sending/sendDefinition';
import { toolDescriptionField } from './toolDescriptionField';
import { byCodeUnit } from '../../shared/parameters/fieldOrder';

// For an operation's own code that reads a list: how many records the user asked for.
export { requestedLimit } from '../running/pagination';
// What an operation's own code runs with (one name for n8n's slot type, running/operationRequest.ts).
export type { OperationContext } from '../running/operationRequest';

/** An operation's own code, run by n8n's declarative engine once per item in place of the request (see `routingOf`). */
export type ItemRun = (
	this: OperationContext,
	requestData: DeclarativeRestApiSettings.ResultOptions,
) => Promise<INodeExecutionData[]>;

/**
 * One operation of a resource, written in its own file (`resources/<resource>/<operation>.ts`): its
 * entry in the Operation dropdown (name, value, action, description, routing) and its fields. The
 * fields carry no resource/operation displayOptions: `resource()` adds them (a field may still have
 * its own, such as `returnAll: [false]`, which are kept).
 */
export interface OperationDescription {
	/**
	 * What the operation does to the platform, written next to its endpoint: `read` (repeating it changes nothing,
	 * so its requests are retried: nodes/shared/http/readPaths.ts is generated from these), `write` (goes out once) or
	 * `send` (messages a customer: at most once, sending/delivery.ts).
	 */
	kind: OperationKind;
	/** The endpoint on deployments with the earlier API form, where it differs (Labels: under /whatsapp). */
	earlierUrl?: string;
	/** The Operation dropdown's entry. Its `routing` builds the request (url, body, preSend, postReceive); how the
	 * operation runs is said by one of `send`, `list` and `execute` below, not in the routing. */
	option: INodePropertyOptions & { value: string; action: string };
	fields: INodeProperties[];
	/**
	 * What an AI model (an AI Agent, or any MCP client through n8n's MCP Server Trigger) is told about the operation
	 * when the node is used as a tool: what it does, when to use it, its limits (toolDescriptionField.ts adds the
	 * number it acts for and the phone format). Every operation of the node has one (test/toolDescriptions.test.ts).
	 */
	toolDescription?: string;
	/** Its answer carries text a customer wrote: the model is told that text is data, never instructions (issue 42). */
	returnsCustomerText?: true;
	/** A send: each item is delivered at most once (sending/bulkSend.ts in a workflow, sending/declarativeSend.ts elsewhere). */
	send?: SendDefinition;
	/** A list read page by page (running/pagination.ts): the endpoint's largest page, and whether the earlier API form
	 * answers it in one page without paging parameters. */
	list?: Pick<PageWalk, 'maxPageSize'> & { unpaginatedInEarlierForm?: boolean };
	/** Its own code, once per item (more than one request, or an answer shaped by us). */
	execute?: ItemRun;
}

export type OperationKind = 'read' | 'write' | 'send';

/** A resource: its operations as written, and the properties n8n shows (the Operation selector and the fields). */
export interface ResourceDescription {
	name: string;
	operations: readonly OperationDescription[];
	properties: INodeProperties[];
}

/**
 * How n8n's declarative engine (RoutingNode) runs an operation, for every operation in this one place. RoutingNode
 * calls the routing's `operations.pagination` function, when `send.paginate` is on, in place of sending the request
 * itself: it is the one hook n8n gives a declarative node to run its own code per item, so every operation uses it,
 * paging or not: a send (delivered at most once), a list (page by page), an operation's own code, or else the
 * request as the routing built it, through the one door (operationRequest.ts: errors without the API token).
 */
function routingOf(operation: OperationDescription): INodePropertyRouting {
	const { send, list, execute } = operation;
	if ([send, list, execute].filter(Boolean).length > 1)
		throw new Error(`${operation.option.value}: at most one of send, list and execute`);
	const own = operation.option.routing ?? {};
	const routing = send ? { ...own, ...sendRouting(send) } : own;
	const run: ItemRun = send
		? sendOnce(send)
		: list
			? paginate(list.maxPageSize, list)
			: (execute ?? operationRequest);
	return {
		...routing,
		send: { ...routing.send, paginate: true },
		operations: { ...routing.operations, pagination: run },
	};
}

/**
 * A list search's answer with the token of its next page (methods/listSearch/), so that n8n's paging words stay in
 * this one file: the per-item hook above and this token.
 */
export function withNextPage(
	answer: INodeListSearchResult,
	nextPage: string | undefined,
): INodeListSearchResult {
	return { ...answer, paginationToken: nextPage };
}

/** A field shown for one operation: its own displayOptions with the resource and operation added. */
function scoped(field: INodeProperties, resource: string, operation: string): INodeProperties {
	const own = field.displayOptions?.show ?? {};
	if ('resource' in own || 'operation' in own) {
		throw new Error(
			`${resource} → ${operation}: field "${field.name}" sets its own resource/operation displayOptions`,
		);
	}
	return {
		...field,
		displayOptions: {
			...field.displayOptions,
			show: { resource: [resource], operation: [operation], ...own },
		},
	};
}

/**
 * A resource's description: the Operation selector (options sorted by name, as n8n's lint orders
 * them) followed by each operation's fields, scoped to that operation. The same parameter name may
 * appear once per operation; n8n shows the one whose displayOptions match.
 */
export function resource(
	name: string,
	operations: OperationDescription[],
	{ default: defaultOperation }: { default: string },
): ResourceDescription {
	const options = operations
		.map(
			(operation): INodePropertyOptions => ({ ...operation.option, routing: routingOf(operation) }),
		)
		.sort((a, b) => byCodeUnit(a.name, b.name));
	if (!options.some((option) => option.value === defaultOperation))
		throw new Error(`${name}: no operation "${defaultOperation}"`);
	const properties: INodeProperties[] = [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [name] } },
			options,
			default: defaultOperation,
		},
		...operations.flatMap((operation) =>
			[
				...operation.fields,
				// On the tool variant only: what a model is told about this operation (toolDescriptionField.ts).
				...toolDescriptionField(operation, operation.fields),
			].map((field) => scoped(field, name, operation.option.value)),
		),
	];
	return { name, operations, properties };
}
