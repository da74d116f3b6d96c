import type {
	DeclarativeRestApiSettings,
	INodePropertyRouting,
	PreSendAction,
	IExecutePaginationFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';
import { unwrap } from './output';
import { CREDENTIAL_TYPE } from './request';
import { routingFailure } from './sendOnce';

/**
 * Safe bulk sends. n8n's RoutingNode starts every item's request at once, so 5,000 items are
 * 5,000 simultaneous requests and a rate-limited platform drops most of them. Used as the
 * `routing.operations.pagination` of a send operation (with `routing.send.paginate: true`), this
 * sends each item's request itself: a bounded number in flight per account, and a retry with
 * backoff when the platform answered that it did not process the request (429, 502, 503, 504).
 * A connection that dropped or timed out is never retried: the message may already have left,
 * so a retry could deliver it twice. That item fails instead (an error item under Continue On Fail).
 */

export interface DeliveryOptions {
	/** Requests in flight at once for one account (credential) (shared by every execution in this n8n). */
	concurrency?: number;
	/** Retries after the first attempt, on 429, 502, 503 and 504 answers only. */
	retries?: number;
	/** First backoff delay; doubles on each retry, with jitter. */
	baseDelayMs?: number;
	/** Longest backoff delay. */
	maxDelayMs?: number;
}

export const DELIVERY_DEFAULTS = { concurrency: 6, retries: 6, baseDelayMs: 250, maxDelayMs: 8_000 };

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

/** One limiter per account (credential), module-level so concurrent items and executions share it. */
const limiters = new Map<string, Limiter>();

export function limiterFor(key: string, max: number): Limiter {
	let limiter = limiters.get(key);
	if (!limiter) {
		limiter = new Limiter(max);
		limiters.set(key, limiter);
	}
	return limiter;
}

/** Answers that say the request was not processed: rate limited, or a gateway/overload refusal. */
const NOT_PROCESSED = new Set([429, 502, 503, 504]);

/** The limiter key: the credential in use (one account on one platform); reading it costs nothing per item. */
function accountKey(context: IExecutePaginationFunctions): string {
	const credential = context.getNode().credentials?.[CREDENTIAL_TYPE];
	return credential?.id ?? credential?.name ?? 'default';
}

/**
 * Whether a failed send may be repeated: only when the platform answered that it did not process it
 * (429, 502, 503, 504). A 500 is not retried: the message may have left before the server failed. Transport failures carry httpCode "0" (see request.ts) and a
 * status "0" envelope on HTTP 200 is the API's own answer: neither is retried.
 */
export function isRetryable(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	return NOT_PROCESSED.has(Number(error.httpCode));
}

/** Exponential backoff with "equal jitter": half the delay fixed, half random, so retries spread out. */
export function backoffDelay(attempt: number, baseDelayMs: number, maxDelayMs: number, random = Math.random): number {
	const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
	return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/**
 * The `routing.operations.pagination` of a send operation: bounded, retried. It sends through
 * RoutingNode's own request (credentials decrypted once per run, the operation's postReceive
 * applied), so a send costs what a plain declarative request costs.
 */
export function deliver(
	options: DeliveryOptions = {},
): (this: IExecutePaginationFunctions, requestData: DeclarativeRestApiSettings.ResultOptions) => Promise<INodeExecutionData[]> {
	const { concurrency, retries, baseDelayMs, maxDelayMs } = { ...DELIVERY_DEFAULTS, ...options };
	return async function (this: IExecutePaginationFunctions, requestData) {
		const limiter = limiterFor(accountKey(this), concurrency);
		const cancelled = () => this.getExecutionCancelSignal()?.aborted === true;
		await limiter.acquire();
		try {
			for (let attempt = 0; ; attempt++) {
				let failure: unknown;
				try {
					return await this.makeRoutingRequest(requestData);
				} catch (error) {
					failure = await routingFailure(this, error);
				}
				if (attempt >= retries || !isRetryable(failure) || cancelled()) throw failure;
				// The slot stays held while waiting: a limited platform then sees fewer requests overall.
				await sleep(backoffDelay(attempt, baseDelayMs, maxDelayMs));
			}
		} finally {
			limiter.release();
		}
	};
}

/** The routing of a send operation: validated by its preSend, then sent through `deliver` (bounded, retried). */
export function deliveredRouting(url: string, preSend: PreSendAction[], options: DeliveryOptions = {}): INodePropertyRouting {
	return {
		request: { url },
		send: { preSend, paginate: true },
		operations: { pagination: deliver(options) },
		output: { postReceive: [unwrap('confirmation')] },
	};
}
