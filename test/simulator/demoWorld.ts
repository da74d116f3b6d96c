/**
 * The demo's world (npm run demo): the seed on the real clock with WhatsApp's 24-hour window enforced, some
 * customers who wrote within the last 24 hours (free-form sends reach them) and some who did not (only templates
 * do), so that Get Window Status and the window's choices can be seen.
 */
import { controlRoutes } from './control';
import type { SeedOptions } from './seed';
import { lastIncomingAt, type SimState } from './state';

/** The seed options of the demo: the real clock, and customers with names of their own. */
export const DEMO_SEED: SeedOptions = { realClock: true, distinctNames: true };

export interface DemoCustomer {
	phone_number: string;
	name: string;
	/** When they last wrote, in hours before the start. */
	hoursAgo: number;
}

/** Who wrote when (the first WhatsApp number): the story customers inside the window, the next one outside. */
const LAST_WROTE: Array<[phoneNumber: string, hoursAgo: number]> = [
	['15550100001', 0.1],
	['15550100002', 2],
	['15550100003', 5],
	['15550100004', 30],
	['15550100005', 72],
];

/**
 * Enforces the window and moves the customers' last messages; answers who is inside and who is outside. A world kept
 * from an earlier run (`kept`) is only described: its conversations stay as they were.
 */
export function prepareDemoWorld(
	state: SimState,
	{ kept = false } = {},
): {
	inside: DemoCustomer[];
	outside: DemoCustomer[];
} {
	state.sessionWindow = 'enforced';
	const numberId = state.bots[0].phone_number_id;
	const customers = LAST_WROTE.map(([phoneNumber, seededHoursAgo]) => {
		if (!kept)
			controlRoutes.window({
				state,
				input: { phone_number: phoneNumber, hours_ago: seededHoursAgo },
			} as Parameters<(typeof controlRoutes)['window']>[0]);
		const subscriber = state.subscriber(numberId, phoneNumber)!;
		const last = lastIncomingAt(state, numberId, phoneNumber);
		const hoursAgo = !kept
			? seededHoursAgo
			: last === undefined
				? Infinity
				: Math.round((state.clock - Date.parse(`${last.replace(' ', 'T')}Z`)) / 360_000) / 10;
		return {
			phone_number: phoneNumber,
			name: `${subscriber.first_name} ${subscriber.last_name}`,
			hoursAgo,
		};
	});
	return {
		inside: customers.filter((customer) => customer.hoursAgo < 24),
		outside: customers.filter((customer) => customer.hoursAgo >= 24),
	};
}
