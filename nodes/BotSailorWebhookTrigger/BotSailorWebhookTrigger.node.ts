import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';
import { testBotSailorApi } from '../shared/http/credentialTest';
import { searchWhatsAppNumbers, whatsAppNumberLocator } from '../shared/whatsapp/whatsAppNumber';
import {
	claimDelivery,
	ID_TTL_SECONDS,
	isShared,
	refreshSnapshot,
	releaseMemory,
} from '../shared/triggers/deliveryMemory';
import { locatorValue } from '../shared/parameters/locatorValue';
import { firstStarts } from '../shared/triggers/startedOnce';
import { ANY_EVENT, EVENTS, eventOf } from './events';
import { OUTGOING_WEBHOOK, outgoingMessage } from './events/outgoingMessage';
import { messageStatusChanged, publishStatusReport } from './events/messageStatusChanged';
import { showForEvents } from '../shared/triggers/triggerOptions';
import { setupNotice } from './payload/event';
import { checkSecret, hasSecret, readBody, type Refusal } from './payload/request';
import { chatId, fieldText, noticeWithoutPhone } from './payload/fields';
import {
	mayAnswer,
	sendAndWaitAnswersProperties,
	takeAnswer,
} from '../shared/conversation/answerTaking';

/** The WhatsApp number the URL is set on: fills phone_number_id (as the polling trigger does) and is read by Fetch Full Message. */
function whatsAppNumberProperty(): INodeProperties {
	return {
		...whatsAppNumberLocator(),
		// From list, as on the action node. Not required: receiving needs no number, and n8n greys out "Test this
		// trigger" ("Complete required fields first") while a required field is empty, as it is on a new node.
		default: { mode: 'list', value: '' },
		required: false,
		description:
			'The WhatsApp number whose Bot Settings → Webhook hold this URL. Fills phone_number_id in the output and is needed by Fetch Full Message; the list needs the credential (or switch to By ID).',
	};
}

const ANY_EVENT_SETUP = setupNotice(
	"In BotSailor open <b>Bot Settings → Webhook</b> of this WhatsApp number, paste the URL ending in <code>/webhook</code> into each field you want (Incoming Message, Message Status, Conversation Status) and the one ending in <code>/outgoing</code> into Outgoing Message, then select <b>Publish Changes</b>; a flow's Forward Data to Webhook step can use the first too. Every item carries <code>event_type</code>.",
);

function setupNotices(): INodeProperties[] {
	return [
		...EVENTS.map((event) => ({ value: event.value, setup: event.setup })),
		{ value: ANY_EVENT, setup: ANY_EVENT_SETUP },
	].map(({ value, setup }) => ({
		displayName: setup,
		name: `setupNotice_${value}`,
		type: 'notice' as const,
		default: '',
		displayOptions: showForEvents([value]),
	}));
}

/** Any Event, then each event, alphabetised by name as n8n lists options. */
const EVENT_OPTIONS = [
	{
		name: 'Any Event',
		value: ANY_EVENT,
		description: 'Every event posted to this URL; items carry event_type',
	},
	...EVENTS.map((event) => ({
		name: event.name,
		value: event.value,
		description: event.description,
	})),
];

/** An answer that starts nothing: the status and a JSON body saying why. */
function refuse(context: IWebhookFunctions, refusal: Refusal): IWebhookResponseData {
	context
		.getResponseObject()
		.status(refusal.status)
		.json({ received: false, error: refusal.message });
	return { noWebhookResponse: true };
}

/** Answered 200 (the platform must not see a failure) and nothing started. */
function ignored(reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, started: false, reason } };
}

export class BotSailorWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'BotSailor Webhook Trigger',
		name: 'botSailorWebhookTrigger',
		icon: { light: 'file:../../icons/botsailor.svg', dark: 'file:../../icons/botsailor.dark.svg' },
		group: ['trigger'],
		// 1.1: Send and Wait Answers defaults to Take Them (answers in the chat resume their execution, issue 45).
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle:
			'={{ ({"anyEvent":"Any Event","conversationStatusChanged":"Conversation Status Changed","flowData":"Flow Data","incomingMessage":"Incoming Message","messageStatusChanged":"Message Status Changed","outgoingMessage":"Outgoing Message"}[$parameter["event"]] || $parameter["event"]) }}',
		description:
			'Starts a workflow at once when BotSailor posts an incoming WhatsApp message, a status change, a conversation change or flow data',
		defaults: { name: 'BotSailor Webhook Trigger' },
		// For n8n's AI workflow builder (n8n-workflow's IBuilderHint): the trigger for answering customers at once.
		builderHint: {
			searchHint:
				"Instant trigger for BotSailor WhatsApp: set event to incomingMessage to answer a customer within a second (also outgoingMessage, messageStatusChanged, conversationStatusChanged, flowData or anyEvent). The user pastes its Production URL into the platform's Bot Settings → Webhook; set a secret. Items carry text, phone_number and wa_message_id; reply with the BotSailor node (message/sendText, phone_number from the item). For an AI agent that answers customers, follow with Wait and BotSailor message/getUnanswered.",
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-botsailor.botSailor',
					relationHint: 'Replies to the customer and acts on the conversation',
				},
				{
					nodeType: 'n8n-nodes-botsailor.botSailorTrigger',
					relationHint: 'Polling safety net: catches messages whose webhook was missed',
				},
			],
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// Receiving needs no credential; only Fetch Full Message and the number list read the API.
		credentials: [{ name: 'botSailorApi', required: false, testedBy: 'botSailorApiTest' }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
				// The panel shows the URLs the chosen event needs: this one for every field but Outgoing Message.
				ndvHideUrl: '={{ $parameter["event"] === "outgoingMessage" }}',
			},
			// The platform's Outgoing Message field gets its own URL: nothing in the body tells a sent message from a received one.
			{
				name: OUTGOING_WEBHOOK,
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'outgoing',
				ndvHideUrl: '={{ !["outgoingMessage", "anyEvent"].includes($parameter["event"]) }}',
			},
		],
		properties: [
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: EVENT_OPTIONS,
				default: 'incomingMessage',
			},
			...setupNotices(),
			whatsAppNumberProperty(),
			{
				displayName: 'Secret',
				name: 'secret',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description:
					'Recommended. When set, only deliveries whose URL ends with ?secret= followed by this value start the workflow; others are answered 401. Without it anyone who learns the URL can start the workflow with made-up messages. The platform cannot sign its webhooks or add headers, so the URL is the only secret.',
			},
			{
				displayName:
					"No Secret set: anyone who learns this URL can start the workflow with made-up messages, and its Message Status reports do not settle a Send's Wait for Delivery (Webhook Trigger Events): set a Secret and add <code>?secret=</code> with it to the URL in Bot Settings → Webhook.",
				name: 'noSecretNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { secret: [''] } },
			},
			...EVENTS.flatMap((event) => event.properties),
			...sendAndWaitAnswersProperties(['incomingMessage', ANY_EVENT], 1.1),
			{
				displayName: 'Duplicate Window (Seconds)',
				name: 'duplicateWindow',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 300,
				description:
					'How long an identical delivery of flow data or of an unrecognised body counts as a repeat. Messages are deduplicated by their message ID (remembered for 24 hours), status and conversation changes by their time; a message without an ID always starts the workflow (a customer who repeats themselves is not a duplicate).',
			},
		],
	};

	methods = {
		listSearch: { searchWhatsAppNumbers },
		credentialTest: { botSailorApiTest: testBotSailorApi },
	};

	/**
	 * There is no API to register a webhook URL on the platform: the user pastes it in Bot Settings →
	 * Webhook. So these register nothing. What there is to set up is on n8n's side: the workflow's
	 * duplicate memory (shared/triggers/deliveryMemory.ts). checkExists says whether this process holds it,
	 * create loads it from the static data (or starts it) on every activation, after a restart too,
	 * delete saves it and releases it. Listening in the editor (mode manual) touches no memory: a test
	 * must not change what the published workflow remembers.
	 */
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				if (this.getMode() === 'manual') return false;
				return isShared(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				if (this.getMode() !== 'manual') refreshSnapshot(this);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				if (this.getMode() !== 'manual') releaseMemory(this);
				return true;
			},
		},
		// The second URL shares the default one's memory: nothing of its own to set up.
		[OUTGOING_WEBHOOK]: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	/**
	 * Runs in the execution this node's webhook started, passing its items on unchanged. It stores the
	 * duplicate memory again, because n8n does not always save what webhook() writes to the static data
	 * (n8n 2.41 re-wraps it for the execution before saving, which clears its "changed" mark), while it
	 * always saves what an execution writes. Without this, a restart or an update in place forgot what
	 * the webhook had started, and the polling trigger in the same workflow started it again.
	 * It also passes on only the incoming messages no execution of this workflow started before (the polling
	 * trigger records them the same way; shared/triggers/startedOnce.ts): in queue mode the webhook process and the
	 * main that polls share no memory, only the database.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		if (this.getMode() !== 'manual') refreshSnapshot(this);
		return [
			await firstStarts(
				this,
				this.getInputData(),
				(item) => item.json.event_type === 'incomingMessage',
			),
		];
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const secretRefusal = checkSecret(this);
		if (secretRefusal) return refuse(this, secretRefusal);
		const read = readBody(this);
		if ('status' in read) return refuse(this, read);
		const { body } = read;

		const chosen = this.getNodeParameter('event') as string;
		// A post to the Outgoing Message URL is outgoing whatever it carries (the same shape as an incoming one on some deployments).
		const event = this.getWebhookName() === OUTGOING_WEBHOOK ? outgoingMessage : eventOf(body);
		// Every status report that passed a Secret check feeds Wait for Delivery's Webhook Trigger Events source,
		// started or not; without a Secret anyone could post a false "delivered" (issue 50, point 8).
		if (event === messageStatusChanged && hasSecret(this)) publishStatusReport(body, this.logger);
		noticeWithoutPhone(body, this.logger);
		if (chosen !== ANY_EVENT && event.value !== chosen)
			return ignored(`a ${event.value} event; this node starts on ${chosen}`);
		const skipped = event.skipReason?.(this, body);
		if (skipped) return ignored(skipped);

		// A test delivery (Test URL, editor listening) is never remembered, so it cannot hide a real one later.
		if (this.getMode() !== 'manual') {
			const delivery = event.key(body);
			const window = Math.max(1, Number(this.getNodeParameter('duplicateWindow', 300)) || 300);
			if (
				delivery &&
				!claimDelivery(this, delivery.key, delivery.life === 'id' ? ID_TTL_SECONDS : window)
			) {
				return { webhookResponse: { received: true, started: false, duplicate: true } };
			}
		}

		const phoneNumberId = locatorValue(this, 'phoneNumberId');
		// An answer to a waiting Send and Wait question resumes it and starts no run (shared/conversation/answerTaking.ts).
		if (
			event.value === 'incomingMessage' &&
			this.getMode() !== 'manual' &&
			// A question went out by phone number: a customer without one cannot be answering it.
			chatId(body) !== '' &&
			this.getNodeParameter('sendAndWaitAnswers', 'startRun') === 'take' &&
			// Only a subscriber a question marked can be answering one: nothing is read for anyone else.
			mayAnswer(phoneNumberId, body)
		) {
			const taken = await takeAnswer(this, {
				phoneNumberId,
				phoneNumber: chatId(body),
				waMessageId: fieldText(body, 'wa_message_id'),
				text: fieldText(body, 'user_message'),
				name: fieldText(body, 'first_name') || undefined,
			});
			if (taken) return { webhookResponse: { received: true, started: false, sendAndWait: taken } };
		}
		const mapping = { context: this, phoneNumberId };
		const item: IDataObject = {
			...(await event.item(mapping, body)),
			event_type: event.value,
			webhook_body: body,
		};
		return { workflowData: [[event.emit ? await event.emit(mapping, item) : { json: item }]] };
	}
}
