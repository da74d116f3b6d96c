import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { botSailorRequest } from '../../BotSailor/shared/request';
import { compareMessages, isIncoming, subscriberName } from '../lib/api';
import { readConversation } from '../lib/conversation';
import { recentActivity, startActivity, walkActivity, type ActivityCursor } from '../lib/activityWalk';
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

/** A followed outgoing message: wa_message_id, subscriber number and name, status, conversation_time. */
interface Tracked {
	w: string;
	p: string;
	n: string;
	s: string;
	t: string;
}

interface StatusState {
	activity: ActivityCursor;
	tracked: Tracked[];
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
					w: String(message.wa_message_id), p: String(subscriber.chat_id), n: subscriberName(subscriber), s: statusOf(message), t: String(message.conversation_time ?? ''),
				});
			}
		}

		// Messages followed before: read their status from the conversation's first page (one request per
		// subscriber, reused from the walk), or from message-status when they are further back.
		const pages = new Map(found.map((entry) => [String(entry.subscriber.chat_id), entry.latest]));
		for (const tracked of state.tracked) {
			if (following.has(tracked.w)) continue;
			let latest = pages.get(tracked.p);
			if (!latest) {
				latest = (await readConversation(context, phoneNumberId, tracked.p, state.activity.lastPages?.[tracked.p])).latest;
				pages.set(tracked.p, latest);
			}
			let message = latest.find((entry) => String(entry.wa_message_id) === tracked.w);
			if (!message) {
				const envelope = await botSailorRequest.call(context, '/whatsapp/get/message-status', { wa_message_id: tracked.w });
				const status = (envelope.message ?? {}) as IDataObject;
				message = { ...status, wa_message_id: tracked.w, conversation_time: tracked.t, whatsapp_bot_subscriber_subscriber_id: tracked.p };
			}
			const subscriber = { chat_id: tracked.p, first_name: tracked.n };
			if (statusOf(message) !== tracked.s) changes.push({ message, subscriber, previous: tracked.s });
			following.set(tracked.w, { ...tracked, s: statusOf(message) });
		}

		const oldest = ageLimit(cursor.newest);
		const tracked = [...following.values()]
			.filter((entry) => !FINAL.has(entry.s) && entry.t >= oldest)
			.sort((a, b) => b.t.localeCompare(a.t))
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
