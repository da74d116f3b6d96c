import type { Faults, Fault } from './faults';
import type { SeedOptions } from './seed';
import { failedReasonOf } from './statuses';
import type { RecordedRequest } from './server';
import {
	lastIncomingAt,
	timestamp,
	type Bot,
	type ConversationMessage,
	type SimState,
	type Subscriber,
} from './state';
import {
	conversationWebhook,
	flowDataWebhook,
	messageWebhook,
	statusWebhook,
	type WebhookFault,
} from './webhooks';
import { phoneControlRoutes } from './phone';

/**
 * The control API: what happens on the platform without the node asking (a customer writes,
 * a message is delivered, Meta approves a template). Used in-process by tests and over HTTP
 * (`POST /__control/<action>` with a JSON body) by the demo and the end-to-end suite.
 */
export interface ControlContext {
	state: SimState;
	faults: Faults;
	requests: RecordedRequest[];
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON from tests and the HTTP control API
	input: any;
	reset(seed?: SeedOptions): void;
	/** Refuses TCP connections for `ms` milliseconds, then accepts again on the same port (see Simulator.refuseConnections). */
	refuseConnections(ms: number): void;
}

function ensureSubscriber(
	state: SimState,
	phoneNumberId: string,
	phoneNumber: string,
	name = 'New Customer',
): Subscriber {
	const existing = state.subscriber(phoneNumberId, phoneNumber);
	if (existing) return existing;
	const [first_name, ...rest] = name.split(' ');
	const subscriber: Subscriber = {
		subscriber_id: state.nextId(),
		phone_number_id: phoneNumberId,
		chat_id: phoneNumber,
		first_name,
		last_name: rest.join(' '),
		email: 'null',
		gender: '',
		created_at: state.now(),
		assigned_agent_id: 0,
		label_ids: [],
		sequence_ids: [],
		custom_fields: {},
		conversation_status: 0,
		last_message_at: state.now(),
		input_flow_reset_count: 0,
	};
	state.subscribers.push(subscriber);
	return subscriber;
}

/** The template id of `addQuestionTemplate`. */
export const QUESTION_TEMPLATE_ID = '1200000000099001';

/**
 * An approved template of the number with a body variable (`order`) and a URL button whose variable
 * (`answer_link`) ends `buttonUrl` (a URL button's variable is a SPEC-GAP: routes/messaging.ts).
 */
export function addQuestionTemplate(
	state: SimState,
	phoneNumberId: string,
	buttonUrl: string,
): void {
	const model = state.templates.find((entry) => entry.phone_number_id === phoneNumberId)!;
	state.templates.push({
		...model,
		id: 99001,
		template_id: QUESTION_TEMPLATE_ID,
		template_name: 'order_question',
		status: 'APPROVED',
		body_content: 'Order #order# needs your answer.',
		button_content: JSON.stringify([{ type: 'url', text: 'Answer', url: `${buttonUrl}{{1}}` }]),
		variable_map: JSON.stringify({
			header: [],
			body: [{ position: 1, label: 'order' }],
			button: [{ position: 1, label: 'answer_link' }],
		}),
	});
}

export const QUICK_REPLY_TEMPLATE_ID = '1200000000099002';

/**
 * An approved template of the number with quick-reply buttons (`titles`, in order) and two body variables: `order` and
 * `answer_link` (the whole answer link, so the question's row carries it).
 */
export function addQuickReplyTemplate(
	state: SimState,
	phoneNumberId: string,
	titles: string[] = ['Yes, ship it', 'No, hold it'],
): void {
	const model = state.templates.find((entry) => entry.phone_number_id === phoneNumberId)!;
	state.templates.push({
		...model,
		id: 99002,
		template_id: QUICK_REPLY_TEMPLATE_ID,
		template_name: 'order_quick_question',
		status: 'APPROVED',
		body_content: 'Order #order# needs your answer. Or answer here: #answer_link#',
		button_content: JSON.stringify(titles.map((text) => ({ type: 'quick_reply', text }))),
		button_type: 'quick_reply',
		variable_map: JSON.stringify({
			header: [],
			body: [
				{ position: 1, label: 'order' },
				{ position: 2, label: 'answer_link' },
			],
		}),
	});
}

/** The newest message the bot sent to a subscriber whose content has `kind` ("template", "interactive"). */
function newestBotMessage(
	state: SimState,
	input: { phone_number_id?: string; phone_number: string },
	kind: string,
): { phoneNumberId: string; chatId: string; message: ConversationMessage } {
	const phoneNumberId = input.phone_number_id ?? state.bots[0].phone_number_id;
	const chatId = String(input.phone_number).replace(/\D/g, '');
	const message = [...state.messages]
		.reverse()
		.find(
			(candidate) =>
				candidate.phone_number_id === phoneNumberId &&
				candidate.whatsapp_bot_subscriber_subscriber_id === chatId &&
				candidate.sender !== 'user' &&
				candidate.message_content.includes(`"${kind}"`),
		);
	if (!message)
		throw new Error(`no ${kind === 'template' ? 'template' : 'button'} message to ${chatId}`);
	return { phoneNumberId, chatId, message };
}

/**
 * The subscriber taps a quick-reply button of the newest template the bot sent them, by its text.
 * SPEC-GAP: the spec does not show what the platform stores and posts for such a tap; assumed Meta's Cloud API shape
 * (an incoming message `{ type: 'button', button: { text, payload } }`, the payload being the button's text for a
 * template whose buttons set none), the webhook's text being the button's text.
 */
export function tapTemplateButton(
	state: SimState,
	input: { phone_number_id?: string; phone_number: string; title: string },
): ConversationMessage {
	const { phoneNumberId, chatId, message: sent } = newestBotMessage(state, input, 'template');
	const name = (JSON.parse(sent.message_content) as { template?: { name?: string } }).template
		?.name;
	const template = state.templates.find(
		(entry) => entry.phone_number_id === phoneNumberId && entry.template_name === name,
	);
	const buttons = JSON.parse(String(template?.button_content ?? '[]')) as Array<{
		type?: string;
		text?: string;
	}>;
	if (!buttons.some((button) => button.type === 'quick_reply' && button.text === input.title))
		throw new Error(`no quick-reply button "${input.title}" in the template ${String(name)}`);
	return addMessage(state, {
		phone_number_id: phoneNumberId,
		phone_number: chatId,
		content: { type: 'button', button: { text: input.title, payload: input.title } },
	});
}

/** Records a message in a conversation (incoming from the subscriber, or outgoing from bot/agent). */
export function addMessage(
	state: SimState,
	input: {
		phone_number_id?: string;
		phone_number: string;
		text?: string;
		content?: unknown;
		sender?: string;
		name?: string;
		status?: string | null;
		/** The team member who wrote an `agent` row (default Alex Agent). */
		agent_name?: string;
	},
): ConversationMessage {
	const phoneNumberId = input.phone_number_id ?? state.bots[0].phone_number_id;
	const bot = state.bot(phoneNumberId);
	if (!bot) throw new Error(`unknown phone_number_id ${phoneNumberId}`);
	const subscriber = ensureSubscriber(state, phoneNumberId, input.phone_number, input.name);
	const time = state.now();
	const sender = input.sender ?? 'user';
	// SPEC-GAP: panel events (sender "system": "Label added: …") are rows without a wa_message_id or a status,
	// their content the event's text; integrators saw them, and senders automation, sequence, ai_agent.
	const system = sender === 'system';
	const whatsApp = input.content ?? { type: 'text', text: { body: input.text ?? 'Hello' } };
	// Stored as '' (the route answers null: routes/messaging.ts conversationMessage).
	const waMessageId = system ? '' : state.newWaMessageId();
	const stored = system
		? (input.text ?? 'Label added: VIP')
		: JSON.stringify(
				sender === 'user' && state.incomingAsMetaWebhook
					? metaWebhookOf(bot, subscriber.chat_id, waMessageId, whatsApp)
					: whatsApp,
			);
	const message: ConversationMessage = {
		id: state.nextId(),
		phone_number_id: phoneNumberId,
		whatsapp_bot_subscriber_subscriber_id: subscriber.chat_id,
		whatsapp_bot_id: bot.whatsapp_bot_id,
		sender,
		agent_name: sender === 'agent' ? (input.agent_name ?? 'Alex Agent') : null,
		message_content: stored,
		conversation_time: time,
		wa_message_id: waMessageId,
		reaction_data: null,
		message_status: sender === 'user' || system ? null : (input.status ?? 'sent'),
		delivery_status_updated_at: time,
		failed_reason: '',
		read_time: null,
		failed_time: null,
	};
	state.messages.push(message);
	subscriber.last_message_at = time;
	if (!system) messageWebhook(state, message);
	return message;
}

/**
 * The subscriber taps a reply button of the newest button message the bot sent them: `{"phone_number", "title"}` (or
 * `"index"`, from 0). What the platform then stores and posts is an incoming message whose conversation row carries
 * the button in Meta's shape (`interactive.button_reply` {id, title}) and whose webhook text is the button's title.
 * SPEC-GAP: the spec shows neither; Meta's Cloud API webhook reports a tap so, and a button sent as a plain string is
 * given its title as id.
 */
export function tapButton(
	state: SimState,
	input: { phone_number_id?: string; phone_number: string; title?: string; index?: number },
): ConversationMessage {
	const {
		phoneNumberId,
		chatId,
		message: question,
	} = newestBotMessage(state, input, 'interactive');
	const content = JSON.parse(question.message_content) as {
		interactive?: { buttons?: Array<string | { id?: string; title?: string }> };
	};
	const buttons = (content.interactive?.buttons ?? []).map((button) =>
		typeof button === 'string'
			? { id: button, title: button }
			: { id: String(button.id ?? button.title), title: String(button.title) },
	);
	const button =
		input.title !== undefined
			? buttons.find((candidate) => candidate.title === input.title)
			: buttons[input.index ?? 0];
	if (!button)
		throw new Error(`no button ${input.title ?? input.index} in the last button message`);
	return addMessage(state, {
		phone_number_id: phoneNumberId,
		phone_number: chatId,
		content: { type: 'interactive', interactive: { type: 'button_reply', button_reply: button } },
	});
}

/** A subscriber's message as Meta's webhook posts it (what incomingAsMetaWebhook deployments store). */
function metaWebhookOf(
	bot: Bot,
	chatId: string,
	waMessageId: string,
	message: unknown,
): Record<string, unknown> {
	return {
		object: 'whatsapp_business_account',
		entry: [
			{
				id: bot.whatsapp_business_account_id,
				changes: [
					{
						field: 'messages',
						value: {
							messaging_product: 'whatsapp',
							metadata: {
								display_phone_number: bot.display_phone_number,
								phone_number_id: bot.phone_number_id,
							},
							contacts: [{ wa_id: chatId, profile: { name: '' } }],
							messages: [
								{
									from: chatId,
									id: waMessageId,
									timestamp: String(Math.floor(Date.now() / 1000)),
									...(message as Record<string, unknown>),
								},
							],
						},
					},
				],
			},
		],
	};
}

/** Moves an outgoing message's status: sent → delivered → read, or failed with a reason. */
export function setMessageStatus(
	state: SimState,
	input: { wa_message_id: string; status: string; failed_reason?: string; failed_code?: number },
): ConversationMessage {
	const message = state.messages.find((entry) => entry.wa_message_id === input.wa_message_id);
	if (!message) throw new Error(`unknown wa_message_id ${input.wa_message_id}`);
	const time = state.now();
	message.message_status = input.status;
	message.delivery_status_updated_at = time;
	if (input.status === 'read') message.read_time = time;
	if (input.status === 'failed') {
		message.failed_time = time;
		// SPEC-GAP: the text's form; with `failed_code` it is one of WhatsApp's documented errors (statuses.ts).
		message.failed_reason =
			input.failed_reason ??
			(input.failed_code !== undefined
				? failedReasonOf(input.failed_code)
				: '(#131047) Re-engagement message');
	}
	statusWebhook(state, message);
	return message;
}

/** Approves or rejects a template (Meta's review). */
export function decideTemplate(
	state: SimState,
	input: { template_id: string; status: 'APPROVED' | 'Rejected' | string; reason?: string },
) {
	const template = state.templates.find(
		(entry) => String(entry.template_id) === String(input.template_id),
	);
	if (!template) throw new Error(`unknown template_id ${input.template_id}`);
	template.status = input.status;
	template.rejected_reason =
		input.status === 'Rejected' ? (input.reason ?? 'Does not meet policy') : null;
	template.updated_at = state.now();
	return template;
}

/** Adds `count` subscribers to a number (bulk, for scale tests). */
export function addSubscribers(
	state: SimState,
	input: { phone_number_id?: string; count: number; prefix?: string },
): number {
	const phoneNumberId = input.phone_number_id ?? state.bots[0].phone_number_id;
	const prefix = input.prefix ?? '3361';
	const base = state.subscribers.length;
	for (let index = 0; index < input.count; index++) {
		const time = timestamp(state.clock - 400 * 86_400_000 + index);
		state.subscribers.push({
			subscriber_id: state.nextId(),
			phone_number_id: phoneNumberId,
			chat_id: `${prefix}${String(base + index).padStart(8, '0')}`,
			first_name: `Bulk${base + index}`,
			last_name: 'Contact',
			email: 'null',
			gender: '',
			created_at: time,
			assigned_agent_id: 0,
			label_ids: [],
			sequence_ids: [],
			custom_fields: {},
			conversation_status: 0,
			last_message_at: time,
			input_flow_reset_count: 0,
		});
	}
	return state.subscribers.length;
}

/** Adds a new subscriber as if they wrote first (the trigger's New Subscriber event). */
export function addSubscriber(
	state: SimState,
	input: { phone_number_id?: string; phone_number: string; name?: string },
): Subscriber {
	return ensureSubscriber(
		state,
		input.phone_number_id ?? state.bots[0].phone_number_id,
		input.phone_number,
		input.name,
	);
}

/** A customer places a catalog order. */
export function addOrder(
	state: SimState,
	input: { catalog_id?: string; phone_number?: string; total?: number },
) {
	const catalog =
		state.catalogs.find((entry) => entry.catalog_id === input.catalog_id) ?? state.catalogs[0];
	const subscriber =
		state.subscribers.find((entry) => entry.chat_id === input.phone_number) ?? state.subscribers[0];
	const time = state.now();
	const order = {
		order_unique_id: `ORD-${state.nextId()}`,
		catalog_id: catalog.catalog_id,
		chat_id: subscriber.chat_id,
		catalog_name: catalog.catalog_name,
		first_name: subscriber.first_name,
		cart_total: input.total ?? 20,
		cart_currency: 'USD',
		cart_status_raw: 'Approved',
		ordered_at: time,
		updated_at: time,
		payment_amount: input.total ?? 20,
		payment_method: 'cod',
		shipping_address: JSON.stringify({
			name: subscriber.first_name,
			phone_number: subscriber.chat_id,
			email: '',
			address: '1 Main St',
		}),
		checkout_account_email: '',
		checkout_amount: String(input.total ?? 20),
		checkout_timestamp: time,
		transaction_id: '',
		paid_at: '',
		status_changed_at: time,
	};
	state.orders.push(order);
	return order;
}

/** The deployment variants `/__control/deployment` switches (each documented on SimState). */
const DEPLOYMENT_VARIANTS = [
	'conversationOrder',
	'conversationListShape',
	'incomingAsMetaWebhook',
	'templateSendsAsTemplate',
	'listOfOneAsObject',
	'subscriberDefaultOrder',
	'earlierFormOnly',
	'hidesTemplateTokens',
	'sessionWindow',
] as const;

/**
 * Moves a subscriber's conversation back in time so that their newest own message is `hours_ago` hours before the
 * clock (a customer who last wrote then); a subscriber who never wrote gets one message at that time. The rows keep
 * their order. Answers the new time of that message.
 */
function moveLastIncoming(
	state: SimState,
	input: { phone_number_id?: string; phone_number: string; hours_ago: number },
): { last_incoming_at: string } {
	const phoneNumberId = input.phone_number_id ?? state.bots[0].phone_number_id;
	const hours = Number(input.hours_ago);
	if (!Number.isFinite(hours) || hours < 0) throw new Error('window needs hours_ago, a number ≥ 0');
	const target = state.clock - hours * 3_600_000;
	const last = lastIncomingAt(state, phoneNumberId, input.phone_number);
	if (last === undefined) {
		const clock = state.clock;
		state.clock = target - 1000;
		const message = addMessage(state, {
			phone_number_id: phoneNumberId,
			phone_number: input.phone_number,
		});
		state.clock = clock;
		return { last_incoming_at: message.conversation_time };
	}
	const shift = Date.parse(`${last.replace(' ', 'T')}Z`) - target;
	for (const message of state.messages)
		if (
			message.phone_number_id === phoneNumberId &&
			message.whatsapp_bot_subscriber_subscriber_id === input.phone_number
		)
			for (const key of ['conversation_time', 'delivery_status_updated_at'] as const)
				if (message[key])
					message[key] = timestamp(
						Date.parse(`${String(message[key]).replace(' ', 'T')}Z`) - shift,
					);
	const subscriber = state.subscriber(phoneNumberId, input.phone_number);
	if (subscriber)
		subscriber.last_message_at = timestamp(
			Date.parse(`${subscriber.last_message_at.replace(' ', 'T')}Z`) - shift,
		);
	return { last_incoming_at: timestamp(target) };
}

/**
 * Sets the clock to the current time as a platform in `time_zone` (IANA, default UTC) shows it: its timestamps are
 * local times without a zone (SPEC-GAP: the spec gives times without a zone; a deployment's server zone is its own).
 * From then on each write still moves the clock one second.
 */
function clockToNow(state: SimState, input: { time_zone?: string }): { now: string } {
	const zone = input.time_zone ?? 'UTC';
	const parts = Object.fromEntries(
		new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		})
			.formatToParts(new Date())
			.map((part) => [part.type, part.value]),
	);
	state.clock = Date.UTC(
		Number(parts.year),
		Number(parts.month) - 1,
		Number(parts.day),
		Number(parts.hour),
		Number(parts.minute),
		Number(parts.second),
	);
	return { now: timestamp(state.clock) };
}

export const controlRoutes: Record<string, (context: ControlContext) => unknown> = {
	// The customer's phone page (phone.ts): `phone-subscribers`, `phone-conversation {"phone_number"}`.
	...phoneControlRoutes,
	message: ({ state, input }) => addMessage(state, input),
	// A tap on a reply button of the bot's newest button message: `{"phone_number", "title"}` or `{"phone_number", "index": 0}`.
	tap: ({ state, input }) => tapButton(state, input),
	// A customer who last wrote `hours_ago` hours ago: `{"phone_number", "hours_ago": 30}` (with sessionWindow enforced, outside the window).
	window: ({ state, input }) => moveLastIncoming(state, input),
	// `{"time_zone": "Asia/Dhaka"}`: the platform's times become now, as a server in that zone writes them.
	clock: ({ state, input }) => clockToNow(state, input),
	'message-status': ({ state, input }) => setMessageStatus(state, input),
	// Statuses after every send from now on, with delays and failures (statuses.ts): `{"delivered_after_ms": [1000, 10000],
	// "read_after_ms": 2000, "fail_rate": 0.1, "fail_code": 131026, "fail_numbers": {"8801…": 131047}, "window_failures": true}`;
	// `{"off": true}` stops them; `{"report": true}` answers {changes, last_change_at} (epoch ms of the last change).
	'delivery-statuses': ({ state, input }) => state.statuses.configure(input),
	'template-decision': ({ state, input }) => decideTemplate(state, input),
	subscribers: ({ state, input }) => addSubscribers(state, input),
	subscriber: ({ state, input }) => addSubscriber(state, input),
	order: ({ state, input }) => addOrder(state, input),
	fault: ({ faults, input }) => faults.add(input.path ?? '*', input as Fault),
	// `{"max": 10}` (null: no cap); may be sent while a run goes on, the requests that arrive next meet the new cap.
	'concurrency-cap': ({ faults, input }) => void (faults.maxConcurrent = input.max ?? Infinity),
	// What the platform saw: requests in flight now, the peak and the 429s for the cap since the last reset (InFlightReport).
	// `{"reset": true}` answers the report, then starts a new measurement.
	'in-flight': ({ faults, input }) => {
		const report = faults.report();
		if (input.reset) faults.resetReport();
		return report;
	},
	// `{"ms": 300, "jitter": 0.3}`: every request waits 300 ms ± 30 % (uniform) before its answer; jitter 0 when unset.
	latency: ({ faults, input }) => {
		faults.latencyMs = input.ms ?? 0;
		faults.latencyJitter = input.jitter ?? 0;
	},
	'clear-faults': ({ faults }) => faults.clear(),
	// Meta's refusals of sends to some customers (state.ts metaRefusals, SPEC-GAP): `{"numbers": {"<phone>": 131056},
	// "times"?: 1, "http_status"?: 200|400|429}`; `{"clear": true}` ends them.
	'meta-refusals': ({ state, input }) => {
		if (input.clear) state.metaRefusals = {};
		for (const [phone, code] of Object.entries((input.numbers ?? {}) as Record<string, number>))
			state.metaRefusals[phone] = { code: Number(code), times: input.times };
		if (input.http_status !== undefined) state.metaRefusalHttpStatus = Number(input.http_status);
		return state.metaRefusals;
	},
	// SPEC-GAP: refused connections model a reverse proxy/CDN in front of the platform restarting. `{"ms": 300}`; this
	// request itself is answered, then its connection is closed; nothing (not even this API) answers until the window ends.
	refuseConnections: ({ refuseConnections, input }) => {
		refuseConnections(input.ms);
		return { refusingMs: input.ms };
	},
	requests: ({ requests }) => requests.map((request) => ({ ...request, headers: undefined })),
	'clear-requests': ({ requests }) => void requests.splice(0),
	reset: ({ reset, input }) => void reset(input.seed),
	// A deployment's variants (SPEC-GAP, state.ts): `{"conversationOrder": "oldestFirst", "conversationListShape": "jsonById", …}`.
	deployment: ({ state, input }) => {
		for (const key of DEPLOYMENT_VARIANTS)
			if (input[key] !== undefined) Object.assign(state, { [key]: input[key] });
		return Object.fromEntries(DEPLOYMENT_VARIANTS.map((key) => [key, state[key]]));
	},
	// Outgoing webhooks (webhooks.ts): `{"phone_number_id", "urls": {"incoming_message": "http://…", "outgoing_message": "http://…"},
	// "format"?: "json"|"form", "contentType"?: "text/plain" ("" = no header), "outgoing"?: "likeIncoming"|"noText"}`.
	webhooks: ({ state, input }) =>
		void state.webhooks.configure(input.phone_number_id ?? state.bots[0].phone_number_id, input),
	'webhook-fault': ({ state, input }) => void state.webhooks.addFault(input as WebhookFault),
	'webhook-clear-faults': ({ state }) => void state.webhooks.clearFaults(),
	'webhook-deliveries': ({ state, input }) =>
		input.clear ? state.webhooks.deliveries.splice(0) : state.webhooks.deliveries,
	'flow-data': ({ state, input }) => flowDataWebhook(state, input),
	// An agent marks a conversation in the platform's inbox (the API route does the same for API calls).
	'conversation-status': ({ state, input }) => {
		const subscriber = state.subscriber(
			input.phone_number_id ?? state.bots[0].phone_number_id,
			input.phone_number,
		);
		if (!subscriber) throw new Error(`unknown subscriber ${input.phone_number}`);
		return conversationWebhook(state, subscriber, input.action, input.agent_name ?? 'Alex Agent');
	},
	state: ({ state, input }) =>
		input.collection
			? (state as unknown as Record<string, unknown>)[input.collection]
			: { subscribers: state.subscribers.length, messages: state.messages.length },
};
