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
	/** What identifies one delivery, for deduplication; undefined when nothing does (every delivery starts). */
	key(body: IDataObject): DeliveryKey | undefined;
	/** Why the node's options leave this delivery out (for example a status not chosen), or undefined. */
	skipReason?(context: IWebhookFunctions, body: IDataObject): string | undefined;
	/** The output item (without `event_type` and `webhook_body`, which the node adds). */
	item(mapping: MappingContext, body: IDataObject): Promise<IDataObject>;
	/** The item as emitted, when the event attaches binary data to it (Incoming Message's Download Media). */
	emit?(mapping: MappingContext, item: IDataObject): Promise<INodeExecutionData>;
}

/**
 * The setup notice: which Production URL to copy (the node has two: `/webhook` for every field but
 * Outgoing Message, `/outgoing` for that one), that BotSailor's servers must reach it, where to paste
 * it (`where`: the second step), publish; the Secret and what a URL without one lets anyone do; the
 * Test URL's limit.
 */
export function setupNotice(where: string, urlFor = 'Incoming Message'): string {
	const path = urlFor === 'Outgoing Message' ? '/outgoing' : '/webhook';
	return (
		`<b>Setup</b>: 1. Open <b>Webhook URLs</b> above and copy the <b>Production URL</b> ending in <code>${path}</code>. BotSailor's servers must reach it: a <code>localhost</code> address works only for a simulator on the same machine; use an n8n on a public address (set <code>WEBHOOK_URL</code>) or a tunnel. ` +
		'<b>Set a Secret</b> below and add <code>?secret=</code> and the secret to the end of the URL: without it, anyone who learns the URL can start this workflow with messages they make up (any text, any phone number), and the workflow acts on them. ' +
		`2. ${where} ` +
		'3. Publish (activate) this workflow. The <b>Test URL</b> only answers while this editor is listening ("Listen for test event"), for one delivery.'
	);
}

/** Step 2 for the events set in Bot Settings → Webhook. */
export function botSettingsStep(field: string): string {
	return `In BotSailor open <b>Bot Settings → Webhook</b> of this WhatsApp number, paste the URL into the <b>${field}</b> field and select <b>Publish Changes</b>.${field === 'Incoming Message' ? ' The Outgoing Message field takes the other URL (ending in <code>/outgoing</code>, shown when Event is Outgoing Message or Any Event), never this one.' : ''}`;
}
