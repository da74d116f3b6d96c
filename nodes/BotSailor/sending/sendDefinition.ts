import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { ConversationSource } from '../../shared/conversation/conversation';
import { platformTimeZone } from '../../shared/http/platformTime';
import { readWindowStatus, type WindowStatus } from '../../shared/whatsapp/sessionWindow';
import { checkWhatsAppLimits } from '../../shared/whatsapp/whatsAppLimits';
import { deliveryWaitOf } from './deliveryWait';
import {
	optOutUnreadableOf,
	readOptOut,
	type OptOutReading,
	type OptOutUnreadable,
} from '../reading/optOut';
import {
	checkReplyGuards,
	replyGuardsOf,
	sharedConversation,
	sharedSubscriber,
	type ReplyGuards,
} from './replyGuards';
import { fingerprintOf } from './sendRecord';
import { sendInWindow, type SessionKind, type WindowChoice } from './windowSend';
import type { SendItem } from './sendItem';
import { TemplateCategories, withMessageKind, type SentKind } from './messageKind';
import { customerIds, isWithoutPhone } from '../../shared/conversation/customer';
import { PHONE_ONLY_API, refuse } from '../../shared/parameters/inputs';

/**
 * One definition per send (Send Text, Send Template, Send Buttons, Send Media, Template → Send
 * Broadcast, Bot Flow → Trigger): what it sends and how. Two drivers run it:
 * - in a workflow, the bulk path (bulkSend.ts, the node's `customOperations`): every item checked
 *   before anything is sent, bounded concurrency, stop at the first failure, Retry On Fail safe;
 * - as an AI Agent tool under agents that call the node's `execute` (n8n's declarative engine,
 *   RoutingNode), `sendRouting` (declarativeSend.ts): the same build, the same delivery policy, the same output.
 */
export interface SendDefinition {
	resource: string;
	operation: string;
	/** The endpoint under /api/v1. */
	url: string;
	/** The form fields to send, validated: a bad input throws a NodeOperationError naming the field. Sends nothing. */
	build(item: SendItem): Promise<IDataObject>;
	/** Requests the send needs first (Send Media's upload), run in the item's own turn; returns the fields to send. */
	beforeSend?(item: SendItem, fields: IDataObject): Promise<IDataObject>;
	/** A free-form (session) message: what it is in `sent_as`, and the item's Outside the 24-Hour Window choice. */
	session?: { sentAs: SessionKind; choice(item: SendItem): WindowChoice };
	/** A send to one subscriber with Skip Opted-Out Subscribers: the opt-out label of the item, if it skips. */
	optOutLabel?(item: SendItem): string | undefined;
	/** A template send: the template's id in its fields (for its category, messageKind.ts). */
	templateIdOf?(fields: IDataObject): string | undefined;
}

/** One item, checked before anything is sent: the fields, the window choice, and their fingerprint (sendRecord.ts). */
export interface PreparedSend {
	fields: IDataObject;
	choice: WindowChoice;
	/** The opt-out label whose subscribers get nothing (Skip Opted-Out Subscribers). */
	optOutLabel?: string;
	/** When Subscriber → Get's answer does not show the labels: fail the item (the default) or skip it. */
	optOutUnreadable?: OptOutUnreadable;
	fingerprint: string;
	/** Only If Still Unanswered / Skip If a Person Took Over (replyGuards.ts), on the free-form sends. */
	guards?: ReplyGuards;
	/** The item's outcome decided before any request (a customer without a phone number): nothing is sent. */
	skip?: IDataObject;
}

/** Builds and checks one item (a bad input throws, naming the field); sends nothing. */
export async function prepareSend(
	definition: SendDefinition,
	item: SendItem,
): Promise<PreparedSend> {
	const withoutPhone = withoutPhoneOutcome(definition, item);
	if (withoutPhone) return withoutPhone;
	const fields = checkWhatsAppLimits(item, definition.url, await definition.build(item));
	const choice: WindowChoice = definition.session?.choice(item) ?? { action: 'fail' };
	const optOutLabel = definition.optOutLabel?.(item);
	const optOutUnreadable = optOutLabel ? optOutUnreadableOf(item) : undefined;
	deliveryWaitOf(item); // Wait for Delivery's settings, checked before anything is sent
	const guards = definition.session ? replyGuardsOf(item) : undefined;
	const files = Object.values(item.binaries()).map(({ id, fileName, mimeType, fileSize }) => [
		id,
		fileName,
		mimeType,
		fileSize,
	]);
	return {
		fields,
		choice,
		optOutLabel,
		optOutUnreadable,
		fingerprint: fingerprintOf(definition.url, fields, [files, choice, optOutLabel ?? null]),
		...(guards ? { guards } : {}),
	};
}

/**
 * Sends one prepared item (sendRecords) and says what went out in Meta's terms (messageKind.ts): `message_kind`, and
 * for a template its `template_category`, from the run's `categories` (the template list, read once per run).
 */
export async function performSend(
	definition: SendDefinition,
	item: SendItem,
	prepared: PreparedSend,
	deliverTo: (url: string, fields: IDataObject) => Promise<IDataObject[]>,
	categories = new TemplateCategories(),
): Promise<IDataObject[]> {
	const records = await sendRecords(definition, item, prepared, deliverTo);
	return await withMessageKind(
		item,
		records,
		(record) => sentKindOf(definition, prepared, record),
		String(prepared.fields.phone_number_id ?? ''),
		categories,
	);
}

/** What a record of this send is: free-form, or a template (the send's own, or the one sent instead). */
function sentKindOf(
	definition: SendDefinition,
	prepared: PreparedSend,
	record: IDataObject,
): SentKind | undefined {
	if (definition.session) {
		if (record.sent_as !== 'template') return { kind: 'free-form' };
		const { choice } = prepared;
		const id = choice.action === 'template' ? String(choice.template.template_id ?? '') : '';
		return { kind: 'template', templateId: id || undefined };
	}
	if (definition.templateIdOf)
		return { kind: 'template', templateId: definition.templateIdOf(prepared.fields) };
	// A bot flow: the flow decides what goes out, and the node does not see it.
	return undefined;
}

/**
 * Sends one prepared item: its own steps first (beforeSend), then the send and, for a free-form message, its window
 * choice (windowSend.ts). `deliverTo(url, fields)` is the driver's request under the delivery policy, answering the
 * output records (each with the recipient).
 */
async function sendRecords(
	definition: SendDefinition,
	item: SendItem,
	prepared: PreparedSend,
	deliverTo: (url: string, fields: IDataObject) => Promise<IDataObject[]>,
): Promise<IDataObject[]> {
	if (prepared.skip) return [prepared.skip];
	const sendFree = async () => {
		const fields = definition.beforeSend
			? await definition.beforeSend(item, prepared.fields)
			: prepared.fields;
		return await deliverTo(definition.url, fields);
	};
	const { phone_number } = prepared.fields;
	// One Subscriber → Get for Skip Opted-Out and the reply guards (replyGuards.ts).
	const subscriber = sharedSubscriber(item, prepared.fields);
	if (prepared.optOutLabel) {
		const reading = await readSubscriberOptOut(subscriber, prepared.optOutLabel);
		if ('unreadable' in reading) {
			const reason = `Opt-out could not be read, so nothing was sent: Subscriber → Get answered for ${String(phone_number ?? '')}, but ${reading.unreadable}`;
			if (prepared.optOutUnreadable === 'skip')
				return [{ skipped: true, reason, phone_number: String(phone_number ?? '') }];
			throw new NodeOperationError(item.getNode(), reason, {
				description:
					'Skip Opted-Out Subscribers sends only when the platform’s answer shows the subscriber’s labels (label_names), so an opted-out customer is never messaged by mistake. Check what your platform answers to Subscriber → Get for this number; to skip such subscribers instead of failing, set "When Opt-Out Cannot Be Read" to Skip Item.',
				itemIndex: item.getItemIndex(),
			});
		}
		if ('optedOut' in reading && reading.optedOut)
			return [
				{
					skipped: true,
					reason: `Opted out: the subscriber carries the label "${prepared.optOutLabel}"`,
					phone_number: String(phone_number ?? ''),
				},
			];
	}
	if (!definition.session) return await sendFree();
	// One read of the conversation for the reply guards and Check Window First.
	const conversation = sharedConversation(item, prepared.fields);
	if (prepared.guards) {
		const skipped = await checkReplyGuards(
			item,
			prepared.guards,
			conversation,
			subscriber,
			prepared.fields,
		);
		if (skipped) return [skipped];
	}
	return await sendInWindow(definition.session.sentAs, prepared.choice, phone_number, {
		sendFree,
		sendTemplate: async (fields) => await deliverTo(TEMPLATE_SEND_URL, fields),
		readWindow: async () => await windowOf(item, await conversation()),
	});
}

/**
 * What Subscriber → Get says of the item's subscriber and the opt-out label (optOut.ts readOptOut: an answer that does
 * not show the labels is unreadable, never "not opted out"); a number the platform does not know is no subscriber.
 */
async function readSubscriberOptOut(
	subscriber: () => Promise<IDataObject>,
	label: string,
): Promise<OptOutReading> {
	let failure: unknown;
	try {
		const envelope = await subscriber();
		// A list of one (spec: Subscriber get), or the record itself on some deployments (listRecords).
		return readOptOut(envelope, label);
	} catch (error) {
		failure = error;
	}
	// The platform's answer for a number it does not know (Subscriber get); anything else fails the item.
	if (failure instanceof NodeApiError && /subscriber not found/i.test(failure.message))
		return { noSubscriber: true };
	throw failure;
}

/**
 * A send to the customer of a trigger's item that has Meta's ids and no phone number (2026; SPEC-GAP: the platform's
 * shape for such customers is not published), with the Subscriber field empty: the platform's API reaches customers
 * by phone number only. Where the item asked the node to decide whether to send (a reply guard, or Outside the
 * 24-Hour Window: Skip) it is skipped with that reason; otherwise it fails saying so. Nothing is read or sent.
 */
function withoutPhoneOutcome(definition: SendDefinition, item: SendItem): PreparedSend | undefined {
	const input = item.input?.() ?? {};
	if (!isWithoutPhone(input)) return undefined;
	// null: a send without a Subscriber field (a broadcast).
	const typed = item.param('phoneNumber', null, { extractValue: true });
	if (typed === null || typeof typed === 'number' || String(typed).trim() !== '') return undefined;
	const ids = customerIds(input);
	const who = Object.entries(ids)
		.map(([key, value]) => `${key} ${String(value)}`)
		.join(', ');
	const reason = `The customer has no phone number (${who}): ${PHONE_ONLY_API}, so nothing was sent`;
	const decides =
		!!definition.session &&
		(replyGuardsOf(item) !== undefined || definition.session.choice(item).action === 'skip');
	if (!decides)
		refuse(
			item,
			`Subscriber is empty: the customer has no phone number (${who})`,
			`${reason}. Reply with the BotSailor Webhook Trigger's item only to customers with a phone_number, e.g. an If node on {{ $json.phone_number }}.`,
		);
	return {
		fields: {},
		choice: { action: 'fail' },
		fingerprint: fingerprintOf(definition.url, {}, [who]),
		skip: { skipped: true, reason, phone_number: '', ...ids },
	};
}

/** Where a template goes (Send Template's endpoint), for the free-form sends' fallback. */
const TEMPLATE_SEND_URL = '/whatsapp/send/template';

/** The subscriber's 24-hour window, read from their conversation (Check Window First). */
async function windowOf(item: SendItem, source: ConversationSource): Promise<WindowStatus> {
	const credentials = await item.credentials();
	return await readWindowStatus(source, platformTimeZone(item.getNode(), credentials), {
		stopWhenClosed: true,
	});
}
