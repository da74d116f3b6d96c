import type { INode } from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../../shared/http/credential';

/** A counting semaphore: at most `max` holders, the rest wait in arrival order (Download Media's downloads). */
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

/** One fixed limiter per account and size, module-level (Download Media: a few downloads at a time). */
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
