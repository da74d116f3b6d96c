import {
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
} from 'n8n-workflow';
import { withMedia } from '../../shared/whatsapp/mediaDownload';
import { inputs } from '../../shared/parameters/inputs';
import { isIncoming, isSystemRow, messageItem } from '../../shared/conversation/messageItem';
import { pageOfItem } from '../../shared/conversation/answeredQuestion';
import { compareMessages } from '../polling/api';
import {
	recentActivity,
	startActivity,
	walkActivity,
	type ActivityCursor,
	type SubscriberActivity,
} from '../polling/activityWalk';
import { phoneNumberIdOf, SAMPLE_SUBSCRIBERS, type TriggerEvent } from '../polling/event';
import { showForEvents } from '../../shared/triggers/triggerOptions';
import {
	awaitingWebhookMemory,
	claimDelivery,
	ID_TTL_SECONDS,
	isShared,
	refreshSnapshot,
} from '../../shared/triggers/deliveryMemory';

const EVENT = 'newMessage';

interface Filters {
	includeOutgoing: boolean;
	includeSystem: boolean;
	phoneNumbers: Set<string>;
}

/** The subscriber numbers typed in "Only From Phone Numbers", as digits; a bad entry names the option. */
function filtersOf(context: IPollFunctions): Filters {
	const options = context.getNodeParameter('messageOptions', {}) as IDataObject;
	const phoneNumbers = new Set<string>();
	for (const entry of String(options.phoneNumbers ?? '')
		.split(',')
		.map((value) => value.trim())
		.filter(Boolean)) {
		const parsed = inputs.phoneNumber.safeParse(entry);
		if (!parsed.success) {
			throw new NodeOperationError(
				context.getNode(),
				`Only From Phone Numbers: "${entry}" ${parsed.error.issues[0].message}`,
			);
		}
		phoneNumbers.add(parsed.data);
	}
	return {
		includeOutgoing: options.includeOutgoing === true,
		includeSystem: options.includeSystem === true,
		phoneNumbers,
	};
}

function itemsOf(
	found: SubscriberActivity[],
	filters: Filters,
	phoneNumberId: string,
): IDataObject[] {
	return found
		.filter(
			(entry) =>
				filters.phoneNumbers.size === 0 ||
				filters.phoneNumbers.has(String(entry.subscriber.chat_id)),
		)
		.flatMap((entry) =>
			entry.fresh
				.filter((message) =>
					isSystemRow(message)
						? filters.includeSystem
						: filters.includeOutgoing || isIncoming(message),
				)
				.map((message) => ({ message, subscriber: entry.subscriber, page: entry.latest })),
		)
		.sort((a, b) => compareMessages(a.message, b.message))
		.map(({ message, subscriber, page }) => {
			const item = messageItem(message, subscriber, phoneNumberId);
			// The answer check finds a Send and Wait answer in this page: no second read (issue 54).
			pageOfItem.set(item, page);
			return item;
		});
}

/**
 * With a BotSailor Webhook Trigger in the same workflow (both share its memory, shared/triggers/deliveryMemory.ts):
 * leaves out the messages the webhook already started the workflow with, and records the others so a
 * late webhook of the same message starts nothing. Without one, the items pass unchanged.
 */
function notStartedByWebhook(context: IPollFunctions, items: IDataObject[]): IDataObject[] {
	if (!isShared(context)) return items;
	const fresh = items.filter(
		(item) =>
			!item.wa_message_id ||
			claimDelivery(context, `message:${String(item.wa_message_id)}`, ID_TTL_SECONDS),
	);
	if (fresh.length) refreshSnapshot(context); // n8n saves the poll's whole static data when it emits
	return fresh;
}

export const newMessage: TriggerEvent<ActivityCursor> = {
	value: EVENT,
	name: 'New Message',
	description: 'A subscriber wrote (optionally also messages sent by the bot or an agent)',
	perNumber: true,
	properties: [
		{
			displayName: 'Options',
			name: 'messageOptions',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: showForEvents([EVENT]),
			options: [
				{
					displayName: 'Download Media',
					name: 'downloadMedia',
					type: 'boolean',
					default: false,
					description:
						'Whether to attach the file of media messages (image, video, audio, voice note, document, sticker) as binary data in the field "data". A failed download is reported in media_download_error; the message is still emitted.',
				},
				{
					displayName: 'Include Outgoing Messages',
					name: 'includeOutgoing',
					type: 'boolean',
					default: false,
					description:
						'Whether to also emit messages sent by the bot, an agent, an automation, a sequence or an AI agent',
				},
				{
					displayName: 'Include Panel Events',
					name: 'includeSystem',
					type: 'boolean',
					default: false,
					description:
						'Whether to also emit the conversation\'s panel events ("Label added: …", "Conversation was assigned to …"), with message_type "system"',
				},
				{
					displayName: 'Only From Phone Numbers',
					name: 'phoneNumbers',
					type: 'string',
					default: '',
					placeholder: 'e.g. 447700900123, 15550100001',
					description:
						'Emit only messages of these subscribers (comma-separated, country code first)',
				},
			],
		},
	],
	scope: (context) => `${EVENT}:${phoneNumberIdOf(context)}`,
	// 1: the ActivityCursor (its optional `lastPages` is absent in states written before it existed).
	stateVersion: 1,
	start: async (context) => await startActivity(context, phoneNumberIdOf(context)),
	async poll(context, state) {
		const filters = filtersOf(context);
		const phoneNumberId = phoneNumberIdOf(context);
		const { found, cursor } = await walkActivity(context, phoneNumberId, state);
		// Just after an update in place, until the webhook trigger's memory is here: emit nothing, keep the cursor.
		if (awaitingWebhookMemory(context)) return { items: [], state };
		return {
			items: notStartedByWebhook(context, itemsOf(found, filters, phoneNumberId)),
			state: cursor,
		};
	},
	async newest(context) {
		const filters = filtersOf(context);
		const phoneNumberId = phoneNumberIdOf(context);
		const found = await recentActivity(context, phoneNumberId, SAMPLE_SUBSCRIBERS);
		return itemsOf(found, filters, phoneNumberId).at(-1);
	},
	async output(context, items) {
		const options = context.getNodeParameter('messageOptions', {}) as IDataObject;
		if (options.downloadMedia !== true) return context.helpers.returnJsonArray(items);
		// One download at a time: a poll emits what one interval brought.
		const output: INodeExecutionData[] = [];
		for (const item of items) output.push(await withMedia(context, item));
		return output;
	},
};
