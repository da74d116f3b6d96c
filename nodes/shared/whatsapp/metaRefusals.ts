import type { IDataObject } from 'n8n-workflow';

/**
 * Meta's refusals that concern one customer, not the account (WhatsApp Cloud API error codes), wherever they reach the
 * node: a send's answer, a delivery status (Wait for Delivery, Get Delivery Report) and the Message Status triggers.
 * The only place that knows them. The platform passes Meta's error on as text (e.g. `failed_reason` "(#131049) …");
 * the code is read from the text as it came, or, where the platform dropped the code, from Meta's documented title.
 * SPEC-GAP: neither the spec nor the platform shows how it relays these; the simulator words them as Meta titles them.
 *
 * Not recognised, because Meta documents no code or text for them that we could check: marketing templates refused
 * to US (+1) numbers, and the Marketing Messages terms not accepted. Such a refusal stays the platform's own text.
 */
export type MetaRefusalKind = 'marketingLimit' | 'marketingStopped' | 'pairRateLimit';

export interface MetaRefusal {
	/** Meta's error code, as text ("131049"). */
	code: string;
	kind: MetaRefusalKind;
	/** What happened and what to do, in plain words. */
	meaning: string;
}

const REFUSALS: ReadonlyArray<MetaRefusal & { title: RegExp }> = [
	{
		code: '131049',
		kind: 'marketingLimit',
		meaning:
			"Meta's limit on marketing messages to this customer: Meta held the message back. Do not resend it for 24 hours; sending again sooner is refused again.",
		title: /maintain healthy ecosystem engagement/i,
	},
	{
		code: '131050',
		kind: 'marketingStopped',
		meaning:
			'The customer stopped marketing messages from this business in WhatsApp. Do not send them marketing templates again; utility and authentication templates, and replies within 24 hours of their message, still reach them.',
		title: /chosen to stop receiving marketing messages/i,
	},
	{
		code: '131056',
		kind: 'pairRateLimit',
		meaning:
			"Too many messages to this one customer in a short time (Meta's limit per business and customer pair, not the account's rate limit). Send to this customer again after a few seconds; other customers are not affected.",
		title: /pair rate limit/i,
	},
];

/** The code as a whole number in Meta's text: "(#131049)", "code 131049", "131049:"; never inside a longer number. */
const codePattern = (code: string) => new RegExp(`(?<![\\d+])${code}(?!\\d)`);

/** Meta's refusal named in a text (an error message, a `failed_reason`), or undefined. */
export function metaRefusalOf(text: unknown): MetaRefusal | undefined {
	if (typeof text !== 'string' || text === '') return undefined;
	const found =
		REFUSALS.find(({ code }) => codePattern(code).test(text)) ??
		REFUSALS.find(({ title }) => title.test(text));
	return found && { code: found.code, kind: found.kind, meaning: found.meaning };
}

/** The fields added next to a `failed_reason` Meta gave (kept as it came): its code and its meaning. */
export function refusalFields(failedReason: unknown): IDataObject {
	const refusal = metaRefusalOf(failedReason);
	return refusal ? { failed_code: refusal.code, failed_meaning: refusal.meaning } : {};
}

/** Meta's refusal carried by a failure (its message or description), or undefined. */
export function metaRefusalOfError(error: unknown): MetaRefusal | undefined {
	if (!(error instanceof Error)) return undefined;
	const context = (error as { context?: IDataObject }).context;
	// Our own errors about the connection or an unknown outcome carry no answer of Meta's.
	if (typeof context?.connection === 'string' || context?.outcome === 'unknown') return undefined;
	return (
		metaRefusalOf(error.message) ?? metaRefusalOf((error as { description?: unknown }).description)
	);
}
