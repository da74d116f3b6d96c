import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type INodeProperties,
} from 'n8n-workflow';
import {
	conversationSource,
	isMessage,
	walkBack,
	type ConversationSource,
} from '../../shared/conversation/conversation';
import { listRecords } from '../../shared/http/envelope';
import { refuse } from '../../shared/parameters/inputs';
import { byCodeUnit } from '../../shared/parameters/fieldOrder';
import { isIncoming, senderKind } from '../../shared/conversation/messageItem';
import { platformTimeEvidence, platformTimeZone } from '../../shared/http/platformTime';
import { conversationAnswerProblem } from '../../shared/whatsapp/sessionWindow';
import { FORM_CONTENT_TYPE } from '../../shared/http/transport';
import type { SendItem } from './sendItem';

/**
 * Reply guards on the free-form sends (Send Text, Send Buttons, Send Media; issue 46): options in their Additional Fields.
 * - Only If Still Unanswered: the send names the customer message it answers (Answers Message ID) and is skipped
 *   when the customer wrote again since (a newer execution answers) or a reply was already sent after it.
 * - Skip If a Person Took Over: skipped when a team member (sender `agent`, never the bot, a sequence, an
 *   automation or the AI agent: messageItem.ts senderKind) wrote after that message or within the last minutes the
 *   user sets; with Takeover Includes Assignment (on by default), also when the subscriber is assigned to a team member (Subscriber →
 *   Get's assigned_agent_id: the conversation does not show it, spec "Conversation message").
 * Read and checked before any request (prepareSend); run in the item's turn before the send (performSend). Cost: the
 * conversation is read once per item for both guards and shared with Check Window First (`sharedConversation`), so
 * both guards add at most one request, none after Check Window First; the assignment is one more (Subscriber →
 * Get), shared with Skip Opted-Out Subscribers (`sharedSubscriber`). A check that cannot be read never means "send":
 * the item fails with the reason.
 */

export interface ReplyGuards {
	onlyIfUnanswered: boolean;
	skipIfPersonTookOver: boolean;
	/** The customer message the send answers (its wa_message_id, or the record id). */
	messageId: string;
	/** A team member who wrote within this many minutes has taken over. */
	takeoverMinutes: number;
	/** Skip If a Person Took Over also reads the assignment (Subscriber → Get). */
	includesAssignment: boolean;
}

/** At most this many pages of 50 messages are read looking for the answered message (as Get Unanswered). */
const MAX_PAGES = 4;
const MESSAGE_ID_FIELD = 'Answers Message ID';
/** wa_message_ids (`wamid.` + base64) and record ids: no spaces, no braces, at most 256 characters. */
const MESSAGE_ID_SHAPE = /^[A-Za-z0-9._=:+/-]{1,256}$/;
const DEFAULT_TAKEOVER_MINUTES = 60;

/** The options, for an operation's Additional Fields collection (withReplyGuards). */
const replyGuardOptions: INodeProperties[] = [
	{
		displayName: 'Answers Message ID',
		name: 'answersMessageId',
		type: 'string',
		default: '={{ $json.wa_message_id }}',
		description:
			'For the reply guards: the wa_message_id of the customer message this send answers. The default is the message our triggers output.',
	},
	{
		displayName: 'Only If Still Unanswered',
		name: 'onlyIfUnanswered',
		type: 'boolean',
		default: false,
		description:
			'Whether to send nothing (skipped: true) when the customer wrote again after the message in Answers Message ID, or a reply was already sent after it. Reads the conversation once (shared with Check Window First).',
	},
	{
		displayName: 'Skip If a Person Took Over',
		name: 'skipIfPersonTookOver',
		type: 'boolean',
		default: false,
		description:
			'Whether to send nothing (skipped: true) when a team member wrote after the message in Answers Message ID or within Takeover Window. Reads the conversation once (shared with Only If Still Unanswered and Check Window First).',
	},
	{
		displayName: 'Takeover Includes Assignment',
		name: 'takeoverIncludesAssignment',
		type: 'boolean',
		default: true,
		description:
			'Whether, for Skip If a Person Took Over, a conversation assigned to a team member (e.g. by Hand Over to a Person) counts as taken over before the person writes. One more request per item (Subscriber → Get) unless the conversation already shows the takeover, shared with Skip Opted-Out Subscribers. Turn off to save that request when every takeover starts with a person writing.',
	},
	{
		displayName: 'Takeover Window (Minutes)',
		name: 'takeoverMinutes',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: DEFAULT_TAKEOVER_MINUTES,
		description:
			'For Skip If a Person Took Over: a team member who wrote within this many minutes has taken over, even before the customer’s message',
	},
];

/**
 * An Additional Fields collection's options with the reply guards joined in by display name: the panel lists a
 * collection's options alphabetically, so each guard goes before the first option whose name sorts after it.
 */
export function withReplyGuards(options: INodeProperties[]): INodeProperties[] {
	const joined = [...options];
	for (const guard of replyGuardOptions) {
		const at = joined.findIndex((option) => byCodeUnit(option.displayName, guard.displayName) > 0);
		joined.splice(at < 0 ? joined.length : at, 0, guard);
	}
	return joined;
}

/** The item's guards, checked before any request (a bad Answers Message ID fails the item, naming the field). */
export function replyGuardsOf(item: SendItem): ReplyGuards | undefined {
	const options = (item.param('additionalFields', {}) ?? {}) as IDataObject;
	const onlyIfUnanswered = options.onlyIfUnanswered === true;
	const skipIfPersonTookOver = options.skipIfPersonTookOver === true;
	if (!onlyIfUnanswered && !skipIfPersonTookOver) return undefined;
	const raw = options.answersMessageId;
	const messageId = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
	if (!messageId)
		refuse(
			item,
			`${MESSAGE_ID_FIELD} is empty`,
			`Parameter "${MESSAGE_ID_FIELD}": the reply guards need the wa_message_id of the customer message this send answers, e.g. {{ $json.wa_message_id }} from the BotSailor Trigger. Add the option to Additional Fields.`,
		);
	if (!MESSAGE_ID_SHAPE.test(messageId))
		refuse(
			item,
			`${MESSAGE_ID_FIELD} is not a message ID: "${messageId.slice(0, 80)}"`,
			`Parameter "${MESSAGE_ID_FIELD}": give a wa_message_id (e.g. wamid.HBgM…) or a conversation record id, without spaces.`,
		);
	const minutes = Number(options.takeoverMinutes ?? DEFAULT_TAKEOVER_MINUTES);
	if (!Number.isFinite(minutes) || minutes < 0)
		refuse(
			item,
			'Takeover Window (Minutes) must be a number of minutes, 0 or more',
			'Parameter "Takeover Window (Minutes)".',
		);
	return {
		onlyIfUnanswered,
		skipIfPersonTookOver,
		messageId,
		takeoverMinutes: minutes,
		// On unless turned off: a handed-over conversation is taken over before the person writes.
		includesAssignment: skipIfPersonTookOver && options.takeoverIncludesAssignment !== false,
	};
}

/**
 * The subscriber's conversation as one source for every check of the item's turn: each page is requested once
 * (the reply guards and Check Window First share it).
 */
export function sharedConversation(
	item: SendItem,
	fields: IDataObject,
): () => Promise<ConversationSource> {
	const answers = new Map<string, Promise<IDataObject>>();
	let source: ConversationSource | undefined;
	return async () => {
		if (source) return source;
		const credentials = await item.credentials();
		source = conversationSource(
			item.getNode(),
			{ phone_number_id: fields.phone_number_id, phone_number: fields.phone_number },
			credentials.apiForm === 'earlier',
			async (body) => {
				const key = JSON.stringify(body);
				let answer = answers.get(key);
				if (!answer) {
					answer = item.request({
						method: 'POST',
						url: '/whatsapp/get/conversation',
						headers: { 'Content-Type': FORM_CONTENT_TYPE, Accept: 'application/json' },
						body,
					});
					answers.set(key, answer);
					// A failed read is not kept: the item fails, and a retry reads again.
					answer.catch(() => answers.delete(key));
				}
				return await answer;
			},
		);
		return source;
	};
}

/**
 * Subscriber → Get of the item's subscriber, requested once in the item's turn and shared by Skip Opted-Out
 * Subscribers and Skip If a Person Took Over (a failure is shared too: both fail or read "not found" alike).
 */
export function sharedSubscriber(item: SendItem, fields: IDataObject): () => Promise<IDataObject> {
	let answer: Promise<IDataObject> | undefined;
	return async () =>
		await (answer ??= item.request({
			method: 'POST',
			url: '/whatsapp/subscriber/get',
			headers: { 'Content-Type': FORM_CONTENT_TYPE, Accept: 'application/json' },
			body: { phone_number_id: fields.phone_number_id, phone_number: fields.phone_number },
		}));
}

/** Why the item is skipped, as its output; undefined when it may be sent. Fails the item when a check cannot be read. */
export async function checkReplyGuards(
	item: SendItem,
	guards: ReplyGuards,
	conversation: () => Promise<ConversationSource>,
	subscriber: () => Promise<IDataObject>,
	fields: IDataObject,
	now = Date.now(),
): Promise<IDataObject | undefined> {
	const phoneNumber = String(fields.phone_number ?? '');
	const zone = platformTimeZone(item.getNode(), await item.credentials());
	const fail = (message: string, description: string): never => {
		throw new NodeOperationError(item.getNode(), message, {
			description: `${description} Nothing was sent.`,
			itemIndex: item.getItemIndex(),
		});
	};
	const source = await conversation();
	const checked: ConversationSource = {
		...source,
		fetch: async (page) => {
			const envelope = await source.fetch(page);
			const problem = conversationAnswerProblem(envelope);
			if (problem)
				fail(
					`The conversation could not be read, so the reply guards cannot tell whether to send: ${problem}`,
					'Only If Still Unanswered and Skip If a Person Took Over read the subscriber’s conversation (whatsapp/get/conversation); an answer that cannot be read is never taken for "send".',
				);
			return envelope;
		},
	};
	const timeOf = (row: IDataObject) => {
		const time = platformTimeEvidence(row.conversation_time, zone, now);
		return 'at' in time ? time.at : undefined;
	};
	/** Why a row's time is no evidence (platformTime.ts), undefined when it is. */
	const timeProblem = (row: IDataObject) => {
		const time = platformTimeEvidence(row.conversation_time, zone, now);
		return 'problem' in time ? time.problem : undefined;
	};
	// Back to the message the send answers (conversation.ts walkBack, as Get Unanswered walks).
	const walk = await walkBack(checked, isMessage(guards.messageId), { maxPages: MAX_PAGES });
	const found = walk.at;
	if (!found)
		return fail(
			`${MESSAGE_ID_FIELD} is not in the conversation of ${phoneNumber}: ${guards.messageId}`,
			`Parameter "${MESSAGE_ID_FIELD}": the message was not found among the subscriber’s newest ${MAX_PAGES * 50} messages. Give the wa_message_id of the customer message this send answers (the trigger’s wa_message_id).`,
		);
	if (!isIncoming(found))
		fail(
			`${MESSAGE_ID_FIELD} names a message sent to the subscriber, not one of theirs: ${guards.messageId}`,
			`Parameter "${MESSAGE_ID_FIELD}": give the wa_message_id of the customer message this send answers.`,
		);
	const isPerson = (row: IDataObject) => !isIncoming(row) && senderKind(row) === 'agent';
	const newer = walk.newer.find(isIncoming);
	const reply = walk.newer.find((row) => !isIncoming(row) && !isPerson(row));
	let person = walk.newer.find(isPerson);
	// Rows are sorted by their times: one whose time is no evidence may be newer than it was sorted (issue 50).
	const matters = (row: IDataObject) =>
		guards.onlyIfUnanswered || (guards.skipIfPersonTookOver && isPerson(row));
	const foundProblem = timeProblem(found);
	let unordered: IDataObject | undefined =
		foundProblem && walk.atPage.some((row) => row !== found && matters(row))
			? found
			: walk.atPage.find((row) => row !== found && matters(row) && timeProblem(row));
	if (guards.skipIfPersonTookOver && !person) {
		// Before the customer's message: a team member within the takeover window still counts.
		const cutoff = now - guards.takeoverMinutes * 60_000;
		for await (const row of walk.older) {
			const at = timeOf(row);
			if (!at) {
				// A team member's row without a time may be inside the window: not "no takeover".
				if (isPerson(row)) unordered ??= row;
				continue;
			}
			if (at.getTime() < cutoff) break;
			if (isPerson(row)) {
				person = row;
				break;
			}
		}
	}
	const skipped = (skipReason: string, reason: string, extra: IDataObject = {}) => ({
		skipped: true,
		skip_reason: skipReason,
		reason,
		phone_number: phoneNumber,
		answers_message_id: guards.messageId,
		...extra,
	});
	if (guards.skipIfPersonTookOver && person) {
		const who = String(person.agent_name ?? '') || 'a team member';
		const when = timeOf(person)?.toISOString() ?? null;
		return skipped(
			'person_took_over',
			`A person took over: ${who} wrote${when ? ` at ${when}` : ''}`,
			{
				taken_over_by: who,
				taken_over_at: when,
			},
		);
	}
	if (guards.onlyIfUnanswered && newer)
		return skipped(
			'newer_message_arrived',
			'The customer wrote again since this message; a newer reply will answer',
			{ newer_wa_message_id: newer.wa_message_id ?? null },
		);
	if (guards.onlyIfUnanswered && (reply || person)) {
		const answer = (reply ?? person) as IDataObject;
		return skipped(
			'already_answered',
			`Already answered: ${senderKind(answer)} replied after this message`,
			{
				answered_by: senderKind(answer),
				answered_at: timeOf(answer)?.toISOString() ?? null,
			},
		);
	}
	if (unordered) {
		const problem = timeProblem(unordered) ?? 'has no time';
		fail(
			unordered === found
				? `The reply guards cannot tell whether to send: the message ${guards.messageId} ${problem}, so the rows around it cannot be ordered`
				: `The reply guards cannot tell whether to send: the ${senderKind(unordered)} message ${String(unordered.id ?? unordered.wa_message_id ?? '')} ${problem}, so it may be newer than ${guards.messageId}`,
			'The conversation is ordered by its times (conversation_time); a row whose time is no evidence is never taken for an older one. Retry once the platform shows its time, or turn the guard off for this send.',
		);
	}
	if (guards.includesAssignment) {
		const assigned = await readAssignment(subscriber, fields, fail);
		if (assigned)
			return skipped(
				'assigned_to_team_member',
				`A person took over: the conversation is assigned to ${assigned}`,
				{
					taken_over_by: assigned,
					taken_over_at: null,
				},
			);
	}
	return undefined;
}

/** The team member the subscriber is assigned to (Subscriber → Get's assigned_agent_id), undefined when none. */
async function readAssignment(
	subscriber: () => Promise<IDataObject>,
	fields: IDataObject,
	fail: (message: string, description: string) => never,
): Promise<string | undefined> {
	let envelope: IDataObject | undefined;
	let failure: unknown;
	try {
		envelope = await subscriber();
	} catch (error) {
		failure = error;
	}
	if (failure instanceof NodeApiError && /subscriber not found/i.test(failure.message))
		return fail(
			`The subscriber ${String(fields.phone_number ?? '')} was not found, so Skip If a Person Took Over cannot tell whether the conversation is assigned`,
			'Subscriber → Get answered that the platform does not know this number.',
		);
	if (!envelope) throw failure;
	const record = listRecords(envelope)?.[0] ?? (envelope.message as IDataObject | undefined);
	const id = record && typeof record === 'object' ? record.assigned_agent_id : undefined;
	if (id === undefined || id === null || (typeof id !== 'number' && typeof id !== 'string'))
		return fail(
			'The assignment could not be read, so Skip If a Person Took Over cannot tell whether a person took over: Subscriber → Get’s answer shows no assigned_agent_id',
			'The assignment is read from Subscriber → Get (assigned_agent_id); an answer without it is never taken for "not assigned".',
		);
	const number = Number(id);
	if (String(id).trim() === '' || number === 0) return undefined;
	if (!Number.isFinite(number))
		return fail(
			`The assignment could not be read: assigned_agent_id is "${String(id).slice(0, 40)}"`,
			'Skip If a Person Took Over reads Subscriber → Get’s assigned_agent_id.',
		);
	const name = typeof record?.assigned_agent === 'string' ? record.assigned_agent.trim() : '';
	return name ? `${name} (team member ${number})` : `team member ${number}`;
}
