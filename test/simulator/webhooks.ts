/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test infrastructure runs in plain Node.js, not inside n8n */
/**
 * The platform's outgoing webhooks, as ../shared/spec/webhooks.md describes what integrators observed:
 * per WhatsApp number (bot), one URL per trigger (incoming message, outgoing message, message status,
 * conversation status; set by hand in Bot Settings → Webhook, here through the control API), a flow's
 * "Forward Data to Webhook" step, a POST of flat JSON (or form fields), no signature, no retry.
 *
 * Faults for receivers: deliver twice, deliver late, drop, deliver concurrently (several copies at once).
 *
 * SPEC-GAP: the spec lists the fields *seen*; where a receiver needs more to be useful the simulator adds
 * fields a status or conversation report plausibly carries (`wa_message_id`, `chat_id`, `whatsapp_bot_id`
 * on status and conversation bodies) and marks them here. `whatsapp_bot_username` is not described: the
 * simulator sends the business name in lower case without spaces. Media arrive as the placeholder text one
 * integrator saw (`#ATTACHMENT:Photo# <caption>`). The User-Agent is made up (the platform is PHP).
 */
import type { Bot, ConversationMessage, SimState, Subscriber } from './state';

export type WebhookEventKind =
	| 'incoming_message'
	| 'outgoing_message'
	| 'message_status'
	| 'conversation_status'
	| 'flow_data';
export const WEBHOOK_EVENT_KINDS: WebhookEventKind[] = [
	'incoming_message',
	'outgoing_message',
	'message_status',
	'conversation_status',
	'flow_data',
];

export type WebhookFaultKind = 'twice' | 'late' | 'drop' | 'concurrent';

export interface WebhookFault {
	kind: WebhookFaultKind;
	/** Only deliveries of this event (default: every event). */
	event?: WebhookEventKind;
	/** How many deliveries it applies to; undefined = until cleared. */
	times?: number;
	/** Applies to every n-th matching delivery only (n, 2n, …): 5 = 20 %. */
	everyNth?: number;
	/** `late`: the delay before the POST; `twice`: the delay between the two POSTs (default 0: right after the first answer). */
	delayMs?: number;
	/** `concurrent`: how many identical POSTs leave at once (default 5). */
	copies?: number;
}

export interface WebhookConfig {
	/** URL per event; an event without a URL is not sent. */
	urls: Partial<Record<WebhookEventKind, string>>;
	/** How bodies are encoded (default json). */
	format?: 'json' | 'form';
	/**
	 * The Content-Type header sent, instead of the one of the format; '' sends none. SPEC-GAP: nobody
	 * recorded which one the platform sends (spec/webhooks.md).
	 */
	contentType?: string;
	/**
	 * What the outgoing-message webhook carries: the incoming message's flat shape, text included (default:
	 * seen live on one deployment), or no text (another integrator's report). SPEC-GAP: both observed.
	 */
	outgoing?: 'likeIncoming' | 'noText';
}

/** One POST (or a dropped one) as it happened, for tests and the bench. */
export interface WebhookDelivery {
	id: number;
	event: WebhookEventKind;
	phone_number_id: string;
	url: string;
	body: Record<string, unknown>;
	/** When the platform event happened (Date.now()), the same for every copy of one event. */
	emittedAt: number;
	/** Which copy of the event this POST is (1 = the first). */
	copy: number;
	fault?: WebhookFaultKind;
	dropped?: boolean;
	sentAt?: number;
	answeredAt?: number;
	status?: number;
	answer?: string;
	error?: string;
}

const USER_AGENT = 'BotSailor-Webhook/1.0 (simulator)';
const MAX_RECORDED = 20_000;

export class Webhooks {
	private configs = new Map<string, WebhookConfig>();
	private rules: Array<{ fault: WebhookFault; seen: number }> = [];
	private pending = new Set<Promise<void>>();
	private sequence = 0;
	readonly deliveries: WebhookDelivery[] = [];

	/** Sets a number's webhook URLs (replacing earlier ones); `urls: {}` turns them off. */
	configure(phoneNumberId: string, config: WebhookConfig): void {
		this.configs.set(phoneNumberId, {
			...config,
			urls: { ...config.urls },
			format: config.format ?? 'json',
		});
	}

	config(phoneNumberId: string): WebhookConfig | undefined {
		return this.configs.get(phoneNumberId);
	}

	addFault(fault: WebhookFault): void {
		this.rules.push({ fault: { ...fault }, seen: 0 });
	}

	clearFaults(): void {
		this.rules = [];
	}

	clearDeliveries(): void {
		this.deliveries.splice(0);
	}

	/** The fault for the next delivery of `event`, consuming one use of it. */
	private take(event: WebhookEventKind): WebhookFault | undefined {
		const index = this.rules.findIndex((rule) => !rule.fault.event || rule.fault.event === event);
		const rule = this.rules[index];
		if (!rule) return undefined;
		if (rule.fault.everyNth !== undefined && ++rule.seen % rule.fault.everyNth !== 0)
			return undefined;
		if (rule.fault.times !== undefined && --rule.fault.times <= 0) this.rules.splice(index, 1);
		return rule.fault;
	}

	/** Resolves when every POST under way (late ones included) has been answered or has failed. */
	async idle(): Promise<void> {
		while (this.pending.size) await Promise.all([...this.pending]);
	}

	/**
	 * The platform event happened: POSTs the body to the number's URL for the event, in the background
	 * (the platform does not wait for its receivers), with whatever fault applies.
	 */
	emit(
		phoneNumberId: string,
		event: WebhookEventKind,
		body: Record<string, unknown>,
	): WebhookDelivery[] {
		const config = this.configs.get(phoneNumberId);
		const url = config?.urls[event];
		if (!config || !url) return [];
		const fault = this.take(event);
		const emittedAt = Date.now();
		const record = (copy: number): WebhookDelivery => {
			const delivery: WebhookDelivery = {
				id: ++this.sequence,
				event,
				phone_number_id: phoneNumberId,
				url,
				body,
				emittedAt,
				copy,
				fault: fault?.kind,
			};
			this.deliveries.push(delivery);
			if (this.deliveries.length > MAX_RECORDED)
				this.deliveries.splice(0, this.deliveries.length - MAX_RECORDED);
			return delivery;
		};
		if (fault?.kind === 'drop') {
			const dropped = record(1);
			dropped.dropped = true;
			return [dropped];
		}
		const post = (delivery: WebhookDelivery) =>
			this.post(delivery, config.format ?? 'json', config.contentType);
		let work: Promise<unknown>;
		let made: WebhookDelivery[];
		if (fault?.kind === 'concurrent') {
			made = Array.from({ length: Math.max(2, fault.copies ?? 5) }, (_, index) =>
				record(index + 1),
			);
			work = Promise.all(made.map(post));
		} else if (fault?.kind === 'twice') {
			made = [record(1), record(2)];
			work = post(made[0])
				.then(() => wait(fault.delayMs ?? 0))
				.then(() => post(made[1]));
		} else if (fault?.kind === 'late') {
			made = [record(1)];
			work = wait(fault.delayMs ?? 5000).then(() => post(made[0]));
		} else {
			made = [record(1)];
			work = post(made[0]);
		}
		const tracked = work.then(() => undefined);
		this.pending.add(tracked);
		void tracked.finally(() => this.pending.delete(tracked));
		return made;
	}

	private async post(
		delivery: WebhookDelivery,
		format: 'json' | 'form',
		contentType?: string,
	): Promise<void> {
		const encoded =
			format === 'form'
				? new URLSearchParams(
						Object.entries(delivery.body).map(([key, value]): [string, string] => [
							key,
							typeof value === 'string' ? value : JSON.stringify(value),
						]),
					).toString()
				: JSON.stringify(delivery.body);
		delivery.sentAt = Date.now();
		try {
			const response = await fetch(delivery.url, {
				method: 'POST',
				headers: {
					...(contentType === ''
						? {}
						: {
								'content-type':
									contentType ??
									(format === 'form' ? 'application/x-www-form-urlencoded' : 'application/json'),
							}),
					'user-agent': USER_AGENT,
				},
				body: encoded,
				signal: AbortSignal.timeout(30_000),
			});
			delivery.status = response.status;
			delivery.answer = (await response.text()).slice(0, 500);
		} catch (error) {
			// No retry: the platform does not re-send a webhook that failed (spec: Delivery).
			delivery.error = (error as Error).message;
		}
		delivery.answeredAt = Date.now();
	}
}

function wait(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** SPEC-GAP: not described; the business name in lower case without spaces. */
function botUsername(bot: Bot): string {
	return bot.whatsapp_business_name.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/** What the incoming-message webhook says the subscriber wrote: the text, or the placeholder a media message becomes. */
export function userMessageOf(message: ConversationMessage): string {
	let content: Record<string, unknown>;
	try {
		content = JSON.parse(message.message_content) as Record<string, unknown>;
	} catch {
		return message.message_content;
	}
	const type = String(content.type ?? '');
	const inner = (content[type] ?? {}) as Record<string, unknown>;
	const placeholders: Record<string, string> = {
		image: 'Photo',
		video: 'Video',
		audio: 'Audio',
		document: 'Document',
		sticker: 'Sticker',
	};
	if (type in placeholders)
		return `#ATTACHMENT:${placeholders[type]}# ${String(inner.caption ?? '')}`.trimEnd();
	if (type === 'text') return String(inner.body ?? '');
	if (type === 'interactive') {
		const reply = (inner.button_reply ?? inner.list_reply ?? {}) as Record<string, unknown>;
		return String(reply.title ?? '');
	}
	if (type === 'button') return String(inner.text ?? '');
	if (type === 'reaction') return String(inner.emoji ?? '');
	return '';
}

function subscriberOf(state: SimState, message: ConversationMessage): Subscriber | undefined {
	return state.subscriber(message.phone_number_id, message.whatsapp_bot_subscriber_subscriber_id);
}

/** A message was written in a conversation: the incoming or the outgoing message webhook. */
export function messageWebhook(state: SimState, message: ConversationMessage): WebhookDelivery[] {
	const bot = state.bot(message.phone_number_id);
	const subscriber = subscriberOf(state, message);
	if (!bot) return [];
	const common = {
		chat_id: message.whatsapp_bot_subscriber_subscriber_id,
		subscriber_id: `${message.whatsapp_bot_subscriber_subscriber_id}-${bot.whatsapp_bot_id}`,
		...customerIdsOf(state, message.whatsapp_bot_subscriber_subscriber_id, bot.whatsapp_bot_id),
		wa_message_id: message.wa_message_id,
		first_name: subscriber?.first_name ?? '',
		whatsapp_bot_id: bot.whatsapp_bot_id,
		whatsapp_bot_name: bot.whatsapp_business_name,
		whatsapp_bot_username: botUsername(bot),
	};
	if (message.sender === 'user') {
		// SPEC-GAP: `label_names` was seen "sometimes" (../shared/spec/webhooks.md); sent here whenever the subscriber has
		// a label, absent otherwise. Send and Wait's Webhook Trigger reads only for subscribers its question marked.
		const labels = (subscriber?.label_ids ?? [])
			.map((id) => state.labels.find((label) => label.id === id)?.label_name)
			.filter(Boolean);
		return state.webhooks.emit(message.phone_number_id, 'incoming_message', {
			...common,
			user_message: userMessageOf(message),
			...(labels.length ? { label_names: labels.join(',') } : {}),
			...(subscriber && Object.keys(subscriber.custom_fields).length
				? { custom_fields: { ...subscriber.custom_fields } }
				: {}),
		});
	}
	// SPEC-GAP (WebhookConfig.outgoing): the same flat shape as an incoming message, text included, as one
	// deployment was seen posting; or without the text, as another integrator reported. `sender`: not seen.
	const outgoing = state.webhooks.config(message.phone_number_id)?.outgoing ?? 'likeIncoming';
	return state.webhooks.emit(message.phone_number_id, 'outgoing_message', {
		...common,
		...(outgoing === 'likeIncoming' ? { user_message: userMessageOf(message) } : {}),
		sender: message.sender,
	});
}

/** An outgoing message's status moved. */
export function statusWebhook(state: SimState, message: ConversationMessage): WebhookDelivery[] {
	const bot = state.bot(message.phone_number_id);
	return state.webhooks.emit(message.phone_number_id, 'message_status', {
		webhook_type: 'message_status_change',
		message_status: message.message_status,
		status_time: message.delivery_status_updated_at,
		failed_reason: message.message_status === 'failed' ? message.failed_reason : '',
		// SPEC-GAP: not in the list of fields seen; a receiver cannot do much without them.
		wa_message_id: message.wa_message_id,
		chat_id: message.whatsapp_bot_subscriber_subscriber_id,
		...customerIdsOf(
			state,
			message.whatsapp_bot_subscriber_subscriber_id,
			bot?.whatsapp_bot_id ?? 0,
		),
		whatsapp_bot_id: bot?.whatsapp_bot_id ?? 0,
	});
}

/**
 * SPEC-GAP: Meta's business-scoped user ids and usernames (2026). What the platform will send for a customer who has
 * them, or has no phone number, is not published; for a customer listed in `state.customerIds`
 * (`/__control/customer-ids`) the webhooks carry Meta's fields as Meta names them (`user_id`, `username`,
 * `parent_user_id`), and with `no_phone` no phone number: `chat_id` empty and `subscriber_id` `<user_id>-<bot id>`.
 */
function customerIdsOf(state: SimState, chatId: string, botId: number): Record<string, string> {
	const ids = state.customerIds[chatId];
	if (!ids) return {};
	const fields: Record<string, string> = { user_id: ids.user_id };
	if (ids.username) fields.username = ids.username;
	if (ids.parent_user_id) fields.parent_user_id = ids.parent_user_id;
	return ids.no_phone
		? { ...fields, chat_id: '', subscriber_id: `${ids.user_id}-${botId}` }
		: fields;
}

/** A conversation was marked (resolved, reopen, archived, blocked, …) through the API or by an agent. */
export function conversationWebhook(
	state: SimState,
	subscriber: Subscriber,
	action: string,
	agentName = 'API',
): WebhookDelivery[] {
	// Nothing to send: the clock must not move (other tests expect their timestamps).
	if (!state.webhooks.config(subscriber.phone_number_id)?.urls.conversation_status) return [];
	const bot = state.bot(subscriber.phone_number_id);
	return state.webhooks.emit(subscriber.phone_number_id, 'conversation_status', {
		event: `conversation.${action}`,
		action,
		agent_name: agentName,
		changed_at: state.now(),
		// SPEC-GAP: whose conversation; not in the list of fields seen.
		chat_id: subscriber.chat_id,
		first_name: subscriber.first_name,
		whatsapp_bot_id: bot?.whatsapp_bot_id ?? 0,
	});
}

/** A flow's "Forward Data to Webhook" step ran for a subscriber. */
export function flowDataWebhook(
	state: SimState,
	input: {
		phone_number_id?: string;
		phone_number: string;
		postbackid?: string;
		user_message?: string;
		user_input_data?: unknown;
	},
): WebhookDelivery[] {
	const phoneNumberId = input.phone_number_id ?? state.bots[0].phone_number_id;
	const bot = state.bot(phoneNumberId);
	if (!bot) throw new Error(`unknown phone_number_id ${phoneNumberId}`);
	const subscriber = state.subscriber(phoneNumberId, input.phone_number);
	return state.webhooks.emit(phoneNumberId, 'flow_data', {
		first_name: subscriber?.first_name ?? '',
		chat_id: input.phone_number,
		postbackid: input.postbackid ?? '',
		user_input_data: input.user_input_data ?? [],
		user_message: input.user_message ?? '',
		whatsapp_bot_username: botUsername(bot),
	});
}
