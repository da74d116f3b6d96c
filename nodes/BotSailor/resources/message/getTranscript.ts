import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';
import { conversationRows } from '../../../shared/conversation/conversation';
import { refuse, subscriberKeys, validateBody, z } from '../../../shared/parameters/inputs';
import { isSystemRow } from '../../../shared/conversation/messageItem';
import {
	conversationOf,
	platformTime,
	transcriptLine,
	transcriptMessage,
	type TranscriptMessage,
} from '../../reading/transcript';
import { recipient, whatsAppNumber } from '../common';
import type { OperationContext, OperationDescription } from '../resource';

/** At most this many messages are read for one transcript (the newest 20 pages). */
export const MAX_TRANSCRIPT_MESSAGES = 1000;

/**
 * The smallest Max Characters: room for the item's own fields (about 170 characters) and one message's entry
 * (about 200 with its ID and times) with the beginning of its text.
 */
export const MIN_CHARACTERS = 500;

function wholeNumber(
	context: OperationContext,
	name: string,
	label: string,
	fallback: number,
	{ min, max }: { min: number; max: number },
): number {
	const given = context.getNodeParameter(name, fallback) as unknown;
	const value = typeof given === 'string' && given.trim() !== '' ? Number(given) : given;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
		refuse(
			context,
			`${label} must be a whole number from ${min} to ${max}`,
			`The parameter "${label}" received ${JSON.stringify(given)}.`,
		);
	return value;
}

/**
 * Message → Get Transcript, one input item: the conversation read newest first through the one reader, no
 * further than needed (the last N messages, the messages since a time, or the character budget, whichever
 * ends first), then given oldest first as role-tagged text and as structured messages.
 */
async function getTranscript(
	this: OperationContext,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const itemIndex = this.getItemIndex();
	const range = String(this.getNodeParameter('range', 'last'));
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const lastMessages =
		range === 'last'
			? wholeNumber(this, 'lastMessages', 'Last Messages', 20, {
					min: 1,
					max: MAX_TRANSCRIPT_MESSAGES,
				})
			: MAX_TRANSCRIPT_MESSAGES;
	let since: string | undefined;
	if (range === 'since') {
		const given = this.getNodeParameter('since', '') as unknown;
		since = platformTime(given);
		if (!since)
			refuse(
				this,
				'Since must be a date and time, e.g. 2026-11-26 09:30:00',
				`The parameter "Since" received ${JSON.stringify(given)}.`,
			);
	}
	const budget = wholeNumber(this, 'maxCharacters', 'Max Characters', 6000, {
		min: MIN_CHARACTERS,
		max: 1_000_000,
	});
	const includeSystem = options.includePanelEvents !== false;
	const withTimes = options.includeTimes === true;

	const source = await conversationOf(this, requestData.options as IHttpRequestOptions);
	const item = new TranscriptItem(source.chatId, withTimes);
	let truncated = false;
	for await (const row of conversationRows(source)) {
		if (since !== undefined && String(row.conversation_time ?? '') < since) break;
		if (!includeSystem && isSystemRow(row)) continue;
		const message = transcriptMessage(row);
		if (message.text === '') continue;
		if (!item.add(message, budget)) {
			truncated = true;
			// The newest message alone is over the budget: its beginning, cut.
			if (item.count === 0) item.addCut(message, budget);
			break;
		}
		if (item.count >= lastMessages) break;
	}
	return [{ json: item.json(truncated), pairedItem: { item: itemIndex } }];
}

/** How long a text is inside a JSON string, escapes included (without the quotes). */
const jsonLength = (value: string) => JSON.stringify(value).length - 2;

/**
 * The output item of Get Transcript, built newest message first, and how long it is as JSON text: what a model
 * receives when the node is a tool (n8n hands it the item as JSON), and what Max Characters bounds (issue 42).
 * Each message costs its line in `transcript` (and the line break before it) and its entry in `messages` (and the
 * comma before it); the other fields are measured as they will be.
 */
class TranscriptItem {
	/** Newest first, as read. */
	private readonly kept: Array<{ message: TranscriptMessage; line: string }> = [];
	/** The length of the kept lines and messages as JSON, separators included. */
	private used = 0;

	constructor(
		private readonly phoneNumber: string,
		private readonly withTimes: boolean,
	) {}

	get count(): number {
		return this.kept.length;
	}

	/** The item's length as JSON with `message` added as the oldest. */
	private sizeWith(message: TranscriptMessage, line: string): number {
		const newest = this.kept[0]?.message ?? message;
		const separators = this.kept.length ? 2 + 1 : 0; // `\n` in the transcript, `,` in messages
		const frame = JSON.stringify(
			this.frame(this.kept.length + 1, message.at, newest.at, false, '', []),
		).length;
		return frame + this.used + separators + jsonLength(line) + JSON.stringify(message).length;
	}

	/** Adds `message` as the oldest when the item stays within `budget` characters; false when it would not. */
	add(message: TranscriptMessage, budget: number): boolean {
		const line = transcriptLine(message, this.withTimes);
		const size = this.sizeWith(message, line);
		if (size > budget) return false;
		this.used += (this.kept.length ? 3 : 0) + jsonLength(line) + JSON.stringify(message).length;
		this.kept.push({ message, line });
		return true;
	}

	/** The message with as much of its text as fits in `budget` (ending in …); nothing when not even that fits. */
	addCut(message: TranscriptMessage, budget: number): void {
		const cut = (length: number): TranscriptMessage => {
			// Never half of a surrogate pair.
			const end = /[\ud800-\udbff]/.test(message.text.charAt(length - 1)) ? length - 1 : length;
			return { ...message, text: `${message.text.slice(0, Math.max(0, end))}…` };
		};
		const fits = (length: number) => {
			const candidate = cut(length);
			return this.sizeWith(candidate, transcriptLine(candidate, this.withTimes)) <= budget;
		};
		if (!fits(0)) return;
		let low = 0;
		let high = message.text.length - 1;
		while (low < high) {
			const middle = Math.ceil((low + high) / 2);
			if (fits(middle)) low = middle;
			else high = middle - 1;
		}
		this.add(cut(low), budget);
	}

	json(truncated: boolean): IDataObject {
		const kept = [...this.kept].reverse();
		const messages = kept.map((entry) => entry.message);
		return this.frame(
			messages.length,
			messages[0]?.at ?? null,
			messages[messages.length - 1]?.at ?? null,
			truncated,
			kept.map((entry) => entry.line).join('\n'),
			messages,
		);
	}

	private frame(
		count: number,
		firstAt: string | null,
		lastAt: string | null,
		truncated: boolean,
		transcript: string,
		messages: TranscriptMessage[],
	): IDataObject {
		return {
			phone_number: this.phoneNumber,
			transcript,
			count,
			first_at: firstAt,
			last_at: lastAt,
			truncated,
			messages,
		};
	}
}

export const getTranscriptOperation: OperationDescription = {
	kind: 'read',
	execute: getTranscript,
	toolDescription:
		'Read the recent WhatsApp conversation with one subscriber as a transcript, oldest line first, each line tagged with who wrote it: "customer:" (the subscriber), "bot:" (automated messages, including your own earlier answers), "agent <name>:" (a person of the team writing from the inbox) or "system:" (inbox events such as a label added). Photos, voice notes and documents appear as [photo: caption], [voice note], [document: name]. Use it before answering, so that your answer fits what was already said, including what a human agent told the customer. Line breaks inside a message are shown as spaces, so each line is one message and starts with who wrote it. Only the newest messages that fit its length limit are returned.',
	returnsCustomerText: true,
	option: {
		name: 'Get Transcript',
		value: 'getTranscript',
		action: 'Get the transcript of a conversation',
		description:
			'Get the conversation with a subscriber as role-tagged text for an AI model (customer, bot, agent, system), plus the messages',
		routing: {
			request: { url: '/whatsapp/get/conversation' },
			send: {
				preSend: [
					validateBody(() =>
						z.object({
							...subscriberKeys,
						}),
					),
				],
			},
		},
	},
	fields: [
		whatsAppNumber(),
		recipient(),
		{
			displayName: 'Messages',
			name: 'range',
			type: 'options',
			options: [
				{ name: 'Last Messages', value: 'last', description: 'The newest N messages' },
				{ name: 'Since a Time', value: 'since', description: 'The messages from a time on' },
			],
			default: 'last',
		},
		{
			displayName: 'Last Messages',
			name: 'lastMessages',
			type: 'number',
			default: 20,
			typeOptions: { minValue: 1, maxValue: MAX_TRANSCRIPT_MESSAGES },
			description: 'How many of the newest messages to include',
			displayOptions: { show: { range: ['last'] } },
		},
		{
			displayName: 'Since',
			name: 'since',
			type: 'dateTime',
			default: '',
			required: true,
			description:
				"The earliest message time to include, compared with the platform's message times as written (the platform's own clock)",
			displayOptions: { show: { range: ['since'] } },
		},
		{
			displayName: 'Max Characters',
			name: 'maxCharacters',
			type: 'number',
			default: 6000,
			typeOptions: { minValue: MIN_CHARACTERS },
			description:
				'The longest output item, counted as its JSON text: the transcript, the messages beside it and the other fields together (what an AI model receives). The newest messages that fit are kept and older ones left out; a newest message too long alone is cut. Truncated is then true.',
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Include Panel Events',
					name: 'includePanelEvents',
					type: 'boolean',
					default: true,
					description:
						'Whether to include the inbox events the platform records in the conversation (label added, conversation assigned) as system lines',
				},
				{
					displayName: 'Include Times',
					name: 'includeTimes',
					type: 'boolean',
					default: false,
					description: "Whether to start each line with the message's time",
				},
			],
		},
	],
};
