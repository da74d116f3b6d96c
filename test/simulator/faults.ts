/** Fault injection: per path (or every path with '*'), a number of times or forever, plus a concurrency cap. */

/**
 * `processThen504`, `processThen502` and `processThenDrop` handle the request completely (token check, the route's
 * handler, its state changes: a send is recorded in state.messages) and then answer HTTP 504 / HTTP 502 with an
 * nginx-style HTML page, or destroy the socket without an answer: the client cannot tell whether its request was done.
 * `processThenTruncated` and `processThenEmpty` handle it and answer HTTP 200 with half a JSON body, or none (a PHP
 * fatal error after the work, a proxy that cuts the body). `redirectOffsite` answers 307 to another host.
 * SPEC-GAP: the spec (../shared/spec/api.md) says nothing about gateways; these model a reverse proxy or CDN in front
 * of the platform that gives up on, or loses, the platform's answer after the platform has acted.
 */
export type FaultKind =
	| 'none'
	| 'html500'
	| 'unavailable503'
	| 'malformed'
	| 'drop'
	| 'timeout'
	| 'rate429'
	| 'status0'
	| 'unauthorized'
	| 'redirect'
	| 'processThen504'
	| 'processThen502'
	| 'processThenDrop'
	| 'processThenTruncated'
	| 'processThenEmpty'
	| 'redirectOffsite'
	| 'answer';

/** The kinds that run the request before failing it. */
export const PROCESSING_FAULTS: readonly FaultKind[] = [
	'processThen504',
	'processThen502',
	'processThenDrop',
	'processThenTruncated',
	'processThenEmpty',
];

export interface Fault {
	kind: FaultKind;
	/**
	 * Delay before answering (alone with kind 'none', or before the fault). For the processThen* kinds the request is
	 * processed first and the delay comes between processing and the failure (SPEC-GAP: a gateway that waits on the
	 * platform's answer, then gives up), so the state change is there as soon as the client could notice anything.
	 */
	latencyMs?: number;
	/**
	 * With `unavailable503` or `rate429`: the answer carries `Retry-After: <seconds>` (none when unset).
	 * SPEC-GAP: the spec names no Retry-After header; this models a reverse proxy/CDN or rate limiter in front of the platform.
	 */
	retryAfterSeconds?: number;
	/** Text of a status0 failure. */
	message?: string;
	/**
	 * With `answer`: the JSON body answered with HTTP 200 instead of the route's (nothing is processed). SPEC-GAP: a
	 * deployment's odd answer (`status: 1` with `message` as text, `{}` or missing, a record without a field), scripted
	 * by a test for one path.
	 */
	body?: unknown;
	/** How many requests it applies to; undefined = until cleared. */
	times?: number;
	/** Applies to every n-th matching request only (n, 2n, …); the others are answered normally. For "1% of sends", 100. */
	everyNth?: number;
}

/** What the platform saw of concurrency (control API `in-flight`). */
export interface InFlightReport {
	/** API requests received and not yet answered (or abandoned) now. */
	inFlight: number;
	/** The most there were at once since the last reset. */
	peakInFlight: number;
	/** The cap; null when there is none. */
	maxConcurrent: number | null;
	/** Requests answered 429 because they arrived over the cap, since the last reset. */
	overCapacity: number;
}

export class Faults {
	private rules: Array<{ path: string; fault: Fault; seen: number }> = [];
	/**
	 * SPEC-GAP: the spec shows no rate limit (nor HTTP status codes); this cap models a rate limiter or proxy in
	 * front of the platform. Bench rows 4 and 6 and the queue test rest on it (docs/spec-gaps.md).
	 * Requests that arrive while this many are in flight are answered 429. In flight means from the arrival of the
	 * request (its headers) until its answer is written or the client goes away, so the cap applies to whatever
	 * overlaps on the wire (a slow upload, many clients at once) with or without added latency.
	 * It may change at any moment (control API `concurrency-cap` during a run: a platform that gets busier); requests
	 * already admitted run to their end, the new cap applies to those that arrive next.
	 * SPEC-GAP: a 429 for the cap carries no Retry-After (a limiter that counts concurrent requests has no time to name).
	 */
	maxConcurrent = Infinity;
	/** Extra latency for every request. */
	latencyMs = 0;
	/**
	 * Jitter of that latency, as a share of it: 0.3 makes each request's latency uniform in ±30 % around latencyMs.
	 * SPEC-GAP: the spec says nothing about response times; a send waits on WhatsApp's Cloud API before the platform
	 * answers, so its round trip varies (bench row 10 uses 300 ms ± 30 %).
	 */
	latencyJitter = 0;
	/** Random numbers for the jitter (a test may fix them). */
	random: () => number = Math.random;
	inFlight = 0;
	peakInFlight = 0;
	/** Requests answered 429 for being over the cap. */
	overCapacity = 0;

	add(path: string, fault: Fault): void {
		this.rules.push({ path, fault: { ...fault }, seen: 0 });
	}

	clear(): void {
		this.rules = [];
		this.maxConcurrent = Infinity;
		this.latencyMs = 0;
		this.latencyJitter = 0;
	}

	/** This request's added latency: latencyMs, spread by latencyJitter. */
	private latency(): number {
		if (!this.latencyMs || !this.latencyJitter) return this.latencyMs;
		return Math.max(
			0,
			Math.round(this.latencyMs * (1 + this.latencyJitter * (2 * this.random() - 1))),
		);
	}

	/** The fault for this request, consuming one use of it. */
	take(path: string): Fault | undefined {
		const index = this.rules.findIndex((rule) => rule.path === path || rule.path === '*');
		const rule = this.rules[index];
		const skipped = rule?.fault.everyNth !== undefined && ++rule.seen % rule.fault.everyNth !== 0;
		if (index < 0 || skipped)
			return this.latencyMs ? { kind: 'none', latencyMs: this.latency() } : undefined;
		const { fault } = rule;
		if (fault.times !== undefined && --fault.times <= 0) this.rules.splice(index, 1);
		return { ...fault, latencyMs: (fault.latencyMs ?? 0) + this.latency() };
	}

	/** An API request arrives; `done()` (idempotent) when it is answered or abandoned. */
	enter(): { overCapacity: boolean; done(): void } {
		this.inFlight++;
		this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
		let finished = false;
		return {
			overCapacity: this.inFlight > this.maxConcurrent,
			done: () => {
				if (!finished) this.inFlight--;
				finished = true;
			},
		};
	}

	report(): InFlightReport {
		return {
			inFlight: this.inFlight,
			peakInFlight: this.peakInFlight,
			maxConcurrent: Number.isFinite(this.maxConcurrent) ? this.maxConcurrent : null,
			overCapacity: this.overCapacity,
		};
	}

	/** Starts a new measurement: the peak becomes what is in flight now, the 429 count 0. */
	resetReport(): void {
		this.peakInFlight = this.inFlight;
		this.overCapacity = 0;
	}
}
