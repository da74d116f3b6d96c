import { NodeApiError } from 'n8n-workflow';

/**
 * Safe bulk sends, the building blocks of the send executor (sendExecutor.ts). n8n's RoutingNode
 * starts every item's request at once, so 5,000 items are 5,000 simultaneous requests and a
 * rate-limited platform drops most of them. The executor sends a bounded number in flight per
 * account, and retries with backoff when the platform answered that it did not process the
 * request (429, 502, 503, 504).
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
