import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { toolDescriptionField } from './toolDescriptions';

/**
 * One operation of a resource, written in its own file (`resources/<resource>/<operation>.ts`): its
 * entry in the Operation dropdown (name, value, action, description, routing) and its fields. The
 * fields carry no resource/operation displayOptions: `resource()` adds them (a field may still have
 * its own, such as `returnAll: [false]`, which are kept).
 */
export interface OperationDescription {
	/**
	 * What the operation does to the platform, written next to its endpoint: `read` (repeating it changes nothing,
	 * so its requests are retried: nodes/shared/readPaths.ts is generated from these), `write` (goes out once) or
	 * `send` (messages a customer: at most once, shared/delivery.ts).
	 */
	kind: OperationKind;
	/** The endpoint on deployments with the earlier API form, where it differs (Labels: under /whatsapp). */
	earlierUrl?: string;
	option: INodePropertyOptions & { value: string; action: string };
	fields: INodeProperties[];
}

export type OperationKind = 'read' | 'write' | 'send';

/** A resource: its operations as written, and the properties n8n shows (the Operation selector and the fields). */
export interface ResourceDescription {
	name: string;
	operations: readonly OperationDescription[];
	properties: INodeProperties[];
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
	// Compared by code unit: localeCompare would load ICU's collator while n8n loads the node (~25 ms).
	const options = operations
		.map((operation) => operation.option)
		.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
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
				// On the tool variant only: what a model is told about this operation (toolDescriptions.ts).
				...toolDescriptionField(`${name}.${operation.option.value}`, operation.fields),
			].map((field) => scoped(field, name, operation.option.value)),
		),
	];
	return { name, operations, properties };
}
