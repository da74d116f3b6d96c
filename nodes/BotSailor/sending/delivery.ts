import type { IDataObject, INode } from 'n8n-workflow';
import { CREDENTIAL_TYPE, DEFAULT_SENDS_IN_FLIGHT } from '../../shared/http/credential';
import { NodeApiError, sleep } from 'n8n-workflow';
import { apiError } from '../../shared/http/envelope';
import { isRetryableSend, outcomeOf } from '../../shared/http/failures';
import { retryAfterOf, SEND_RETRY, withRetries } from '../../shared/http/retry';
import { metaRefusalOfError, type MetaRefusal } from '../../shared/whatsapp/metaRefusals';
import { cooldowns, paces, type Pace, type PaceSignal } from './pace';

/**
 * The delivery policy of every send (the bulk path in bulkSend.ts and the declarative path in
 * sendDefinition.ts alike): the account's pace of requests in flight (pace.ts: adaptive, under the credential's
 * Max Sends in Flight), and a retry only when the failure proves the platform did not act on the request.
 *
 * | Failure                                        | Outcome  | Retried | Why                                          |
 * |------------------------------------------------|----------|---------|----------------------------------------------|
 * | HTTP 429, HTTP 503                             | not sent | yes     | the platform (or its proxy) refused first    |
 * | connection refused, network away (EAI_AGAIN)   | not sent | yes     | the request never left                       |
 * | TLS handshake, certificate, unknown host (DNS) | not sent | no      | never left, and trying again cannot help     |
 * | HTTP 3xx (a redirect, never followed)          | not sent | no      | answered before the API; fix the Base URL    |
 * | HTTP 500, 502, 504                             | unknown  | no      | the platform may have acted before failing   |
 * | HTTP 2xx whose body cannot be read             | unknown  | no      | the platform acted; its answer is lost       |
 * | deadline, timeout, reset, dropped connection   | unknown  | no      | the request left; the answer was lost        |
 * | `status: "0"`, other 4xx, a web page           | refused  | no      | the platform's own refusal (not sent)        |
 * | Meta's 131049, 131050 (any HTTP status)        | refused  | no      | about this customer: resending cannot help   |
 * | Meta's 131056 (pair rate limit)                | refused  | yes     | after that customer's cooldown only (pace.ts)|
 *
 * Meta's refusals (shared/whatsapp/metaRefusals.ts) concern one customer: they never slow or pause the account's
 * pace, nor spend the run's Rate Limit Wait Budget, even when the platform relays them as HTTP 429.
 * The connection verdicts come from transport.ts (connectionVerdict), the answer kinds from envelope.ts.
 * A send that is not retried because its outcome is unknown fails as "may have been delivered",
 * never as a plain error and never as success.
 */

export interface DeliveryOptions {
	/**
	 * The ceiling of requests in flight at once for one account (credential), shared by every execution in this n8n
	 * process: the credential's Max Sends in Flight (sendsInFlight) unless given here. The pace (pace.ts) starts at
	 * INITIAL_SENDS_IN_FLIGHT and adapts under it; every n8n process keeps its own pace.
	 */
	concurrency?: number;
	/** Whether the pace adapts to the platform's answers (true), or stays fixed at `concurrency` (earlier versions). */
	adaptive?: boolean;
	/** Retries after the first attempt, for failures that prove nothing was done (retry.ts SEND_RETRY). */
	retries?: number;
	/** First backoff delay; doubles on each retry, with jitter. */
	baseDelayMs?: number;
	/** Longest backoff delay, and the longest Retry-After honoured (a longer one fails the send as not sent). */
	maxDelayMs?: number;
}

export const DELIVERY_DEFAULTS: Readonly<Required<DeliveryOptions>> = Object.freeze({
	concurrency: DEFAULT_SENDS_IN_FLIGHT,
	adaptive: true,
	retries: SEND_RETRY.retries,
	baseDelayMs: SEND_RETRY.baseDelayMs,
	maxDelayMs: SEND_RETRY.maxDelayMs,
});

/** Tries again after Meta's pair rate limit (131056), each after the customer's cooldown (pace.ts): about 18 s in all. */
export const PAIR_RETRIES = 2;

/** The customer a send's fields go to (its phone number), for the pair cooldown; undefined for a broadcast. */
export function recipientOf(fields: IDataObject): string | undefined {
	const phone = fields.phone_number;
	return typeof phone === 'string' || typeof phone === 'number'
		? String(phone).replace(/\D/g, '') || undefined
		: undefined;
}

/** The account a send goes through: its credential. */
function accountOf(node: INode): string {
	const reference = node.credentials?.[CREDENTIAL_TYPE];
	return reference?.id ?? reference?.name ?? 'default';
}

/** The account's pace (pace.ts): one per credential, module-level so concurrent items, executions and tool calls share it. */
export function paceFor(node: INode, ceiling: number, adaptive = true): Pace {
	return paces.paceFor(accountOf(node), ceiling, adaptive);
}

/** What a finished attempt tells the pace: an answer (fine), 429, 503, or nothing (no answer). */
export function paceSignalOf(failure: unknown): PaceSignal {
	if (!(failure instanceof NodeApiError)) return 'ok';
	// Meta refused for one customer: the platform answered, its rate is not in question.
	if (metaRefusalOfError(failure)) return 'ok';
	if (typeof failure.context?.connection === 'string' || failure.context?.outcome === 'unknown')
		return 'none';
	const status = Number(failure.httpCode);
	if (status === 429) return 'limited';
	if (status === 503) return 'unavailable';
	return 'ok';
}

/**
 * An unknown outcome as the error to report: the API's text kept, and the message saying plainly
 * that the message may have been delivered and was not sent again.
 */
export function mayHaveBeenDelivered(
	node: INode,
	failure: NodeApiError,
	itemIndex: number,
): NodeApiError {
	const unreadable = failure.context?.answer === 'unreadable';
	const error = apiError(node, {
		message: `The message may have been delivered: ${failure.message}`,
		description: unreadable
			? 'The platform took the request and answered, but its answer cannot be read, so the node did not send it again. Check the conversation (Message → Get Many) before sending this item again.'
			: `The request reached the platform but its answer was lost, so the node did not send it again. Check the conversation (Message → Get Many) before sending this item again.${failure.context?.connection === 'DEADLINE' ? ' Raise Options → Timeout if the platform is slow.' : ''}`,
		httpCode: Number(failure.httpCode) || 0,
		itemIndex,
	});
	error.context = { ...error.context, outcome: 'unknown' };
	return error;
}

/** The cause of a failure that proves nothing was done, in words. */
function notSentCause(failure: NodeApiError): string {
	const connection = failure.context?.connection;
	if (typeof connection === 'string') return 'no connection';
	const status = Number(failure.httpCode);
	if (status === 429) return 'HTTP 429 Too Many Requests (the platform’s rate limit)';
	if (status === 503) return 'HTTP 503 Service Unavailable';
	return `HTTP ${status}`;
}

/**
 * A send given up while every failure proved nothing was done (429, 503, no connection): the error
 * names the cause and the attempts, says that nothing was delivered, and what to change.
 */
export function notSent(
	node: INode,
	failure: NodeApiError,
	itemIndex: number,
	attempts: number,
	retryAfterMs?: number,
): NodeApiError {
	if (!isRetryableSend(failure)) {
		// Proves nothing left, and repeating cannot help (TLS, certificate, DNS, a redirect): the cause and its fix.
		const error = apiError(node, {
			message: `Not sent: ${failure.message}`,
			description: `Nothing was delivered. ${String(failure.description ?? '').replace(/^BotSailor .*? failed\. /, '')}`,
			httpCode: Number(failure.httpCode) || 0,
			itemIndex,
		});
		error.context = { ...error.context, outcome: 'notSent', attempts };
		return error;
	}
	const cause = notSentCause(failure);
	const rateLimited = Number(failure.httpCode) === 429;
	const connection = typeof failure.context?.connection === 'string';
	const own = String(failure.description ?? '').replace(/^BotSailor .*? failed\. /, '');
	const error = apiError(node, {
		message: connection
			? `Not sent: ${failure.message} (all ${attempts} attempts)`
			: retryAfterMs === undefined
				? `Not sent: the platform answered ${cause} to all ${attempts} attempts`
				: `Not sent: the platform answered ${cause} and asked to wait ${Math.ceil(retryAfterMs / 1000)} s (Retry-After), longer than the node waits`,
		description: connection
			? `Nothing was delivered. ${own} Run the item again once the platform answers.`
			: `Nothing was delivered (the platform refused before acting; its last answer: "${failure.message}"). ${
					rateLimited
						? 'Lower Max Sends in Flight in the BotSailor credential so that all n8n processes together stay below the platform’s limit (in queue mode: workers × Max Sends in Flight), then run the item again.'
						: 'Run the item again once the platform answers.'
				}`,
		httpCode: Number(failure.httpCode) || 0,
		itemIndex,
	});
	error.context = { ...error.context, outcome: 'notSent', attempts };
	return error;
}

/**
 * A run's budget for waiting on the platform's rate limit (the credential's Rate Limit Wait Budget): the waits before
 * retrying a 429 or 503, summed over the run's sends. Once a wait does not fit, the budget is used up: no send of the
 * run waits or starts any more, each ends as "Not sent" naming the budget (rateLimitBudgetUsedUp).
 */
export class RateLimitBudget {
	private spentMs = 0;
	private exhausted = false;

	constructor(readonly limitMs: number) {}

	get usedUp(): boolean {
		return this.exhausted;
	}

	/** Takes `ms` of the budget; false (and the budget used up) when it does not fit. */
	take(ms: number): boolean {
		if (this.exhausted || this.spentMs + ms > this.limitMs) {
			this.exhausted = true;
			return false;
		}
		this.spentMs += ms;
		return true;
	}
}

/** Whether a failure is the platform asking to wait: HTTP 429 or 503 (what the budget counts), not Meta's refusal. */
function isRateLimited(failure: unknown): boolean {
	return (
		failure instanceof NodeApiError &&
		[429, 503].includes(Number(failure.httpCode)) &&
		!metaRefusalOfError(failure)
	);
}

/** Meta's refusal of a send, when the answer is one and the platform did not act (not an unknown outcome). */
function sendRefusal(failure: unknown): MetaRefusal | undefined {
	return outcomeOf(failure) === 'unknown' ? undefined : metaRefusalOfError(failure);
}

/**
 * Meta's refusal of a send as the error to report: the plain words and what to do first, the platform's text (with
 * Meta's code) kept as it came; `context.failed_code` carries the code for Continue On Fail's error item.
 */
export function metaRefused(
	node: INode,
	failure: NodeApiError,
	refusal: MetaRefusal,
	itemIndex: number,
	attempts: number,
): NodeApiError {
	const error = apiError(node, {
		message: `WhatsApp refused the message (Meta error ${refusal.code}): ${failure.message}`,
		description: `Nothing was delivered. ${refusal.meaning}${attempts > 1 ? ` (${attempts} attempts, each after this customer's cooldown.)` : ''}`,
		httpCode: Number(failure.httpCode) || 0,
		itemIndex,
	});
	error.context = {
		...error.context,
		outcome: 'refused',
		failed_code: refusal.code,
		failed_meaning: refusal.meaning,
		attempts,
	};
	return error;
}

/** A send ended because the run's Rate Limit Wait Budget is used up: nothing was delivered. */
export function rateLimitBudgetUsedUp(
	node: INode,
	itemIndex: number,
	budget: RateLimitBudget,
	failure?: NodeApiError,
): NodeApiError {
	const seconds = Math.round(budget.limitMs / 1000);
	const error = apiError(node, {
		message: `Not sent: this run waited its whole Rate Limit Wait Budget (${seconds} s) on the platform’s rate limit`,
		description: `Nothing was delivered${failure ? ` (the platform’s last answer: HTTP ${String(failure.httpCode)} "${failure.message}")` : ''}. The platform kept answering “too many requests” or “unavailable”, so the run stopped waiting: the items not sent yet were not attempted. Run them again later; raise Rate Limit Wait Budget in the BotSailor credential to wait longer, or lower Max Sends in Flight.`,
		httpCode: Number(failure?.httpCode) || 0,
		itemIndex,
	});
	error.context = { ...error.context, outcome: 'notSent', rateLimitBudget: true };
	return error;
}

/** A send that never left: the run stopped sending (a failure without Continue On Fail) while it waited for its slot. */
export class NotAttempted extends Error {
	constructor() {
		super('Not sent (not attempted): the run stopped at an earlier failure');
		this.name = 'NotAttempted';
	}
}

/**
 * Runs one send under the policy: a slot of the account's pace, the attempt, and retries while
 * the failure proves nothing was done. The final failure is thrown, an unknown outcome as
 * mayHaveBeenDelivered, retries given up as notSent (naming the cause).
 */
export async function deliver<T>(
	node: INode,
	itemIndex: number,
	attempt: () => Promise<T>,
	{
		options = {},
		cancelled = () => false,
		stopped,
		budget,
		recipient,
	}: {
		options?: DeliveryOptions;
		cancelled?: () => boolean;
		/**
		 * Whether the run has stopped sending (bulkSend.ts: a failure without Continue On Fail): checked once the send
		 * has its slot, just before the request leaves, and before a retry. A send that had to wait for its slot is
		 * then not attempted (NotAttempted), a retry not made.
		 */
		stopped?: () => boolean;
		/** The run's budget for waiting on the platform's rate limit (RateLimitBudget). */
		budget?: RateLimitBudget;
		/** The customer (phone number): after Meta's pair rate limit (131056), sends to them wait their cooldown. */
		recipient?: string;
	} = {},
): Promise<T> {
	const settings = { ...DELIVERY_DEFAULTS, ...options };
	const pace = paceFor(node, settings.concurrency, settings.adaptive);
	const account = accountOf(node);
	let pairLimited = 0;
	const paced = async (tries: number) => {
		// The customer's cooldown is waited out before a slot is taken: the account's other sends go on meanwhile.
		for (
			let wait = recipient ? cooldowns.remaining(account, recipient) : 0;
			wait > 0 && !cancelled() && stopped?.() !== true;
			wait = cooldowns.remaining(account, recipient!)
		)
			await sleep(wait);
		// A retry goes before the sends that have not started; the slot is given back while it waits.
		await pace.acquire(tries > 0);
		if (stopped) {
			// The failure that stops the run gives its slot back before it is known as the run's failure: what it
			// settles (a few promise turns) is done before this turn of the event loop ends.
			await sleep(0);
			if (stopped()) {
				pace.release('none');
				throw new NotAttempted();
			}
		}
		if (budget?.usedUp) {
			pace.release('none');
			throw rateLimitBudgetUsedUp(node, itemIndex, budget);
		}
		let failure: unknown;
		try {
			const result = await attempt();
			pace.release('ok');
			return result;
		} catch (error) {
			failure = error;
		}
		// A Retry-After the node honours pauses the account's sends; a longer one fails this send as not sent (below).
		const retryAfterMs = retryAfterOf(failure);
		const refusal = sendRefusal(failure);
		pace.release(
			paceSignalOf(failure),
			retryAfterMs !== undefined && retryAfterMs <= settings.maxDelayMs && !refusal
				? retryAfterMs
				: undefined,
		);
		if (refusal?.kind === 'pairRateLimit' && recipient) {
			pairLimited++;
			cooldowns.hit(account, recipient);
		}
		throw failure;
	};
	return await withRetries(
		paced,
		{
			...SEND_RETRY,
			...settings,
			// Meta's refusals: only the pair rate limit is worth another try (to this customer, after the cooldown).
			retryable: (failure) => {
				const refusal = sendRefusal(failure);
				if (refusal)
					return (
						refusal.kind === 'pairRateLimit' &&
						recipient !== undefined &&
						pairLimited <= PAIR_RETRIES
					);
				return isRetryableSend(failure);
			},
		},
		{
			cancelled: () => cancelled() || stopped?.() === true,
			mayWait: (failure, waitMs) => !budget || !isRateLimited(failure) || budget.take(waitMs),
			giveUp: (failure, { attempts, cancelled: wasCancelled, retryAfterMs, refusedWait }) => {
				if (failure instanceof NotAttempted) return failure;
				if (failure instanceof NodeApiError && failure.context?.rateLimitBudget) return failure;
				if (refusedWait && budget)
					return rateLimitBudgetUsedUp(node, itemIndex, budget, failure as NodeApiError);
				const refusal = sendRefusal(failure);
				if (refusal)
					return metaRefused(node, failure as NodeApiError, refusal, itemIndex, attempts);
				const outcome = outcomeOf(failure);
				if (outcome === 'unknown')
					return mayHaveBeenDelivered(node, failure as NodeApiError, itemIndex);
				if (outcome === 'refused' || wasCancelled) return failure;
				return notSent(node, failure as NodeApiError, itemIndex, attempts, retryAfterMs);
			},
		},
	);
}
