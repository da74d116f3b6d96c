import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';
import { testBotSailorApi } from '../shared/http/credentialTest';
import { searchWhatsAppNumbers, whatsAppNumberLocator } from '../shared/whatsapp/whatsAppNumber';
import { catalogOrderStatusChanged } from './events/catalogOrderStatusChanged';
import { messageStatusEvent } from './events/messageStatusChanged';
import { newCatalogOrder } from './events/newCatalogOrder';
import { newMessage } from './events/newMessage';
import { newSubscriber } from './events/newSubscriber';
import { templateStatusChanged } from './events/templateStatusChanged';
import { firstStarts } from '../shared/triggers/startedOnce';
import type { TriggerEvent } from './polling/event';
import { sendAndWaitAnswersProperties, takeAnswer } from '../shared/conversation/answerTaking';
import { pageOfItem } from '../shared/conversation/answeredQuestion';

/**
 * Every event, alphabetised by name as n8n lists options. Each keeps its own state type: the node
 * treats a state as opaque and gives it back only to the event (and version) that wrote it.
 */
const EVENTS: Array<TriggerEvent<unknown>> = [
	catalogOrderStatusChanged,
	messageStatusEvent,
	newCatalogOrder,
	newMessage,
	newSubscriber,
	templateStatusChanged,
];

/** The WhatsApp Number locator of every node, shown for the events that read one number. */
function whatsAppNumberProperty(): INodeProperties {
	return {
		...whatsAppNumberLocator(),
		displayOptions: {
			show: { event: EVENTS.filter((event) => event.perNumber).map((event) => event.value) },
		},
	};
}

/** What the node keeps between polls: which event/number the state is about, its version, and the event's state. */
interface Stored {
	scope?: string;
	/** The event's stateVersion when it was written; absent in states stored before versions existed (version 1). */
	version?: number;
	state?: unknown;
}

/**
 * The stored state as the event's current code may read it: a copy (n8n keeps the in-memory static data
 * between polls, so nothing may change before the poll succeeds) of the same version, or migrated from a
 * version the event knows. Anything else (another version, e.g. written by a newer or an older release
 * that the event cannot read) is undefined: the trigger starts from now, never feeding it to this code.
 */
function storedState(event: TriggerEvent<unknown>, stored: Stored): unknown {
	if (stored.state === undefined || stored.state === null) return undefined;
	const copy = JSON.parse(JSON.stringify(stored.state)) as unknown;
	const version = stored.version ?? 1;
	if (version === event.stateVersion) return copy;
	return event.migrate?.(copy, version);
}

/** The messages that answer no waiting question (those that do resumed it). */
async function untaken(context: IPollFunctions, items: IDataObject[]): Promise<IDataObject[]> {
	const left: IDataObject[] = [];
	for (const item of items) {
		const taken =
			item.direction === 'incoming'
				? await takeAnswer(
						context,
						{
							page: pageOfItem.get(item),
							phoneNumberId: String(item.phone_number_id ?? ''),
							phoneNumber: String(item.phone_number ?? ''),
							waMessageId: String(item.wa_message_id ?? ''),
							text: String(item.text ?? ''),
							name: typeof item.subscriber_name === 'string' ? item.subscriber_name : undefined,
						},
						{ lateReplies: false },
					)
				: undefined;
		if (!taken) left.push(item);
	}
	return left;
}

/** The n8n items of an event's records: JSON, plus what the event adds (binary data). */
async function emitted(
	context: IPollFunctions,
	event: TriggerEvent<unknown>,
	items: IDataObject[],
): Promise<INodeExecutionData[]> {
	return event.output ? await event.output(context, items) : context.helpers.returnJsonArray(items);
}

/**
 * A manual run ("Fetch Test Event", or a test of the whole workflow) emits ONE record, the newest, like n8n's own
 * polling triggers: a test acts on one sample at most. It reads no cursor and moves none. Called from poll() and
 * from execute(), which n8n runs instead of poll() in a manual run of a node that has both.
 */
async function sample(
	context: IPollFunctions,
	event: TriggerEvent<unknown>,
): Promise<INodeExecutionData[][] | null> {
	const newest = await event.newest(context);
	return newest ? [await emitted(context, event, [newest])] : null;
}

/**
 * The execute context as a poll's: the same parameters, credentials and helpers, but a poll reads a parameter as
 * (name, fallback, options) where an execution reads it as (name, itemIndex, fallback, options).
 */
function asPoll(context: IExecuteFunctions): IPollFunctions {
	const getNodeParameter = (name: string, fallback?: unknown, options?: unknown) =>
		context.getNodeParameter(name, 0, fallback as never, options as never);
	return new Proxy(context, {
		get(target, property) {
			if (property === 'getNodeParameter') return getNodeParameter;
			const value: unknown = Reflect.get(target, property, target);
			return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
		},
	}) as unknown as IPollFunctions;
}

export class BotSailorTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'BotSailor Trigger',
		name: 'botSailorTrigger',
		icon: { light: 'file:../../icons/botsailor.svg', dark: 'file:../../icons/botsailor.dark.svg' },
		group: ['trigger'],
		// 1.1: Send and Wait Answers defaults to Take Them (answers in the chat resume their execution, issue 45).
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle:
			'={{ ({"catalogOrderStatusChanged":"Catalog Order Status Changed","messageStatusChanged":"Message Status Changed","newCatalogOrder":"New Catalog Order","newMessage":"New Message","newSubscriber":"New Subscriber","templateStatusChanged":"Template Status Changed"}[$parameter["event"]] || $parameter["event"]) }}',
		// n8n's node picker lists this trigger inside the BotSailor action node's entry and shows THIS description
		// for the pair (editor-ui useActionsGeneration.ts: `app.description = trigger.description`): so it
		// starts with the action node's own description (test/codex.test.ts holds the two in step).
		description:
			'Send WhatsApp messages and manage subscribers, templates, CRM, catalogs and resellers on BotSailor; or start a workflow on its events',
		defaults: { name: 'BotSailor Trigger' },
		polling: true,
		// For n8n's AI workflow builder (n8n-workflow's IBuilderHint): when this trigger fits and when the webhook one does.
		builderHint: {
			searchHint:
				'Polling trigger for BotSailor WhatsApp: set event to newMessage, messageStatusChanged, newSubscriber, newCatalogOrder, catalogOrderStatusChanged or templateStatusChanged. Needs no setup on the platform but n8n polls at most once a minute; to answer customers within a second use BotSailor Webhook Trigger (event incomingMessage), optionally with this trigger as a safety net in the same workflow. Reply with the BotSailor node (message/sendText).',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-botsailor.botSailor',
					relationHint:
						'Answers or acts on the event: send messages, label subscribers, update orders',
				},
				{
					nodeType: 'n8n-nodes-botsailor.botSailorWebhookTrigger',
					relationHint: 'Instant trigger on the same messages; both may share one workflow',
				},
			],
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'botSailorApi', required: true, testedBy: 'botSailorApiTest' }],
		properties: [
			{
				// What a first test does is not obvious: n8n's button reads live data, and the workflow acts on it.
				displayName:
					'<b>Fetch Test Event</b> reads your newest real record (message, subscriber, order, template), and the nodes after this trigger act on it: a test of a workflow that sends a message sends it to that real subscriber. To test safely, pin sample data on this node first.',
				name: 'testNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: EVENTS.map((event) => ({
					name: event.name,
					value: event.value,
					description: event.description,
				})),
				default: 'newMessage',
			},
			whatsAppNumberProperty(),
			...EVENTS.flatMap((event) => event.properties),
			...sendAndWaitAnswersProperties(['newMessage'], 1.1),
		],
	};

	methods = {
		listSearch: { searchWhatsAppNumbers },
		credentialTest: { botSailorApiTest: testBotSailorApi },
	};

	/**
	 * The first step of every execution this trigger starts (n8n runs a trigger's execute() when it has one, on
	 * the worker in queue mode). New Message: passes on only the messages no execution of this workflow started
	 * before (the Webhook Trigger records them the same way; shared/triggers/startedOnce.ts), so that in queue mode too
	 * each message starts the workflow once. Other events pass unchanged. In a manual run n8n calls this
	 * instead of poll(): it reads the sample poll() would.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][] | null> {
		const eventName = this.getNodeParameter('event', 0) as string;
		const event = EVENTS.find((entry) => entry.value === eventName);
		// Nothing to sample: null, as poll() answers (n8n shows the run without output either way).
		if (this.getMode() === 'manual') return event ? await sample(asPoll(this), event) : null;
		const items = this.getInputData();
		return [eventName === 'newMessage' ? await firstStarts(this, items) : items];
	}

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const eventName = this.getNodeParameter('event') as string;
		const event = EVENTS.find((entry) => entry.value === eventName);
		if (!event) return null;

		if (this.getMode() === 'manual') return await sample(this, event);

		const stored = this.getWorkflowStaticData('node') as Stored;
		const scope = event.scope(this);
		let items: IDataObject[] = [];
		let state: unknown;
		const previous = stored.scope === scope ? storedState(event, stored) : undefined;
		if (previous !== undefined) {
			const result = await event.poll(this, previous);
			items = result.items;
			state = result.state;
		} else {
			// First activation (or another event/number, or a state of a version this code does not read): start from now, replay nothing.
			state = await event.start(this);
		}
		// Only now, after every request succeeded, the new state replaces the old one.
		stored.scope = scope;
		stored.version = event.stateVersion;
		stored.state = state;
		// A new message that answers a waiting Send and Wait question resumes it and starts nothing (shared/conversation/answerTaking.ts).
		// Late answers get no reply here: the Webhook Trigger, where there is one, has answered them already.
		if (
			items.length &&
			eventName === 'newMessage' &&
			this.getNodeParameter('sendAndWaitAnswers', 'startRun') === 'take'
		)
			items = await untaken(this, items);
		return items.length ? [await emitted(this, event, items)] : null;
	}
}
