import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { botSailorRequest } from '../../shared/http/transport';
import { recordOf } from '../../shared/parameters/values';
import {
	isIncoming,
	isSystemRow,
	messageItem,
	subscriberName,
} from '../../shared/conversation/messageItem';
import { compareMessages } from '../polling/api';
import { readSubscriberConversation } from '../polling/conversationReads';
import {
	isActivityCursor,
	recentActivity,
	startActivity,
	walkActivity,
	type ActivityCursor,
} from '../polling/activityWalk';
import { chosenStatuses, statusesOption } from '../../shared/triggers/triggerOptions';
import { refusalFields } from '../../shared/whatsapp/metaRefusals';
import { phoneNumberIdOf, SAMPLE_SUBSCRIBERS, type TriggerEvent } from '../polling/event';

const EVENT = 'messageStatusChanged';

/**
 * Status tracking is bounded in number, time and requests (an idle poll must not cost a request per
 * followed message):
 * - the last MAX_TRACKED outgoing messages sent after activation, until they are read or failed;
 * - a delivered message for DELIVERED_FOR_HOURS after it was seen delivered: recipients with read
 *   receipts off never report "read";
 * - any message for at most MAX_AGE_DAYS (e.g. sent to a phone that stays off), and not when it is
 *   more than MAX_AGE_DAYS older than the newest message seen;
 * - during its first EVERY_POLL_MINUTES a message is checked on every poll (statuses move fast then).
 *   After that, followed messages are checked for free when the poll reads their conversation anyway,
 *   and otherwise in turn, least recently checked first, with OLDER_REQUESTS_PER_POLL request per poll:
 *   an idle poll costs the walk's 2 requests + 1, and a change of such a message is reported within
 *   as many polls as there are of them (100 at most).
 * Times are the n8n host's clock (the platform's timestamps say no time zone).
 */
export const MAX_TRACKED = 100;
export const MAX_AGE_DAYS = 7;
export const DELIVERED_FOR_HOURS = 24;
export const EVERY_POLL_MINUTES = 60;
export const OLDER_REQUESTS_PER_POLL = 1;
const MINUTE = 60_000;
const FINAL = new Set(['read', 'failed']);

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
	/** When the trigger started following it, first saw its status, last checked it (ms, the n8n host's clock). */
	followedSince: number;
	statusSince: number;
	checkedAt: number;
	/** No longer on its conversation's newest page: checked through message-status. */
	furtherBack?: boolean;
}

/** Version 2 (version 1 had one-letter keys and no times: migrated, its messages followed as if from now). */
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
		const now = Date.now();
		entries.push({
			waMessageId: entry.w as string,
			phoneNumber: entry.p as string,
			subscriberName: entry.n as string,
			status: entry.s as string,
			sentAt: entry.t as string,
			followedSince: now,
			statusSince: now,
			checkedAt: now,
		});
	}
	return { activity, tracked: entries };
}

function statusOf(message: IDataObject): string {
	return String(message.message_status ?? '');
}

/** An outgoing message whose status moved after it was sent (its status time is later than its send time). */
function changedSinceSent(message: IDataObject): boolean {
	const updated = String(message.delivery_status_updated_at ?? '');
	return (
		statusOf(message) !== '' && updated !== '' && updated > String(message.conversation_time ?? '')
	);
}

function ageLimit(newest: string): string {
	const parsed = Date.parse(`${newest.replace(' ', 'T')}Z`);
	if (Number.isNaN(parsed)) return '';
	return new Date(parsed - MAX_AGE_DAYS * 86_400_000).toISOString().replace('T', ' ').slice(0, 19);
}

function wanted(context: IPollFunctions): Set<string> {
	return new Set(chosenStatuses(context));
}

function statusItem(
	message: IDataObject,
	subscriber: IDataObject,
	phoneNumberId: string,
	previous: string | null,
): IDataObject {
	const item: IDataObject = {
		...messageItem(message, subscriber, phoneNumberId),
		previous_status: previous,
	};
	if (statusOf(message) !== 'failed') delete item.failed_reason;
	else Object.assign(item, refusalFields(item.failed_reason));
	return item;
}

export const messageStatusEvent: TriggerEvent<StatusState> = {
	value: EVENT,
	name: 'Message Status Changed',
	description: 'An outgoing message was sent, delivered, read or failed',
	perNumber: true,
	properties: [statusesOption(EVENT, 'Emit only changes to these statuses')],
	scope: (context) => `${EVENT}:${phoneNumberIdOf(context)}`,
	stateVersion: 2,
	migrate: (state, version) => (version === 1 ? fromVersion1(state) : undefined),
	start: async (context) => ({
		activity: await startActivity(context, phoneNumberIdOf(context)),
		tracked: [],
	}),
	async poll(context, state) {
		const phoneNumberId = phoneNumberIdOf(context);
		const statuses = wanted(context);
		const now = Date.now();
		const { found, cursor } = await walkActivity(context, phoneNumberId, state.activity);
		const changes: Array<{
			message: IDataObject;
			subscriber: IDataObject;
			previous: string | null;
		}> = [];
		const following = new Map<string, Tracked>();

		// Messages sent since the last poll: followed from now on; a status that already moved is a change.
		for (const { subscriber, fresh } of found) {
			for (const message of fresh) {
				if (isIncoming(message) || isSystemRow(message) || !message.wa_message_id) continue;
				if (changedSinceSent(message)) changes.push({ message, subscriber, previous: null });
				following.set(String(message.wa_message_id), {
					waMessageId: String(message.wa_message_id),
					phoneNumber: String(subscriber.chat_id),
					subscriberName: subscriberName(subscriber),
					status: statusOf(message),
					sentAt: String(message.conversation_time ?? ''),
					followedSince: now,
					statusSince: now,
					checkedAt: now,
				});
			}
		}

		// Messages followed before: their status is read from their conversation's newest page (one request per
		// subscriber, none when the walk read it), or from message-status once they are further back.
		const pages = new Map(found.map((entry) => [String(entry.subscriber.chat_id), entry.latest]));
		const record = (entry: Tracked, message: IDataObject) => {
			const status = statusOf(message);
			if (status !== entry.status)
				changes.push({
					message,
					subscriber: { chat_id: entry.phoneNumber, first_name: entry.subscriberName },
					previous: entry.status,
				});
			following.set(entry.waMessageId, {
				...entry,
				status,
				statusSince: status !== entry.status ? now : entry.statusSince,
				checkedAt: now,
			});
		};
		/** Checks one followed message; a request is made only when `pay()` allows it. False when it has to wait. */
		const check = async (entry: Tracked, pay: () => boolean): Promise<boolean> => {
			let current = entry;
			if (!current.furtherBack) {
				if (!pages.has(current.phoneNumber)) {
					if (!pay()) return false;
					const { latest } = await readSubscriberConversation(
						context,
						phoneNumberId,
						current.phoneNumber,
						state.activity.lastPages?.[current.phoneNumber],
					);
					pages.set(current.phoneNumber, latest);
				}
				const message = pages
					.get(current.phoneNumber)
					?.find((candidate) => String(candidate.wa_message_id) === current.waMessageId);
				if (message) {
					record(current, message);
					return true;
				}
				current = { ...current, furtherBack: true };
				following.set(current.waMessageId, current);
			}
			if (!pay()) return false;
			const envelope = await botSailorRequest.call(context, '/whatsapp/get/message-status', {
				wa_message_id: current.waMessageId,
			});
			const status = recordOf(envelope.message);
			record(current, {
				...status,
				wa_message_id: current.waMessageId,
				conversation_time: current.sentAt,
				whatsapp_bot_subscriber_subscriber_id: current.phoneNumber,
			});
			return true;
		};
		const waiting = state.tracked.filter((entry) => !following.has(entry.waMessageId));
		for (const entry of waiting) following.set(entry.waMessageId, entry); // kept as they are unless checked below
		const young = (entry: Tracked) => now - entry.followedSince < EVERY_POLL_MINUTES * MINUTE;
		// Followed for less than EVERY_POLL_MINUTES: checked on every poll.
		for (const entry of waiting.filter(young)) await check(entry, () => true);
		// The others: free when their page was read anyway, then in turn within the poll's budget.
		const older = waiting
			.filter((entry) => !young(entry))
			.sort((a, b) => a.checkedAt - b.checkedAt);
		const checked = new Set<string>();
		const latestOf = (entry: Tracked) => following.get(entry.waMessageId) ?? entry;
		const checkFree = async () => {
			for (const entry of older)
				if (!checked.has(entry.waMessageId) && (await check(latestOf(entry), () => false)))
					checked.add(entry.waMessageId);
		};
		await checkFree();
		let budget = OLDER_REQUESTS_PER_POLL;
		const pay = () => budget-- > 0;
		for (const entry of older) {
			if (budget <= 0) break;
			if (!checked.has(entry.waMessageId) && (await check(latestOf(entry), pay)))
				checked.add(entry.waMessageId);
		}
		await checkFree();

		const oldest = ageLimit(cursor.newest);
		const kept = (entry: Tracked) =>
			!FINAL.has(entry.status) &&
			entry.sentAt >= oldest &&
			now - entry.followedSince <= MAX_AGE_DAYS * 24 * 60 * MINUTE &&
			!(
				entry.status === 'delivered' && now - entry.statusSince > DELIVERED_FOR_HOURS * 60 * MINUTE
			);
		const tracked = [...following.values()]
			.filter(kept)
			.sort((a, b) => b.sentAt.localeCompare(a.sentAt))
			.slice(0, MAX_TRACKED);
		const items = changes
			.filter(({ message }) => statuses.has(statusOf(message)))
			.sort(
				(a, b) =>
					String(a.message.delivery_status_updated_at ?? '').localeCompare(
						String(b.message.delivery_status_updated_at ?? ''),
					) || compareMessages(a.message, b.message),
			)
			.map(({ message, subscriber, previous }) =>
				statusItem(message, subscriber, phoneNumberId, previous),
			);
		return { items, state: { activity: cursor, tracked } };
	},
	async newest(context) {
		const phoneNumberId = phoneNumberIdOf(context);
		const statuses = wanted(context);
		const found = await recentActivity(context, phoneNumberId, SAMPLE_SUBSCRIBERS);
		const newest = found
			.flatMap(({ subscriber, fresh }) =>
				fresh
					.filter(
						(message) =>
							!isIncoming(message) && !isSystemRow(message) && statuses.has(statusOf(message)),
					)
					.map((message) => ({ message, subscriber })),
			)
			.sort((a, b) => compareMessages(a.message, b.message))
			.at(-1);
		return newest ? statusItem(newest.message, newest.subscriber, phoneNumberId, null) : undefined;
	},
};
