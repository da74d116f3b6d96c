/** One simulator per test file, reset before each test, with credentials that point at it. */
import { startSimulator, type Simulator, type SimulatorOptions } from '../simulator/server';
import type { TestCredentials } from './harness';
import { paces } from '../../nodes/BotSailor/sending/pace';

export interface Fixture {
	sim: Simulator;
	credentials: TestCredentials;
}

export function useSimulator(options: SimulatorOptions = {}): Fixture {
	const fixture = {} as Fixture;
	beforeAll(async () => {
		fixture.sim = await startSimulator(options);
		fixture.credentials = {
			baseUrl: fixture.sim.url,
			apiToken: fixture.sim.token,
			apiForm: 'current',
		};
	});
	beforeEach(() => {
		fixture.sim.reset(options.seed);
		// Each test starts as a fresh n8n process would: the sends' pace per account at its start (pace.ts).
		paces.clear();
	});
	afterAll(async () => await fixture.sim?.close());
	return fixture;
}
