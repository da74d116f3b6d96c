import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { botSailorRequest } from '../../BotSailor/shared/request';
import { compareMessages, isIncoming, subscriberName } from '../lib/api';
import { readConversation } from '../lib/conversation';
import { isActivityCursor, recentActivity, startActivity, walkActivity, type ActivityCursor } from '../lib/activityWalk';
import { phoneNumberIdOf, SAMPLE_SUBSCRIBERS, showForEvents, type TriggerEvent } from '../lib/event';
import { messageItem } from '../lib/subscriber';

const EVENT = 'messageStatusChanged';

/**
 * Status tracking is bounded: the last MAX_TRACKED outgoing messages sent after activation, at most
 * MAX_AGE_DAYS older than the newest message seen, until they reach a final status (read or failed).
 * Older messages are no longer followed.
 */
export const MAX_TRACKED = 100;
export const MAX_AGE_DAYS = 7;
const FINAL = new Set(['read', 'failed']);
export const STATUSES = ['sent', 'delivered', 'read', 'failed'];

/** A followed outgoing message. */
interface Tracked {
	waMessageId: string;
	/** The subscriber's number (chat_id) and name. */
	phoneNumber: string;
	subscriberName: string;
	/** The status last seen. */
	status: string;
	/** Its conversation_time. */
	sentAt: string;
}

/** Version 2 (version 1 had the same content under one-letter keys: migrated). */
interface StatusState {
	activity: ActivityCursor;
	tracked: Tracked[];
}

const isText = (value: unknown): value is string => typeof value === 'string';

/** A version 1 state ({ activity, tracked: [{ w, p, n, s, t }] }) in version 2's keys; undefined when it is not one. */
function fromVersion1(state: unknown): StatusState | undefined {
	const { activity, tracked } = (state ?? {}) as { activity?: unknown; tracked?: unknown };
	if (!isActivityCursor(activity) || !Array.isArray(tracked)) return undefined;
	const entries: Tracked[] = [];
	for (const entry of tracked as Array<Record<string, unknown> | null>) {
		if (!entry || ![entry.w, entry.p, entry.n, entry.s, entry.t].every(isText)) return undefined;
		entries.push({ waMessageId: entry.w as string, phoneNumber: entry.p as string, subscriberName: entry.n as string, status: entry.s as string, sentAt: entry.t as string });
	}
	return { activity, tracked: entries };
}

function statusOf(message: IDataObject): string {
	return String(message.message_status ?? '');
}

/** An outgoing message whose status moved after it was sent (its status time is later than its send time). */
function changedSinceSent(message: IDataObject): boolean {
	const updated = String(message.delivery_status_updated_at ?? '');
	return statusOf(message) !== '' && updated !== '' && updated > String(message.conversation_time ?? '');
}

function ageLimit(newest: string): string {
	const parsed = Date.parse(`${newest.replace(' ', 'T')}Z`);
	if (Number.isNaN(parsed)) return '';
	return new Date(parsed - MAX_AGE_DAYS * 86_400_000).toISOString().replace('T', ' ').slice(0, 19);
}

function wanted(context: IPollFunctions): Set<string> {
	const statuses = context.getNodeParameter('statuses', STATUSES) as string[];
	return new Set(statuses.length ? statuses : STATUSES);
}

function statusItem(message: IDataObject, subscriber: IDataObject, phoneNumberId: string, previous: string | null): IDataObject {
	const item: IDataObject = { ...messageItem(message, subscriber, phoneNumberId), previous_status: previous };
	if (statusOf(message) !== 'failed') delete item.failed_reason;
	return item;
}

export const messageStatusChanged: TriggerEvent<StatusState> = {
	value: EVENT,
	name: 'Message Status Changed',
	description: 'An outgoing message was sent, delivered, read or failed',
	perNumber: true,
	properties: [
		{
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
			description: 'Emit only changes to these statuses',
			displayOptions: showForEvents([EVENT]),
		},
	],
	scope: (context) => `${EVENT}:${phoneNumberIdOf(context)}`,
	stateVersion: 2,
	migrate: (state, version) => (version === 1 ? fromVersion1(state) : undefined),
	start: async (context) => ({ activity: await startActivity(context, phoneNumberIdOf(context)), tracked: [] }),
	async poll(context, state) {
		const phoneNumberId = phoneNumberIdOf(context);
		const statuses = wanted(context);
		const { found, cursor } = await walkActivity(context, phoneNumberId, state.activity);
		const changes: Array<{ message: IDataObject; subscriber: IDataObject; previous: string | null }> = [];
		const following = new Map<string, Tracked>();

		// Messages sent since the last poll: followed from now on; a status that already moved is a change.
		for (const { subscriber, fresh } of found) {
			for (const message of fresh) {
				if (isIncoming(message) || !message.wa_message_id) continue;
				if (changedSinceSent(message)) changes.push({ message, subscriber, previous: null });
				following.set(String(message.wa_message_id), {
					waMessageId: String(message.wa_message_id),
					phoneNumber: String(subscriber.chat_id),
					subscriberName: subscriberName(subscriber),
					status: statusOf(message),
					sentAt: String(message.conversation_time ?? ''),
				});
			}
		}

		// Messages followed before: read their status from the conversation's first page (one request per
		// subscriber, reused from the walk), or from message-status when they are further back.
		const pages = new Map(found.map((entry) => [String(entry.subscriber.chat_id), entry.latest]));
		for (const tracked of state.tracked) {
			if (following.has(tracked.waMessageId)) continue;
			let latest = pages.get(tracked.phoneNumber);
			if (!latest) {
				latest = (await readConversation(context, phoneNumberId, tracked.phoneNumber, state.activity.lastPages?.[tracked.phoneNumber])).latest;
				pages.set(tracked.phoneNumber, latest);
			}
			let message = latest.find((entry) => String(entry.wa_message_id) === tracked.waMessageId);
			if (!message) {
				const envelope = await botSailorRequest.call(context, '/whatsapp/get/message-status', { wa_message_id: tracked.waMessageId });
				const status = (envelope.message ?? {}) as IDataObject;
				message = { ...status, wa_message_id: tracked.waMessageId, conversation_time: tracked.sentAt, whatsapp_bot_subscriber_subscriber_id: tracked.phoneNumber };
			}
			const subscriber = { chat_id: tracked.phoneNumber, first_name: tracked.subscriberName };
			if (statusOf(message) !== tracked.status) changes.push({ message, subscriber, previous: tracked.status });
			following.set(tracked.waMessageId, { ...tracked, status: statusOf(message) });
		}

		const oldest = ageLimit(cursor.newest);
		const tracked = [...following.values()]
			.filter((entry) => !FINAL.has(entry.status) && entry.sentAt >= oldest)
			.sort((a, b) => b.sentAt.localeCompare(a.sentAt))
			.slice(0, MAX_TRACKED);
		const items = changes
			.filter(({ message }) => statuses.has(statusOf(message)))
			.sort((a, b) => String(a.message.delivery_status_updated_at ?? '').localeCompare(String(b.message.delivery_status_updated_at ?? '')) || compareMessages(a.message, b.message))
			.map(({ message, subscriber, previous }) => statusItem(message, subscriber, phoneNumberId, previous));
		return { items, state: { activity: cursor, tracked } };
	},
	async newest(context) {
		const phoneNumberId = phoneNumberIdOf(context);
		const statuses = wanted(context);
		const found = await recentActivity(context, phoneNumberId, SAMPLE_SUBSCRIBERS);
		const newest = found
			.flatMap(({ subscriber, fresh }) =>
				fresh.filter((message) => !isIncoming(message) && statuses.has(statusOf(message))).map((message) => ({ message, subscriber })),
			)
			.sort((a, b) => compareMessages(a.message, b.message))
			.at(-1);
		return newest ? statusItem(newest.message, newest.subscriber, phoneNumberId, null) : undefined;
	},
};
