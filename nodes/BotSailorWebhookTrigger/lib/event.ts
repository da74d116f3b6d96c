import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	IWebhookFunctions,
} from 'n8n-workflow';

/** How long a delivery's key is remembered: a key with an id or a time for a day, one made of content only for the Duplicate Window. */
export type KeyLife = 'id' | 'content';

export interface DeliveryKey {
	key: string;
	life: KeyLife;
}

/** What an event's mapping needs besides the body. */
export interface MappingContext {
	context: IWebhookFunctions;
	/** The node's WhatsApp Number (phone_number_id), '' when not set. */
	phoneNumberId: string;
}

/** One event of the webhook trigger, in its own file under events/. */
export interface WebhookEvent {
	value: string;
	name: string;
	description: string;
	/** The setup notice shown for the event: where in the platform the URL goes. */
	setup: string;
	/** The event's own parameters (shown only for it). */
	properties: INodeProperties[];
	/** Whether a flat body is this event. */
	matches(body: IDataObject): boolean;
	/** What identifies the delivery, for deduplication. */
	key(body: IDataObject): DeliveryKey;
	/** Why the node's options leave this delivery out (for example a status not chosen), or undefined. */
	skipReason?(context: IWebhookFunctions, body: IDataObject): string | undefined;
	/** The output item (without `event_type` and `webhook_body`, which the node adds). */
	item(mapping: MappingContext, body: IDataObject): Promise<IDataObject>;
	/** The item as emitted, when the event attaches binary data to it (Incoming Message's Download Media). */
	emit?(mapping: MappingContext, item: IDataObject): Promise<INodeExecutionData>;
}

export function showForEvents(events: string[]): INodeProperties['displayOptions'] {
	return { show: { event: events } };
}

/**
 * The setup notice: copy the URL, paste it where the platform posts this event (`where`: the second
 * step), publish; and the Test URL's limit.
 */
export function setupNotice(where: string): string {
	return (
		'<b>Setup</b>: 1. Open <b>Webhook URLs</b> above and copy the <b>Production URL</b>; if you set a Secret below, add <code>?secret=</code> and the secret to its end. ' +
		`2. ${where} ` +
		'3. Publish (activate) this workflow. The <b>Test URL</b> only answers while this editor is listening ("Listen for test event"), for one delivery.'
	);
}

/** Step 2 for the events set in Bot Settings → Webhook. */
export function botSettingsStep(field: string): string {
	return `In BotSailor open <b>Bot Settings → Webhook</b> of this WhatsApp number, paste the URL into the <b>${field}</b> field and select <b>Publish Changes</b>.`;
}
