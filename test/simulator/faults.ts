/** Fault injection: per path (or every path with '*'), a number of times or forever, plus a concurrency cap. */

export type FaultKind = 'none' | 'html500' | 'unavailable503' | 'malformed' | 'drop' | 'timeout' | 'rate429' | 'status0' | 'unauthorized' | 'redirect';

export interface Fault {
	kind: FaultKind;
	/** Delay before answering (alone with kind 'none', or before the fault). */
	latencyMs?: number;
	/** Text of a status0 failure. */
	message?: string;
	/** How many requests it applies to; undefined = until cleared. */
	times?: number;
}

export class Faults {
	private rules: Array<{ path: string; fault: Fault }> = [];
	/** Requests above this many in flight are answered 429. */
	maxConcurrent = Infinity;
	/** Extra latency for every request. */
	latencyMs = 0;
	inFlight = 0;
	peakInFlight = 0;

	add(path: string, fault: Fault): void {
		this.rules.push({ path, fault: { ...fault } });
	}

	clear(): void {
		this.rules = [];
		this.maxConcurrent = Infinity;
		this.latencyMs = 0;
	}

	/** The fault for this request, consuming one use of it. */
	take(path: string): Fault | undefined {
		const index = this.rules.findIndex((rule) => rule.path === path || rule.path === '*');
		if (index < 0) return this.latencyMs ? { kind: 'none', latencyMs: this.latencyMs } : undefined;
		const { fault } = this.rules[index];
		if (fault.times !== undefined && --fault.times <= 0) this.rules.splice(index, 1);
		return { ...fault, latencyMs: (fault.latencyMs ?? 0) + this.latencyMs };
	}

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
}
