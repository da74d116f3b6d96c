/** What the delivery tests share: the simulator's delivery statuses turned on, and a run's worth of Send Text items. */
import { controlRoutes } from '../simulator/control';
import type { Simulator } from '../simulator/server';
import type { DeliveryProgression } from '../simulator/statuses';

/** `POST /__control/<action>` without HTTP, for the control actions that need only the simulator's state. */
export function control(sim: Simulator, action: keyof typeof controlRoutes, input: unknown) {
	return controlRoutes[action]({
		state: sim.state,
		faults: sim.faults,
		requests: sim.requests,
		input,
		reset: () => undefined,
		refuseConnections: () => undefined,
	});
}

/** `POST /__control/delivery-statuses` without HTTP (docs/delivery.md → The simulator's statuses). */
export function deliveryStatuses(sim: Simulator, input: DeliveryProgression & { off?: boolean }) {
	return control(sim, 'delivery-statuses', input);
}

/** `count` Send Text items to numbers 1999000xxxx (none of them seeded), each with its own text. */
export const sendTextItems = (count: number) =>
	Array.from({ length: count }, (_, index) => ({
		json: { phone: `1999000${String(index).padStart(4, '0')}`, text: `Hello ${index}` },
	}));
