/** The simulator's in-memory world: plain records shaped like the spec's resources. */
import { StatusProgression } from './statuses';
import { Webhooks } from './webhooks';

export type Row = Record<string, unknown>;

export interface Bot {
	phone_number_id: string;
	display_phone_number: string;
	whatsapp_business_account_id: string;
	whatsapp_business_name: string;
	/** Internal numeric id used in conversation and post-back records. */
	whatsapp_bot_id: number;
	user_id: number;
}

export interface Subscriber {
	subscriber_id: number;
	phone_number_id: string;
	chat_id: string;
	first_name: string;
	last_name: string;
	email: string;
	gender: string;
	created_at: string;
	assigned_agent_id: number;
	label_ids: number[];
	sequence_ids: number[];
	custom_fields: Record<string, string>;
	/** 0 open, 1 resolved, 2 archived, 3 blocked (spec: States and transitions). */
	conversation_status: number;
	/** Timestamp of the last message, for orderBy=1. */
	last_message_at: string;
	input_flow_reset_count: number;
}

export interface ConversationMessage extends Row {
	id: number;
	phone_number_id: string;
	whatsapp_bot_subscriber_subscriber_id: string;
	whatsapp_bot_id: number;
	sender: string;
	agent_name: string | null;
	message_content: string;
	conversation_time: string;
	wa_message_id: string;
	reaction_data: null;
	message_status: string | null;
	delivery_status_updated_at: string;
	failed_reason: string;
	read_time: string | null;
	failed_time: string | null;
}

export class SimState {
	/** The simulated clock; every write moves it one second so timestamps are ordered and deterministic. */
	clock = Date.UTC(2026, 0, 15, 9, 0, 0);
	/**
	 * Whether the clock follows the real time (the demo): each request moves it to now (sync), each write at least one
	 * millisecond, so timestamps stay ordered. Off for the tests, whose fixed clock makes every run the same.
	 */
	realClock = false;
	private sequence = 1000;
	/**
	 * Added to the numbers of the message ids (wamid.SIM…): 0 on the fixed clock; on the real clock the world's start in
	 * microseconds (realClockIdBase), so a restarted demo never reuses an id that n8n's duplicate memory still holds.
	 */
	waIdBase = 0;

	me: Row = {};
	bots: Bot[] = [];
	users: Row[] = [];
	teamMembers: Row[] = [];
	packages: Row[] = [];
	modules: Row[] = [];
	addons: Row[] = [];
	purchases: Row[] = [];
	transactions: Row[] = [];
	loggedOutUserIds: number[] = [];
	connectedAccounts: Row[] = [];
	subscribers: Subscriber[] = [];
	messages: ConversationMessage[] = [];
	labels: Row[] = [];
	sequences: Row[] = [];
	customFields: Row[] = [];
	notes: Row[] = [];
	deals: Row[] = [];
	templates: Row[] = [];
	postBacks: Row[] = [];
	botFlows: Row[] = [];
	botFlowTriggers: Row[] = [];
	broadcasts: Row[] = [];
	catalogs: Row[] = [];
	catalogSyncs: string[] = [];
	orders: Row[] = [];
	media: Row[] = [];
	aiRequests: Row[] = [];
	/** Subscriber cap of the API owner's package (the subscriber-limit rule). */
	subscriberLimit = 100_000;
	/** Carousel templates left in the module limit. */
	carouselLimit = 5;
	/** The outgoing webhooks (URLs per number and event, faults, deliveries): see webhooks.ts. */
	webhooks = new Webhooks();
	/** Statuses after a send (sent → delivered → read, or failed), with delays: off until configured (statuses.ts). */
	statuses = new StatusProgression();
	/**
	 * Whether the template list hides the access token inside template_json, as the spec says.
	 * SPEC-GAP: deployments have been seen returning the business account's Meta token there; false models them.
	 */
	hidesTemplateTokens = true;
	/** Whether list answers with one record carry the record itself instead of an array of one (SPEC-GAP, see server.ts). */
	listOfOneAsObject = false;
	/**
	 * The subscriber list's default order (orderBy=0): creation order, oldest first, as the trigger assumed.
	 * SPEC-GAP: the spec says only "0 keeps default order"; `newestFirst` and `byName` (not ordered by
	 * subscriber_id at all) model deployments that order otherwise.
	 */
	subscriberDefaultOrder: 'oldestFirst' | 'newestFirst' | 'byName' = 'oldestFirst';
	/**
	 * The order of conversation pages: newest first (page 1 = latest messages).
	 * SPEC-GAP: the spec does not say; `oldestFirst` (page 1 = the first messages ever) and `unordered`
	 * (pages in no time order) model deployments that differ.
	 */
	conversationOrder: 'newestFirst' | 'oldestFirst' | 'unordered' = 'newestFirst';
	/**
	 * How the conversation's `message` list is sent: an array (the spec), or JSON text of an array, of an
	 * object keyed "0","1",…, or of an object keyed by row id. SPEC-GAP: reported by five integrators.
	 */
	conversationListShape: 'array' | 'jsonArray' | 'jsonIndexed' | 'jsonById' = 'array';
	/**
	 * Whether the subscriber's messages are stored in Meta's webhook format (`message_content` = the whole
	 * webhook, the message at entry[0].changes[0].value.messages[0]). SPEC-GAP: reported by integrators.
	 */
	incomingAsMetaWebhook = false;
	/**
	 * Whether free-form sends (text, buttons, media) are refused with OUTSIDE_WINDOW_TEXT when the subscriber's newest
	 * own message (a `user` row) is more than 24 hours older than the clock, or there is none: WhatsApp's customer
	 * service window, as the spec states it at Send text message. SPEC-GAP: off by default only because the seed's
	 * conversations are months old, so the window would refuse most free-form sends of the suite; the window's tests,
	 * the demo and bench turn it on (`/__control/deployment {"sessionWindow": "enforced"}`), and move a subscriber out
	 * of the window with `/__control/window`.
	 */
	sessionWindow: 'enforced' | 'off' = 'off';
	/**
	 * Whether a template send is stored as the template itself (name, language, components with the body
	 * text; no top-level `type`). SPEC-GAP: seen on deployments; the default keeps the sent message.
	 */
	templateSendsAsTemplate = false;
	/**
	 * A deployment on the earlier API form only: the subscriber list and the conversation have no
	 * pagination parameters and answer the whole list. SPEC-GAP: what such a deployment does with
	 * limit/offset is not shown; the simulator refuses them, so a client that sends them cannot pass by accident.
	 */
	earlierFormOnly = false;
	/**
	 * Customers (phone numbers) whose sends Meta refuses, each with its error code (131049, 131050, 131056) and how many
	 * more sends it refuses (undefined: every one). SPEC-GAP: how the platform relays Meta's refusal of a send is not
	 * shown; the simulator answers `status "0"` with Meta's text, "(#<code>) <title>" (statuses.ts), on HTTP
	 * `metaRefusalHttpStatus` (200 unless a test picks 400 or 429, as a platform that passes Meta's HTTP status on).
	 * Set with `/__control/meta-refusals`.
	 */
	metaRefusals: Record<string, { code: number; times?: number }> = {};
	metaRefusalHttpStatus = 200;

	nextId(): number {
		return ++this.sequence;
	}

	/** Advances the clock and returns `YYYY-MM-DD HH:MM:SS`. */
	now(): string {
		this.clock = this.realClock ? Math.max(this.clock + 1, Date.now()) : this.clock + 1000;
		return timestamp(this.clock);
	}

	/** On the real clock, moves the clock to now (before each request, so the window is judged against the time). */
	sync(): void {
		if (this.realClock) this.clock = Math.max(this.clock, Date.now());
	}

	bot(phoneNumberId: unknown): Bot | undefined {
		return this.bots.find((bot) => bot.phone_number_id === String(phoneNumberId));
	}

	subscriber(phoneNumberId: unknown, phoneNumber: unknown): Subscriber | undefined {
		return this.subscribers.find(
			(entry) =>
				entry.phone_number_id === String(phoneNumberId) && entry.chat_id === String(phoneNumber),
		);
	}

	subscribersOf(phoneNumberId: unknown): Subscriber[] {
		return this.subscribers.filter((entry) => entry.phone_number_id === String(phoneNumberId));
	}

	newWaMessageId(): string {
		return `wamid.SIM${String(this.waIdBase + this.nextId()).padStart(12, '0')}`;
	}
}

/** The time of the subscriber's newest own message (`YYYY-MM-DD HH:MM:SS`), or undefined when they never wrote. */
export function lastIncomingAt(
	state: SimState,
	phoneNumberId: string,
	phoneNumber: string,
): string | undefined {
	let newest: string | undefined;
	for (const message of state.messages)
		if (
			message.phone_number_id === phoneNumberId &&
			message.whatsapp_bot_subscriber_subscriber_id === phoneNumber &&
			message.sender === 'user' &&
			(newest === undefined || message.conversation_time > newest)
		)
			newest = message.conversation_time;
	return newest;
}

/** Whether the subscriber wrote within the 24 hours before the clock (WhatsApp's customer service window). */
export function insideWindow(state: SimState, phoneNumberId: string, phoneNumber: string): boolean {
	const last = lastIncomingAt(state, phoneNumberId, phoneNumber);
	return last !== undefined && last >= timestamp(state.clock - 24 * 3_600_000);
}

let lastIdBase = 0;

/** A real-clock world's waIdBase: now in microseconds, and always above the last one this process gave (1e6 apart). */
export function realClockIdBase(): number {
	lastIdBase = Math.max(Date.now() * 1000, lastIdBase + 1_000_000);
	return lastIdBase;
}

export function timestamp(ms: number): string {
	return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}
