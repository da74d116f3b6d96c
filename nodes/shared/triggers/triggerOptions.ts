import type { INodeProperties, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';

/** What both triggers show beside their Event choice: a field's display rule, and Message Status Changed's Statuses. */

/** Display options that show a field for the given Event values. */
export function showForEvents(events: string[]): INodeProperties['displayOptions'] {
	return { show: { event: events } };
}

/** The message statuses the platform reports, in the order a message goes through them. */
const MESSAGE_STATUSES = ['sent', 'delivered', 'read', 'failed'];

/** Message Status Changed's Statuses option; `description` says what the trigger does with the others. */
export function statusesOption(event: string, description: string): INodeProperties {
	return {
		displayName: 'Statuses',
		name: 'statuses',
		type: 'multiOptions',
		options: [
			{ name: 'Delivered', value: 'delivered' },
			{ name: 'Failed', value: 'failed' },
			{ name: 'Read', value: 'read' },
			{ name: 'Sent', value: 'sent' },
		],
		default: ['delivered', 'read', 'failed'],
		description,
		displayOptions: showForEvents([event]),
	};
}

/** The statuses chosen in Statuses; none chosen means all. */
export function chosenStatuses(context: IPollFunctions | IWebhookFunctions): string[] {
	const chosen = context.getNodeParameter('statuses', MESSAGE_STATUSES) as string[];
	return chosen.length ? chosen : MESSAGE_STATUSES;
}
