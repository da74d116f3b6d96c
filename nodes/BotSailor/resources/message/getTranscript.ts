import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';
import { conversationRows } from '../../../shared/conversation';
import { refuse, subscriberKeys, validateBody, z } from '../../../shared/inputs';
import { isSystemRow } from '../../../shared/messageItem';
import {
	conversationOf,
	platformTime,
	transcriptLine,
	transcriptMessage,
	type TranscriptMessage,
} from '../../shared/transcript';
import { recipient, whatsAppNumber } from '../common';
import type { OperationDescription } from '../resource';

/** At most this many messages are read for one transcript (the newest 20 pages). */
export const MAX_TRANSCRIPT_MESSAGES = 1000;

function wholeNumber(
	context: IExecutePaginationFunctions,
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
	this: IExecutePaginationFunctions,
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
		min: 100,
		max: 1_000_000,
	});
	const includeSystem = options.includePanelEvents !== false;
	const withTimes = options.includeTimes === true;

	const source = await conversationOf(this, requestData.options as IHttpRequestOptions);
	const kept: Array<{ message: TranscriptMessage; line: string }> = [];
	let used = 0;
	let truncated = false;
	for await (const row of conversationRows(source)) {
		if (since !== undefined && String(row.conversation_time ?? '') < since) break;
		if (!includeSystem && isSystemRow(row)) continue;
		const message = transcriptMessage(row);
		if (message.text === '') continue;
		let line = transcriptLine(message, withTimes);
		const cost = line.length + (kept.length ? 1 : 0);
		if (used + cost > budget) {
			truncated = true;
			// The newest message alone is over the budget: its beginning, cut.
			if (kept.length === 0) {
				line = `${line.slice(0, Math.max(0, budget - 1))}…`;
				kept.push({ message, line });
			}
			break;
		}
		used += cost;
		kept.push({ message, line });
		if (kept.length >= lastMessages) break;
	}
	kept.reverse();
	const messages = kept.map((entry) => entry.message);
	return [
		{
			json: {
				phone_number: source.chatId,
				transcript: kept.map((entry) => entry.line).join('\n'),
				count: messages.length,
				first_at: messages[0]?.at ?? null,
				last_at: messages[messages.length - 1]?.at ?? null,
				truncated,
				messages,
			},
			pairedItem: { item: itemIndex },
		},
	];
}

export const getTranscriptOperation: OperationDescription = {
	kind: 'read',
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
			operations: { pagination: getTranscript },
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
			typeOptions: { minValue: 100 },
			description:
				'The longest transcript to return; the newest messages are kept and older ones left out (truncated is then true)',
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
