import type { INode } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';
import { apiError } from './envelope';
import { CREDENTIAL_TYPE } from './request';

/**
 * The delivery policy of every send (the bulk path in bulkSend.ts and the declarative path in
 * sendDefinition.ts alike): a bounded number of requests in flight per account, and a retry only
 * when the failure proves the platform did not act on the request.
 *
 * | Failure                                  | Retried | Why                                               |
 * |------------------------------------------|---------|---------------------------------------------------|
 * | HTTP 429, HTTP 503                        | yes     | the platform (or its proxy) refused before acting |
 * | connection refused, host not found        | yes     | the request never left                            |
 * | HTTP 500, 502, 504                        | no      | the platform may have acted before failing        |
 * | timeout, reset, dropped connection        | no      | the request left; the answer was lost             |
 * | `status: "0"`, other 4xx, non-JSON answer | no      | the platform's own refusal                        |
 *
 * A send that is not retried because its outcome is unknown fails as "may have been delivered",
 * never as a plain error and never as success.
 */

export interface DeliveryOptions {
	/** Requests in flight at once for one account (credential), shared by every execution in this n8n process. */
	concurrency?: number;
	/** Retries after the first attempt, for failures that prove nothing was done. */
	retries?: number;
	/** First backoff delay; doubles on each retry, with jitter. */
	baseDelayMs?: number;
	/** Longest backoff delay, and the longest Retry-After honoured (a longer one fails the send as not sent). */
	maxDelayMs?: number;
}

export const DELIVERY_DEFAULTS: Readonly<Required<DeliveryOptions>> = Object.freeze({ concurrency: 6, retries: 6, baseDelayMs: 250, maxDelayMs: 30_000 });

/** A counting semaphore: at most `max` holders, the rest wait in arrival order. */
export class Limiter {
	private active = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(readonly max: number) {}

	async acquire(): Promise<void> {
		if (this.active < this.max) {
			this.active++;
			return;
		}
		// The releasing holder hands its slot straight to the next waiter, so `active` stays put.
		await new Promise<void>((resolve) => this.waiting.push(resolve));
	}

	release(): void {
		const next = this.waiting.shift();
		if (next) next();
		else this.active--;
	}

	get inFlight(): number {
		return this.active;
	}
}

/** One limiter per account (credential), module-level so concurrent items, executions and tool calls share it. */
const limiters = new Map<string, Limiter>();

export function limiterFor(node: INode, max: number): Limiter {
	const reference = node.credentials?.[CREDENTIAL_TYPE];
	const key = `${reference?.id ?? reference?.name ?? 'default'}\u0000${max}`;
	let limiter = limiters.get(key);
	if (!limiter) {
		limiter = new Limiter(max);
		limiters.set(key, limiter);
	}
	return limiter;
}

/** What a failed attempt says about the send: certainly not done (safe to repeat), refused, or unknown. */
export type Outcome = 'notSent' | 'refused' | 'unknown';

/** HTTP answers that prove nothing was done: rate limited, or unavailable. */
const NOT_SENT_STATUS = new Set([429, 503]);
/** Connection failures before any byte of the request left. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Reads what a failure (our NodeApiError from envelope.ts or request.ts) says about the send. */
export function outcomeOf(error: unknown): Outcome {
	if (!(error instanceof NodeApiError)) return 'refused';
	const connection = error.context?.connection;
	if (typeof connection === 'string') return NOT_CONNECTED.has(connection) ? 'notSent' : 'unknown';
	const status = Number(error.httpCode);
	if (NOT_SENT_STATUS.has(status)) return 'notSent';
	if (status >= 500) return 'unknown';
	return 'refused';
}

/** Whether a failed send may be repeated: only when it proves the platform did not act. */
export function isRetryable(error: unknown): boolean {
	return outcomeOf(error) === 'notSent';
}

/** Exponential backoff with "equal jitter": half the delay fixed, half random, so retries spread out. */
export function backoffDelay(attempt: number, baseDelayMs: number, maxDelayMs: number, random = Math.random): number {
	const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
	return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** The wait before the next attempt: the platform's Retry-After when it gave one, else the backoff. */
function waitBefore(failure: unknown, attempt: number, settings: Required<DeliveryOptions>): number | undefined {
	const retryAfterMs = failure instanceof NodeApiError ? Number(failure.context?.retryAfterMs) : NaN;
	if (Number.isFinite(retryAfterMs)) return retryAfterMs <= settings.maxDelayMs ? retryAfterMs : undefined;
	return backoffDelay(attempt, settings.baseDelayMs, settings.maxDelayMs);
}

/**
 * An unknown outcome as the error to report: the API's text kept, and the message saying plainly
 * that the message may have been delivered and was not sent again.
 */
export function mayHaveBeenDelivered(node: INode, failure: NodeApiError, itemIndex: number): NodeApiError {
	const error = apiError(node, {
		message: `The message may have been delivered: ${failure.message}`,
		description:
			'The request reached the platform but its answer was lost, so the node did not send it again. Check the conversation (Message → Get Many) before sending this item again.',
		httpCode: Number(failure.httpCode) || 0,
		itemIndex,
	});
	error.context = { ...error.context, outcome: 'unknown' };
	return error;
}

/**
 * Runs one send under the policy: a slot of the account's limiter, the attempt, and retries while
 * the failure proves nothing was done. The final failure is thrown, an unknown outcome as
 * mayHaveBeenDelivered.
 */
export async function deliver<T>(
	node: INode,
	itemIndex: number,
	attempt: () => Promise<T>,
	{ options = {}, cancelled = () => false }: { options?: DeliveryOptions; cancelled?: () => boolean } = {},
): Promise<T> {
	const settings = { ...DELIVERY_DEFAULTS, ...options };
	const limiter = limiterFor(node, settings.concurrency);
	await limiter.acquire();
	try {
		for (let tries = 0; ; tries++) {
			let failure: unknown;
			try {
				return await attempt();
			} catch (error) {
				failure = error;
			}
			const outcome = outcomeOf(failure);
			if (outcome === 'unknown') throw mayHaveBeenDelivered(node, failure as NodeApiError, itemIndex);
			const wait = outcome === 'notSent' && tries < settings.retries && !cancelled() ? waitBefore(failure, tries, settings) : undefined;
			if (wait === undefined) throw failure;
			// The slot stays held while waiting: a limited platform then sees fewer requests overall.
			await sleep(wait);
		}
	} finally {
		limiter.release();
	}
}
