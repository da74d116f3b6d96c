import type { INode } from 'n8n-workflow';
import { OPERATION_NAMES, RESOURCE_NAMES, RESOURCE_OPERATION_NAMES } from './displayNames';

/** A value in words, for one the generated names do not know (a newer saved workflow). */
function words(value: string): string {
	const spaced = value.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
	return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/**
 * "Message → Send Text": the operation a failed call belongs to, read from the node's own
 * resource/operation parameters, so every error names what failed, in the display names the canvas
 * subtitle shows (displayNames.ts, generated from the node description).
 */
export function operationLabel(node: Pick<INode, 'parameters'>): string | undefined {
	const { resource, operation } = node.parameters ?? {};
	if (typeof resource !== 'string' || typeof operation !== 'string') return undefined;
	const operationName =
		RESOURCE_OPERATION_NAMES[`${resource}.${operation}`] ??
		OPERATION_NAMES[operation] ??
		words(operation);
	return `${RESOURCE_NAMES[resource] ?? words(resource)} → ${operationName}`;
}
