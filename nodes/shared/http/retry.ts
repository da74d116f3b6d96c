import { NodeApiError, sleep } from 'n8n-workflow';
import { isRetryableRead, isRetryableSend } from './failures';

/**
 * When a failed request is tried again, for reads and sends alike: while the kind of request's `retryable` rule says
 * the failure is worth repeating, at most `retries` more attempts, backing off from `baseDelayMs` (doubling, with
 * jitter, up to `maxDelayMs`; the platform's Retry-After when it sends one), and never past `budgetMs` from the first
 * attempt.
 */
export interface RetryPolicy {
	retries: number;
	baseDelayMs: number;
	/** Longest backoff delay, and the longest Retry-After honoured (a longer one ends the retries). */
	maxDelayMs: number;
	budgetMs: number;
	/** Whether this failure may be repeated (failures.ts: what a failure proves about the request). */
	retryable(failure: unknown): boolean;
}

/** Reads change nothing: repeated on what is worth repeating, within 20 s, so a poll or a dropdown fails in time. */
export const READ_RETRY: Readonly<RetryPolicy> = Object.freeze({
	retries: 6,
	baseDelayMs: 250,
	maxDelayMs: 4_000,
	budgetMs: 20_000,
	retryable: isRetryableRead,
});

/** Sends are repeated only when the failure proves the platform did not act (delivery.ts); a Retry-After up to 30 s. */
export const SEND_RETRY: Readonly<RetryPolicy> = Object.freeze({
	retries: 6,
	baseDelayMs: 250,
	maxDelayMs: 30_000,
	budgetMs: Number.POSITIVE_INFINITY,
	retryable: isRetryableSend,
});

/**
 * The wait before another try: the platform's Retry-After when it gave one, held between the backoff's own floor
 * (so a Retry-After of 0 does not hammer the platform) and `maxDelayMs`; undefined when the platform asked for longer
 * than that (the caller gives up). Otherwise exponential backoff with "equal jitter": half the delay fixed, half
 * random, so retries spread out. A negative or unreadable Retry-After is no Retry-After (envelope.ts reads it).
 */
export function retryWait(
	failure: unknown,
	tries: number,
	settings: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
	random = Math.random,
): number | undefined {
	const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** tries);
	const backoff = Math.round(ceiling / 2 + (ceiling / 2) * random());
	const retryAfterMs = retryAfterOf(failure);
	if (retryAfterMs === undefined) return backoff;
	if (retryAfterMs > settings.maxDelayMs) return undefined;
	return Math.max(retryAfterMs, Math.round(ceiling / 2));
}

/** The platform's Retry-After on a failure, in ms (envelope.ts reads it); undefined when there is none. */
export function retryAfterOf(failure: unknown): number | undefined {
	const retryAfterMs =
		failure instanceof NodeApiError ? Number(failure.context?.retryAfterMs) : Number.NaN;
	return Number.isFinite(retryAfterMs) && retryAfterMs >= 0 ? retryAfterMs : undefined;
}

/** Why the retries ended: the failure was not worth repeating (or the run was cancelled), or the policy ran out. */
export interface GaveUp {
	/** Attempts made, the last one included. */
	attempts: number;
	elapsedMs: number;
	/** The failure was retryable, but the policy's attempts, budget or longest wait ran out. */
	exhausted: boolean;
	/** The run was cancelled (the caller's `cancelled`) when the attempt failed: no more attempts. */
	cancelled: boolean;
	/** Set when the platform asked to wait longer than `maxDelayMs` (Retry-After): the reason the retries ended. */
	retryAfterMs?: number;
	/** The caller's `mayWait` refused the wait (a run's budget for waiting on the platform is used up). */
	refusedWait?: boolean;
}

/**
 * Runs `attempt` under a retry policy. When it gives up, the failure is passed to `giveUp`, which returns the error to
 * throw (by default the failure itself).
 */
export async function withRetries<T>(
	attempt: (tries: number) => Promise<T>,
	policy: Readonly<RetryPolicy>,
	{
		giveUp = (failure) => failure,
		cancelled = () => false,
		mayWait = () => true,
	}: {
		giveUp?: (failure: unknown, how: GaveUp) => unknown;
		cancelled?: () => boolean;
		/** Asked before each wait: false ends the retries (GaveUp.refusedWait). */
		mayWait?: (failure: unknown, waitMs: number) => boolean;
	} = {},
): Promise<T> {
	const started = Date.now();
	for (let tries = 0; ; tries++) {
		let failure: unknown;
		try {
			return await attempt(tries);
		} catch (error) {
			failure = error;
		}
		const attempts = tries + 1;
		const elapsedMs = Date.now() - started;
		const stopped = cancelled();
		if (stopped || !policy.retryable(failure))
			throw giveUp(failure, { attempts, elapsedMs, exhausted: false, cancelled: stopped });
		const wait = tries < policy.retries ? retryWait(failure, tries, policy) : undefined;
		if (wait === undefined || elapsedMs + wait > policy.budgetMs)
			throw giveUp(failure, {
				attempts,
				elapsedMs,
				exhausted: true,
				cancelled: false,
				retryAfterMs:
					tries < policy.retries && wait === undefined ? retryAfterOf(failure) : undefined,
			});
		if (!mayWait(failure, wait))
			throw giveUp(failure, {
				attempts,
				elapsedMs,
				exhausted: true,
				cancelled: false,
				refusedWait: true,
			});
		await sleep(wait);
	}
}

/**
 * Runs a read under READ_RETRY. The last failure is thrown as it was, its description saying how often and how long
 * the platform refused.
 */
export async function retryRead<T>(attempt: () => Promise<T>): Promise<T> {
	return await withRetries(attempt, READ_RETRY, {
		giveUp: (failure, { attempts, elapsedMs, exhausted }) => {
			if (exhausted && attempts > 1 && failure instanceof NodeApiError) {
				failure.description =
					`${failure.description ?? ''} The platform refused this read ${attempts} times in ${Math.round(elapsedMs / 100) / 10} s; it was not retried further.`.trim();
				failure.context = { ...failure.context, attempts };
			}
			return failure;
		},
	});
}
