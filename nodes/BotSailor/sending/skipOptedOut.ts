import type { INodeProperties } from 'n8n-workflow';
import { beforeCollections } from '../../shared/parameters/fieldOrder';
import { refuse } from '../../shared/parameters/inputs';
import { DEFAULT_OPT_OUT_LABEL } from '../reading/optOut';
import type { SendItem } from './sendItem';

/**
 * "Skip Opted-Out Subscribers" on the sends and the broadcast: subscribers carrying the opt-out label (Subscriber →
 * Opt Out) get nothing. Read and checked before any request; the sends act on it in sendDefinition.ts, the
 * broadcast in its own definition (resources/template/sendBroadcast.ts).
 */
export function skipOptedOutFields(description: string): INodeProperties[] {
	return [
		{
			displayName: 'Skip Opted-Out Subscribers',
			name: 'skipOptedOut',
			type: 'boolean',
			default: false,
			description,
		},
		{
			displayName: 'Opt-Out Label',
			name: 'optOutLabel',
			type: 'string',
			default: DEFAULT_OPT_OUT_LABEL,
			description: 'The label that marks an opted-out subscriber, as Subscriber → Opt Out sets it',
			displayOptions: { show: { skipOptedOut: [true] } },
		},
	];
}

/** The opt-out label to skip, or undefined when the item does not skip opted-out subscribers. */
export function optOutLabelOf(item: SendItem): string | undefined {
	if (item.param('skipOptedOut', false) !== true) return undefined;
	const label = String(item.param('optOutLabel', DEFAULT_OPT_OUT_LABEL) ?? '').trim();
	if (!label)
		refuse(
			item,
			'Opt-Out Label is empty',
			`Parameter "Opt-Out Label": give the label that marks opted-out subscribers, e.g. ${DEFAULT_OPT_OUT_LABEL}.`,
		);
	return label;
}

const unreadableField: INodeProperties = {
	displayName: 'When Opt-Out Cannot Be Read',
	name: 'optOutUnreadable',
	type: 'options',
	options: [
		{
			name: 'Fail Item',
			value: 'fail',
			description: 'The item fails with the reason; nothing is sent',
		},
		{
			name: 'Skip Item',
			value: 'skip',
			description: 'Nothing is sent; the item is output with skipped: true and the reason',
		},
	],
	default: 'fail',
	description:
		'What to do when the platform’s answer about the subscriber (Subscriber → Get) does not show their labels. Never sent to: an unreadable answer is not taken for "not opted out".',
	displayOptions: { show: { skipOptedOut: [true] } },
};

/** An operation's fields with Skip Opted-Out Subscribers added before its collections (Additional Fields, Options). */
export function withSkipOptedOut(fields: INodeProperties[]): INodeProperties[] {
	return beforeCollections(fields, [
		...skipOptedOutFields(
			'Whether to send nothing to a subscriber who carries the opt-out label (Subscriber → Opt Out): the item is output with skipped: true. Costs one request per item (Subscriber → Get).',
		),
		unreadableField,
	]);
}
