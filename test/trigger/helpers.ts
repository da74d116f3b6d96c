import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { BotSailorTrigger } from '../../nodes/BotSailorTrigger/BotSailorTrigger.node';
import { createPoller, type Poller } from '../harness/harness';
import type { Fixture } from '../harness/simulatorFixture';
import { byId, NUMBER } from '../harness/params';

/** The trigger's WhatsApp Number field, typed By ID (NUMBER unless told). */
export function numberParam(value = NUMBER) {
	return byId(value);
}

/** A poller for the trigger against the fixture's simulator. */
export function triggerPoller(fx: Fixture, parameters: INodeParameters): Poller {
	return createPoller(new BotSailorTrigger(), parameters, fx.credentials);
}

/** Runs one poll and returns the emitted JSON plus the number of requests the simulator received. */
export async function pollCounting(
	fx: Fixture,
	poller: Poller,
	mode: 'trigger' | 'manual' = 'trigger',
) {
	const before = fx.sim.requests.length;
	const items = await poller.poll(mode);
	return {
		json: items.map((item) => item.json as IDataObject),
		requests: fx.sim.requests.length - before,
	};
}

export function snapshot(poller: Poller): IDataObject {
	return JSON.parse(JSON.stringify(poller.staticData())) as IDataObject;
}
