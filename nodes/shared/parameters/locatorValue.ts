import type {
	IExecuteSingleFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

/** Any context of the package's nodes that reads the node's parameters. */
export type ParameterContext =
	| IExecuteSingleFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IWebhookFunctions;

/**
 * A parameter's value as text, trimmed, or '' when unset: a resource locator (WhatsApp Number, Template,
 * Subscriber) gives its value whichever mode the user picked; a number is read as its digits; a parameter
 * the current operation does not show is unset.
 */
export function locatorValue(context: ParameterContext, name: string): string {
	let value: unknown;
	try {
		value = context.getNodeParameter(name, '', { extractValue: true });
	} catch {
		// n8n throws when the parameter is not shown for the current operation: it is unset there.
		return '';
	}
	return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
}
