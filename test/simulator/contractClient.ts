/** For contract tests: one simulator per file, reset before each test, and a plain HTTP call as any API client makes it. */
import type { SeedOptions } from './seed';
import { startSimulator, type Simulator } from './server';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- contract tests read arbitrary JSON envelopes
export type Envelope = Record<string, any>;

export function useContractSimulator(seed?: SeedOptions) {
	const context = {} as { sim: Simulator };
	beforeAll(async () => {
		context.sim = await startSimulator({ seed });
	});
	afterAll(async () => context.sim.close());
	beforeEach(() => context.sim.reset(seed));

	/** Sends the fields with the token as a query string (GET) or a form body (POST), returns the JSON envelope. */
	async function call(
		path: string,
		fields: Record<string, string> = {},
		method: 'GET' | 'POST' = 'POST',
	): Promise<Envelope> {
		const { sim } = context;
		const all = { apiToken: sim.token, ...fields };
		const response =
			method === 'GET'
				? await fetch(`${sim.url}/api/v1${path}?${new URLSearchParams(all)}`)
				: await fetch(`${sim.url}/api/v1${path}`, {
						method: 'POST',
						body: new URLSearchParams(all),
					});
		return (await response.json()) as Envelope;
	}

	return { context, call };
}
