import { sleep } from 'n8n-workflow';
import { boundedMemory } from '../../shared/parameters/boundedMemory';

/**
 * The pace of the sends to one account: how many requests may be in flight at once, learned from the platform's
 * answers. Nobody knows a platform's limit in advance (the spec shows none), so the pace starts where the node has
 * always been safe and follows what the platform says:
 *
 * - **start** at INITIAL_SENDS_IN_FLIGHT (6, the fixed number of earlier versions), never above the ceiling (the
 *   credential's Max Sends in Flight);
 * - **grow fast** (one more per answer, so doubling per round trip) while nothing was refused yet, up to the
 *   ceiling or the level of the last refusal;
 * - **probe** above a level the platform once refused only after PROBE_EVERY answers without a refusal, one step
 *   at a time (the step doubles while probes succeed, so a platform that got more room is found quickly): a probe
 *   costs at most one 429, so the 429s stay near 1/PROBE_EVERY of the requests;
 * - **shrink at once** on a 429 to what is still in flight (the platform refused while that many of ours were on
 *   the wire: that is its room for us), on a 503 to half; honour Retry-After by starting nothing for that account
 *   until it has passed;
 * - grow only when the sends fill the pace (a single send every now and then proves nothing about the platform).
 *
 * Each account's pace is shared by every execution and tool call of this n8n process (module-level), survives
 * from one node run to the next, and is forgotten when the account was idle for IDLE_MS; at most MAX_ACCOUNTS are
 * kept (the idle ones longest unused go first).
 */

/** Where a pace starts: the fixed Max Sends in Flight of earlier versions, safe on every platform seen so far. */
export const INITIAL_SENDS_IN_FLIGHT = 6;
/** Answers without a refusal before a probe above a level the platform once refused (≈ 1 % of requests as 429). */
export const PROBE_EVERY = 100;
/** An account without a send for this long starts afresh. */
export const IDLE_MS = 10 * 60_000;
/** Paces kept at most (accounts); beyond, the idle ones longest unused are forgotten. */
export const MAX_ACCOUNTS = 1_000;
/** Longest pause for a Retry-After (a longer one fails the send as not sent anyway, delivery.ts). */
const MAX_PAUSE_MS = 30_000;

/** What an answer says about the pace: fine, 429 (too many at once), 503 (unavailable), or nothing (other failures). */
export type PaceSignal = 'ok' | 'limited' | 'unavailable' | 'none';

export interface PaceSnapshot {
	/** Requests allowed in flight now. */
	allowed: number;
	/** The ceiling (the credential's Max Sends in Flight). */
	ceiling: number;
	/** In flight now, and waiting for a slot. */
	inFlight: number;
	waiting: number;
	/** The level below which the pace grows fast (the last refusal's level, or the ceiling). */
	threshold: number;
	/** Whether it adapts (false: fixed at the ceiling). */
	adaptive: boolean;
	/** No request starts before this time (Retry-After), epoch ms; 0 when there is none. */
	pausedUntil: number;
}

export class Pace {
	/** The allowed number in flight, fractional while it grows (see `allowed`). */
	private limit: number;
	/** Below it the pace grows fast; at or above it, it probes. */
	private threshold: number;
	private step = 1;
	private sinceChange = 0;
	private active = 0;
	private readonly queue: Array<() => void> = [];
	private pausedUntil = 0;
	private pauseTimer = false;
	lastUsed: number;

	constructor(
		private ceiling: number,
		readonly adaptive = true,
		private readonly now: () => number = Date.now,
	) {
		this.limit = adaptive ? Math.min(INITIAL_SENDS_IN_FLIGHT, ceiling) : ceiling;
		this.threshold = ceiling;
		this.lastUsed = now();
	}

	/** Requests that may be in flight now: at least 1, at most the ceiling. */
	get allowed(): number {
		return Math.max(1, Math.min(this.ceiling, Math.floor(this.limit)));
	}

	get idle(): boolean {
		return this.active === 0 && this.queue.length === 0;
	}

	/** The credential's Max Sends in Flight may change between runs: the pace stays at or under it. */
	setCeiling(ceiling: number): void {
		if (ceiling === this.ceiling) return;
		this.ceiling = ceiling;
		if (!this.adaptive) this.limit = ceiling;
		this.limit = Math.min(this.limit, ceiling);
		this.threshold = Math.min(this.threshold, ceiling);
		this.pump();
	}

	/** Waits for a slot; `first` (a retry) goes before the sends that have not started yet. */
	async acquire(first = false): Promise<void> {
		this.lastUsed = this.now();
		if (this.queue.length === 0 && this.active < this.allowed && !this.paused()) {
			this.active++;
			return;
		}
		// pump() counts the slot as taken before it wakes the waiter.
		await new Promise<void>((resolve) => {
			if (first) this.queue.unshift(resolve);
			else this.queue.push(resolve);
			this.pump();
		});
	}

	/** Gives the slot back with what the answer said; `retryAfterMs` from a 429 or 503 pauses the account. */
	release(signal: PaceSignal, retryAfterMs?: number): void {
		const saturated = this.active + this.queue.length >= this.allowed;
		this.active--;
		this.lastUsed = this.now();
		if (this.adaptive) this.adapt(signal, saturated);
		if (
			(signal === 'limited' || signal === 'unavailable') &&
			retryAfterMs !== undefined &&
			Number.isFinite(retryAfterMs) &&
			retryAfterMs > 0
		)
			this.pausedUntil = Math.max(
				this.pausedUntil,
				this.now() + Math.min(retryAfterMs, MAX_PAUSE_MS),
			);
		this.pump();
	}

	snapshot(): PaceSnapshot {
		return {
			allowed: this.allowed,
			ceiling: this.ceiling,
			inFlight: this.active,
			waiting: this.queue.length,
			threshold: this.threshold,
			adaptive: this.adaptive,
			pausedUntil: this.paused() ? this.pausedUntil : 0,
		};
	}

	private adapt(signal: PaceSignal, saturated: boolean): void {
		// What is still in flight of ours when the platform refused: the room it has for us now.
		const others = this.active;
		if (signal === 'limited') {
			const before = this.allowed;
			this.limit = Math.max(1, Math.min(before - 1, others));
			this.threshold = Math.max(this.limit, Math.floor(before / 2));
			this.step = 1;
			this.sinceChange = 0;
		} else if (signal === 'unavailable') {
			this.limit = Math.max(1, Math.min(others, Math.floor(this.allowed / 2)));
			this.threshold = this.limit;
			this.step = 1;
			this.sinceChange = 0;
		} else if (signal === 'ok' && saturated && this.limit < this.ceiling) {
			if (this.limit < this.threshold) {
				this.limit = Math.min(this.limit + 1, this.threshold);
			} else if (++this.sinceChange >= PROBE_EVERY) {
				this.limit = Math.min(this.ceiling, this.allowed + this.step);
				this.threshold = this.limit;
				this.step *= 2;
				this.sinceChange = 0;
			}
		}
	}

	private paused(): boolean {
		return this.pausedUntil > this.now();
	}

	/** Hands free slots to waiters in order; while paused, comes back when the pause ends. */
	private pump(): void {
		if (this.paused()) {
			if (!this.pauseTimer && this.queue.length > 0) {
				this.pauseTimer = true;
				void sleep(this.pausedUntil - this.now()).then(() => {
					this.pauseTimer = false;
					this.pump();
				});
			}
			return;
		}
		while (this.queue.length > 0 && this.active < this.allowed) {
			this.active++;
			this.queue.shift()!();
		}
	}
}

/** The paces of the accounts of this process, bounded and forgetting idle accounts. */
export class PaceRegistry {
	private readonly paces = new Map<string, Pace>();
	private lastSweep = 0;

	constructor(
		private readonly options: { idleMs: number; maxAccounts: number; now: () => number } = {
			idleMs: IDLE_MS,
			maxAccounts: MAX_ACCOUNTS,
			now: Date.now,
		},
	) {}

	/** The account's pace, created at INITIAL_SENDS_IN_FLIGHT under `ceiling`, or the one it has. */
	paceFor(account: string, ceiling: number, adaptive = true): Pace {
		const key = `${account}\u0000${adaptive ? 'adaptive' : 'fixed'}`;
		this.forgetIdle();
		let pace = this.paces.get(key);
		if (!pace) {
			pace = new Pace(ceiling, adaptive, this.options.now);
			this.paces.set(key, pace);
			this.evictBeyondBound();
		} else {
			pace.setCeiling(ceiling);
			// Most recently used last: Map keeps insertion order.
			this.paces.delete(key);
			this.paces.set(key, pace);
		}
		return pace;
	}

	get size(): number {
		return this.paces.size;
	}

	has(account: string, adaptive = true): boolean {
		return this.paces.has(`${account}\u0000${adaptive ? 'adaptive' : 'fixed'}`);
	}

	clear(): void {
		this.paces.clear();
	}

	private forgetIdle(): void {
		const now = this.options.now();
		// At most one sweep a second: a campaign asks for its pace on every send.
		if (now - this.lastSweep < 1_000) return;
		this.lastSweep = now;
		for (const [key, pace] of this.paces)
			if (pace.idle && now - pace.lastUsed >= this.options.idleMs) this.paces.delete(key);
	}

	private evictBeyondBound(): void {
		for (const [key, pace] of this.paces) {
			if (this.paces.size <= this.options.maxAccounts) return;
			if (pace.idle) this.paces.delete(key);
		}
	}
}

/** The process's paces: one per account (credential), shared by every execution and tool call. */
export const paces = new PaceRegistry();

/**
 * Meta's pair rate limit (error 131056: too many messages to one customer in a short time) is about one business and
 * customer pair, not the account: after it, sends to that customer wait their cooldown, outside the account's pace,
 * while the sends to everyone else go on at the account's pace (n8n's own WhatsApp agent channel keeps a
 * per-recipient cooldown for it too). Meta allows about one message every 6 s to the same customer: the cooldown
 * starts there and doubles while the customer keeps answering 131056, up to PAIR_COOLDOWN_MAX_MS.
 */
export const PAIR_COOLDOWN_MS = 6_000;
const PAIR_COOLDOWN_MAX_MS = 60_000;
/** Customers kept at most; beyond, the ones hit longest ago go first. */
export const MAX_COOLDOWNS = 10_000;
/**
 * A customer's entry matters until its cooldown can no longer double (its cooldown again after it ended): at most
 * twice the longest cooldown after the hit.
 */
export const COOLDOWN_KEPT_MS = 2 * PAIR_COOLDOWN_MAX_MS;

export class RecipientCooldowns {
	// Keys carry the recipient as typed: the bytes bound holds whatever a workflow puts there.
	private readonly until = boundedMemory<string, { until: number; ms: number }>({
		maxEntries: MAX_COOLDOWNS,
		maxBytes: 4_000_000,
		ttlMs: COOLDOWN_KEPT_MS,
	});

	constructor(private readonly now: () => number = Date.now) {}

	/** How long a send to this customer of this account must still wait, in ms (0: none). */
	remaining(account: string, recipient: string): number {
		const entry = this.until.get(`${account}\u0000${recipient}`, this.now());
		return entry ? Math.max(0, entry.until - this.now()) : 0;
	}

	/** The customer answered 131056: their next send waits the cooldown (doubled when the last one had not long ended). */
	hit(account: string, recipient: string): void {
		const key = `${account}\u0000${recipient}`;
		const now = this.now();
		const last = this.until.get(key, now);
		const ms =
			last && now - last.until < last.ms
				? Math.min(PAIR_COOLDOWN_MAX_MS, last.ms * 2)
				: PAIR_COOLDOWN_MS;
		// The newest hit is the newest entry: the oldest hit goes first.
		this.until.set(key, { until: now + ms, ms }, now);
	}

	get size(): number {
		return this.until.size;
	}

	clear(): void {
		this.until.clear();
	}
}

/** The process's pair cooldowns: per account and customer, shared by every execution and tool call. */
export const cooldowns = new RecipientCooldowns();
