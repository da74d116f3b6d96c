import { createHmac, timingSafeEqual } from 'crypto';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../http/credential';

/**
 * Send and Wait answered in the chat (issue 45): what binds an answer to its question, pure and shared by the action
 * node (the question's links, the answer's check in its webhook) and both triggers (answeredQuestion.ts finds the
 * question a message answers, answerTaking.ts takes it).
 *
 * The link between a waiting execution and a subscriber lives only in what the platform already stores, out of the
 * person's sight (issue 53): each reply button's id carries n8n's waiting-execution link of its answer (signed by n8n
 * where n8n signs them), compacted (`bsw2:…`, at most WhatsApp's 256 characters of an id), with our own parameters
 * `to` (the subscriber), `exp` (the wait's limit) and `mac`, an HMAC over the link's address (host, execution, node),
 * subscriber, question, answer and limit, keyed by a key derived from the credential's API token (both nodes use the
 * same credential). The conversation read returns the ids (the question's row, and the tap's). The text is the
 * user's question; the "Answer on the web" link, when asked for, is the same kind of link. Questions sent before
 * (`bsw1:<q>:y|n` ids, the links in the text) and templates (the link in a variable) are still read from the text.
 * Nothing on the platform can resume anything but that one question, for that one subscriber, until the limit; a
 * resumed execution no longer waits (n8n), so a second answer resumes nothing: single use.
 */

const KEY_LABEL = 'n8n-nodes-botsailor send-and-wait chat answers v1';

/**
 * The platform label a chat question puts on each recipient before it is sent (BotSailor/sendAndWait/mark.ts): the
 * Webhook Trigger reads a conversation only for a message whose webhook lists it (answerTaking.ts `mayAnswer`).
 */
export const QUESTION_MARK_LABEL = 'n8n question waiting';
const BUTTON_ID_PREFIX = 'bsw1:';
const BINDING_ID_PREFIX = 'bsw2:';
/** n8n's signature parameter of a waiting link (n8n-core WAITING_TOKEN_QUERY_PARAM). */
const SIGNATURE_PARAM = 'signature';

/** The HMAC key of chat answers, derived from the credential's API token (never the token itself). */
export function answerKey(apiToken: string): Buffer {
	return createHmac('sha256', apiToken).update(KEY_LABEL).digest();
}

export async function answerKeyOf(
	context: Pick<IWebhookFunctions, 'getCredentials'>,
): Promise<Buffer> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	return answerKey(String(credentials.apiToken ?? '').trim());
}

const digits = (value: unknown) => String(value ?? '').replace(/\D/g, '');

function mac(key: Buffer, parts: string[]): string {
	return createHmac('sha256', key).update(parts.join('\u0000')).digest('base64url').slice(0, 22);
}

function sameMac(a: string, b: string): boolean {
	return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/**
 * One answer of one question, as bound into its link. `choice`: 'true'/'false' (Approval), 'edit' (Approve, Edit or
 * Decline: the corrected text), 'text' (Free Text; in the chat also the "Answer on the web" link of an Approval, which
 * opens the page with every answer), or 'pick': a template's one link to the page with both answers, answered in the chat by a tap on the template's own
 * quick-reply button whose text `titles` binds (the first approves, the second declines).
 */
export type Choice = 'true' | 'false' | 'edit' | 'text' | 'pick';

export interface AnswerBinding {
	/** The link's address without its query (`…/webhook-waiting/<execution>/<node>`): no other host or execution. */
	target: string;
	to: string;
	q: string;
	choice: Choice;
	/** Unix seconds of the wait's limit; 0: no limit. */
	exp: number;
	/** 'pick': the template's quick-reply button texts, approve first (none: the link is the only way). */
	titles?: string[];
}

const bindingParts = (b: AnswerBinding) => [
	'q',
	b.target,
	digits(b.to),
	b.q,
	b.choice,
	String(b.exp),
	...(b.choice === 'pick' ? ['t', ...(b.titles ?? [])] : []),
];

/** A link's query of ours, in the order it is signed (n8n signs the link as built). */
function linkQuery(binding: AnswerBinding, linkMac: string): Record<string, string> {
	return {
		...(binding.choice === 'text' || binding.choice === 'pick' ? {} : { approved: binding.choice }),
		...(binding.choice === 'pick' ? { pick: (binding.titles ?? []).join('\n') } : {}),
		q: binding.q,
		to: digits(binding.to),
		exp: String(binding.exp),
		mac: linkMac,
	};
}

/** The parameters a chat question adds to an answer link (n8n then signs the whole link). */
export function chatLinkParameters(key: Buffer, binding: AnswerBinding): Record<string, string> {
	return linkQuery(binding, mac(key, bindingParts(binding)));
}

/** A link's address without its query: what the HMAC binds besides the parameters. */
export function linkTarget(link: string): string {
	const url = new URL(link);
	return `${url.origin}${url.pathname}`;
}

/** A reply button's id: the question and the answer; the link in the question's text carries the rest. */
export const buttonId = (q: string, approved: boolean) =>
	`${BUTTON_ID_PREFIX}${q}:${approved ? 'y' : 'n'}`;

export function parseButtonId(id: string): { q: string; choice: 'true' | 'false' } | undefined {
	const match = /^bsw1:([0-9a-f]{6,32}):([yn])$/.exec(id);
	return match ? { q: match[1], choice: match[2] === 'y' ? 'true' : 'false' } : undefined;
}

/** An answer link of a chat question: its URL and what it binds (from the link itself, not yet verified). */
export interface ChatLink {
	url: string;
	binding: AnswerBinding;
	mac: string;
}

/** The chat-question links in a text (n8n's waiting-execution links carrying our `mac`). */
export function chatLinksIn(text: string): ChatLink[] {
	const found: ChatLink[] = [];
	for (const raw of text.match(/https?:\/\/[^\s"'<>]+/g) ?? []) {
		let url: URL;
		try {
			url = new URL(raw);
		} catch {
			continue;
		}
		const params = url.searchParams;
		const linkMac = params.get('mac');
		const q = params.get('q');
		if (!linkMac || !q) continue;
		const approved = params.get('approved');
		const pick = params.get('pick');
		found.push({
			url: raw,
			mac: linkMac,
			binding: {
				target: linkTarget(raw),
				to: params.get('to') ?? '',
				q,
				choice:
					pick !== null
						? 'pick'
						: approved === 'true' || approved === 'false' || approved === 'edit'
							? approved
							: 'text',
				exp: Number(params.get('exp') ?? 'NaN'),
				...(pick ? { titles: pick.split('\n') } : {}),
			},
		});
	}
	return found;
}

const CHOICE_LETTER: Partial<Record<Choice, string>> = {
	true: 'y',
	false: 'n',
	edit: 'e',
	text: 't',
};
const LETTER_CHOICE: Record<string, Choice> = { y: 'true', n: 'false', e: 'edit', t: 'text' };
const HEX_SIGNATURE = /^[0-9a-f]{64}$/;

/**
 * A reply button's id carrying its answer link whole (`bsw2:<answer>.<q>.<to>.<exp>.<mac>.<n8n's signature>.<address>`):
 * n8n's hex signature as base64url, the query rebuilt in its signed order (linkOfButtonId), so a link of today's n8n
 * (host of about 50 characters, a node id of 36) fits WhatsApp's 256 characters with room to spare.
 */
export function bindingButtonId(link: string): string {
	const [found] = chatLinksIn(link);
	const letter = found ? CHOICE_LETTER[found.binding.choice] : undefined;
	if (!found || !letter) throw new Error('not an answer link of a chat question');
	const signature = new URL(link).searchParams.get(SIGNATURE_PARAM) ?? '';
	const compact = HEX_SIGNATURE.test(signature)
		? Buffer.from(signature, 'hex').toString('base64url')
		: signature;
	const { q, to, exp, target } = found.binding;
	return `${BINDING_ID_PREFIX}${letter}.${q}.${digits(to)}.${exp}.${found.mac}.${compact}.${target}`;
}

const BINDING_ID =
	/^bsw2:([ynet])\.([0-9a-f]{6,32})\.(\d*)\.(\d+)\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]*)\.(https?:\/\/[^\s?#]+)$/;

/** The answer link a reply button's id carries (not yet verified), or undefined for any other id. */
export function linkOfButtonId(id: string): ChatLink | undefined {
	const match = BINDING_ID.exec(id);
	if (!match) return undefined;
	const [, letter, q, to, exp, linkMac, compact, target] = match;
	const binding: AnswerBinding = { target, to, q, choice: LETTER_CHOICE[letter], exp: Number(exp) };
	const signature =
		compact.length === 43 ? Buffer.from(compact, 'base64url').toString('hex') : compact;
	const query = new URLSearchParams(linkQuery(binding, linkMac));
	if (signature) query.set(SIGNATURE_PARAM, signature);
	return { url: `${target}?${query.toString()}`, binding, mac: linkMac };
}

/** The answer links of a question as sent or stored: its buttons' ids, else (earlier questions) the links in its text. */
export function questionLinks(strings: string[]): ChatLink[] {
	const fromIds = strings.flatMap((value) => linkOfButtonId(value) ?? []);
	return fromIds.length ? fromIds : chatLinksIn(strings.join('\n'));
}

export type LinkCheck = 'ok' | 'forged' | 'notRecipient' | 'expired';

/** A link checked: our HMAC, the sender is the subscriber it was sent to, the wait's limit not passed. */
export function checkLink(
	key: Buffer,
	link: ChatLink,
	sender: string,
	now = Date.now(),
): LinkCheck {
	if (!Number.isFinite(link.binding.exp)) return 'forged';
	if (!sameMac(mac(key, bindingParts(link.binding)), link.mac)) return 'forged';
	if (digits(link.binding.to) === '' || digits(link.binding.to) !== digits(sender))
		return 'notRecipient';
	if (link.binding.exp > 0 && link.binding.exp * 1000 <= now) return 'expired';
	return 'ok';
}

/** What the trigger posts with an answer, so the waiting node knows the chat (not a page) answered, and who. */
export interface ChatResponder {
	phone_number: string;
	name?: string;
	at: string;
}

const responderParts = (q: string, value: string, who: ChatResponder) => [
	'a',
	q,
	value,
	digits(who.phone_number),
	who.name ?? '',
	who.at,
];

export function responderFields(
	key: Buffer,
	q: string,
	value: string,
	who: ChatResponder,
): IDataObject {
	return {
		chat_from: digits(who.phone_number),
		chat_name: who.name ?? '',
		chat_at: who.at,
		chat_mac: mac(key, responderParts(q, value, who)),
	};
}

/** The responder of an answer posted by a trigger, verified; undefined for a page's answer (or a forged one). */
export function verifiedResponder(
	key: Buffer,
	q: string,
	value: string,
	body: IDataObject,
): ChatResponder | undefined {
	if (typeof body.chat_mac !== 'string') return undefined;
	const who: ChatResponder = {
		phone_number: digits(body.chat_from),
		...(typeof body.chat_name === 'string' && body.chat_name ? { name: body.chat_name } : {}),
		at: String(body.chat_at ?? ''),
	};
	return sameMac(mac(key, responderParts(q, value, who)), body.chat_mac) ? who : undefined;
}
