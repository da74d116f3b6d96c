/**
 * The pace of the sends (nodes/BotSailor/sending/pace.ts): growth while the platform keeps up, shrinking on 429 and
 * 503 (Retry-After honoured), the ceiling (the credential's Max Sends in Flight), one pace per account that outlives a
 * node run, and idle accounts forgotten. The platform's concurrency cap is the simulator's (SPEC-GAP: the spec shows
 * no rate limit; test/simulator/faults.ts).
 */
import { sendTextNode, sendTextParameters } from '../../bench/sendTextNode';
import { DEFAULT_SENDS_IN_FLIGHT } from '../../nodes/shared/http/credential';
import {
	INITIAL_SENDS_IN_FLIGHT,
	Pace,
	PaceRegistry,
	paces,
	PROBE_EVERY,
} from '../../nodes/BotSailor/sending/pace';
import { runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { NUMBER } from '../harness/params';

const fx = useSimulator();
const bulk = sendTextNode({});
const tool = sendTextNode(false);
const items = (count: number, prefix = '1777000') =>
	Array.from({ length: count }, (_, index) => ({
		json: { phone: `${prefix}${String(index).padStart(4, '0')}`, text: `Hello ${index}` },
	}));

/** The account's pace as the node left it (the harness's credential is cred-1). */
const paceNow = () => paces.paceFor('cred-1', DEFAULT_SENDS_IN_FLIGHT).snapshot();

function deliveredOnce(prefix = '1777000'): { recipients: number; duplicated: number } {
	const counts = new Map<string, number>();
	for (const message of fx.sim.state.messages)
		if (
			message.sender === 'bot' &&
			message.whatsapp_bot_subscriber_subscriber_id.startsWith(prefix)
		)
			counts.set(
				message.whatsapp_bot_subscriber_subscriber_id,
				(counts.get(message.whatsapp_bot_subscriber_subscriber_id) ?? 0) + 1,
			);
	return {
		recipients: counts.size,
		duplicated: [...counts.values()].reduce((sum, count) => sum + count - 1, 0),
	};
}

async function send(
	count: number,
	{
		nodeType = bulk,
		maxSendsInFlight,
		prefix,
	}: { nodeType?: typeof bulk; maxSendsInFlight?: number; prefix?: string } = {},
) {
	return await runNode({
		nodeType,
		credentials: { ...fx.credentials, ...(maxSendsInFlight ? { maxSendsInFlight } : {}) },
		items: items(count, prefix),
		parameters: sendTextParameters(NUMBER) as never,
	});
}

beforeEach(() => paces.clear());

describe('the pace through the engine (bulk path and tool path)', () => {
	it('starts at 6 and grows to the ceiling while the platform keeps up; the next run starts where this one ended', async () => {
		fx.sim.faults.latencyMs = 10;
		fx.sim.faults.resetReport();
		const first = await send(300);
		expect(first.error).toBeUndefined();
		expect(deliveredOnce()).toEqual({ recipients: 300, duplicated: 0 });
		const report = fx.sim.faults.report();
		expect(report.peakInFlight).toBeGreaterThan(INITIAL_SENDS_IN_FLIGHT);
		expect(report.peakInFlight).toBeLessThanOrEqual(DEFAULT_SENDS_IN_FLIGHT);
		expect(paceNow()).toMatchObject({ allowed: DEFAULT_SENDS_IN_FLIGHT, inFlight: 0 });
		// A campaign loops over the node: the next run (here the tool path's) starts at the learned pace. Each answer
		// is held long enough that all of the run's sends are at the platform together even on a loaded machine
		// (a pace that started afresh would still put only INITIAL_SENDS_IN_FLIGHT there).
		fx.sim.faults.latencyMs = 1_000;
		fx.sim.faults.resetReport();
		const second = await send(DEFAULT_SENDS_IN_FLIGHT, { nodeType: tool, prefix: '1777111' });
		expect(second.error).toBeUndefined();
		expect(fx.sim.faults.report().peakInFlight).toBe(DEFAULT_SENDS_IN_FLIGHT);
	});

	it('never goes above the credential’s Max Sends in Flight (the ceiling)', async () => {
		fx.sim.faults.latencyMs = 5;
		fx.sim.faults.resetReport();
		const run = await send(200, { maxSendsInFlight: 9 });
		expect(run.error).toBeUndefined();
		// The guarantee is the ceiling: at most 9 at the platform at once. That the pace grew to it is its own
		// record (allowed: 9); whether 9 sends also overlap at the platform depends on the machine's load.
		expect(fx.sim.faults.report().overCapacity).toBe(0);
		expect(fx.sim.faults.report().peakInFlight).toBeLessThanOrEqual(9);
		expect(paces.paceFor('cred-1', 9).snapshot()).toMatchObject({ allowed: 9, ceiling: 9 });
		// A lower ceiling set later (the credential edited) holds from the next send on.
		fx.sim.faults.resetReport();
		expect((await send(60, { maxSendsInFlight: 3, prefix: '1777222' })).error).toBeUndefined();
		expect(fx.sim.faults.report().peakInFlight).toBeLessThanOrEqual(3);
	});

	it.each([
		['the bulk path', bulk],
		['the tool path', tool],
	])(
		'shrinks to the platform’s room on 429 on %s and delivers every item once',
		async (_path, nodeType) => {
			// Long enough that the sends the pace lets out overlap at the platform on a loaded machine too: its cap
			// counts what it holds at once, and a pace above the cap must meet it.
			fx.sim.faults.latencyMs = 40;
			fx.sim.faults.maxConcurrent = 4;
			fx.sim.faults.resetReport();
			const run = await send(200, { nodeType });
			expect(run.error).toBeUndefined();
			expect(deliveredOnce()).toEqual({ recipients: 200, duplicated: 0 });
			expect(paceNow().allowed).toBe(4);
			// The first batch of 6 meets a cap of 4, then about one probe per PROBE_EVERY answers.
			expect(fx.sim.faults.report().overCapacity).toBeLessThanOrEqual(2 + 200 / PROBE_EVERY + 2);
		},
	);

	it('follows a platform that gets busier during the run: back under the new cap, nothing lost or sent twice', async () => {
		const faults = fx.sim.faults;
		faults.latencyMs = 15;
		faults.maxConcurrent = 20;
		// Once the pace is up, the platform drops to 5 at once. The drop happens as a request reaches the platform, not
		// in this test's polling loop: on a loaded machine that loop woke too late (a CI run at load 8 saw the 600 sends
		// end before it had read the pace at 20). "Back under the cap" is read where it shows, at the platform, in its
		// last 100 requests. (A loaded machine that cannot fill 5 at once meets no refusal at all, and its pace need not
		// shrink: the platform took everything.)
		const enter = faults.enter.bind(faults);
		let dropped = false;
		const refusedAfterDrop: boolean[] = [];
		faults.enter = () => {
			const entered = enter();
			if (dropped) refusedAfterDrop.push(entered.overCapacity);
			else if (paceNow().allowed >= 20) {
				dropped = true;
				faults.maxConcurrent = 5;
				faults.resetReport();
			}
			return entered;
		};
		try {
			expect((await send(600)).error).toBeUndefined();
		} finally {
			faults.enter = enter;
		}
		expect(dropped).toBe(true);
		expect(refusedAfterDrop.length).toBeGreaterThan(200);
		// A pace that does not adapt met 17 in a check (97 in all); an adapted one meets its probes' and, on a loaded
		// machine, the few the platform counts as still in flight a moment after answering them (1 idle, 3 loaded).
		expect(refusedAfterDrop.slice(-100).filter(Boolean).length).toBeLessThan(10);
		expect(deliveredOnce()).toEqual({ recipients: 600, duplicated: 0 });
		// How fast it got back under the cap, counted in the platform's answers: one 429 per request the pace had
		// above the new cap, and a probe now and then. A pace that stayed at 20 for PROBE_EVERY sends would have met
		// about 75 of them.
		expect(faults.report().overCapacity).toBeLessThanOrEqual(
			DEFAULT_SENDS_IN_FLIGHT - 5 + 600 / PROBE_EVERY + 2,
		);
	});

	it('halves on 503 and starts nothing before its Retry-After has passed', async () => {
		fx.sim.faults.latencyMs = 5;
		fx.sim.faults.add('/whatsapp/send', { kind: 'unavailable503', retryAfterSeconds: 1, times: 1 });
		const started = Date.now();
		const run = await send(30);
		expect(run.error).toBeUndefined();
		expect(deliveredOnce()).toEqual({ recipients: 30, duplicated: 0 });
		const answers = fx.sim.requests.filter((request) => request.path === '/whatsapp/send');
		expect(answers).toHaveLength(31);
		// The 503 came first; whatever started after it started a second later.
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
		expect(paceNow().threshold).toBeLessThan(INITIAL_SENDS_IN_FLIGHT);
	});
});

describe('Pace (unit)', () => {
	it('grows by one per answer while the sends fill it, not when they do not', async () => {
		const pace = new Pace(24);
		expect(pace.allowed).toBe(INITIAL_SENDS_IN_FLIGHT);
		await pace.acquire();
		pace.release('ok'); // one send alone: proves nothing about the platform
		expect(pace.allowed).toBe(INITIAL_SENDS_IN_FLIGHT);
		for (let n = 0; n < 6; n++) await pace.acquire();
		pace.release('ok');
		expect(pace.allowed).toBe(INITIAL_SENDS_IN_FLIGHT + 1);
	});

	it('on 429 keeps what is still in flight; then probes once per PROBE_EVERY answers, the step doubling', async () => {
		const pace = new Pace(24);
		for (let n = 0; n < 6; n++) await pace.acquire();
		pace.release('limited'); // 5 still in flight when the platform refused
		expect(pace.allowed).toBe(5);
		pace.release('limited');
		expect(pace.allowed).toBe(4);
		// Full at 4 (4 in flight): PROBE_EVERY answers, then 5; PROBE_EVERY more, then 7.
		const cycle = async () => {
			pace.release('ok');
			await pace.acquire();
		};
		for (let n = 0; n < PROBE_EVERY - 1; n++) await cycle();
		expect(pace.allowed).toBe(4);
		await cycle();
		expect(pace.allowed).toBe(5);
		await pace.acquire(); // fill the new slot
		for (let n = 0; n < PROBE_EVERY; n++) await cycle();
		expect(pace.allowed).toBe(7);
	});

	it('on 503 halves, and pauses every start until Retry-After has passed', async () => {
		const pace = new Pace(24);
		for (let n = 0; n < 6; n++) await pace.acquire();
		const refused = Date.now();
		pace.release('unavailable', 300);
		expect(pace.snapshot()).toMatchObject({ allowed: 3, inFlight: 5 });
		expect(pace.snapshot().pausedUntil).toBeGreaterThanOrEqual(refused + 300);
		for (let n = 0; n < 5; n++) pace.release('ok');
		await pace.acquire();
		expect(Date.now() - refused).toBeGreaterThanOrEqual(295);
		expect(pace.snapshot()).toMatchObject({ inFlight: 1, pausedUntil: 0 });
	});

	it('fixed (not adaptive) stays at the ceiling, as earlier versions did', async () => {
		const pace = new Pace(6, false);
		for (let n = 0; n < 6; n++) await pace.acquire();
		pace.release('limited');
		expect(pace.allowed).toBe(6);
	});

	it('never grows above the ceiling, and a lowered ceiling holds at once', async () => {
		const pace = new Pace(8);
		for (let round = 0; round < 50; round++) {
			while (pace.snapshot().inFlight < pace.allowed) await pace.acquire();
			pace.release('ok');
		}
		expect(pace.allowed).toBe(8);
		pace.setCeiling(3);
		expect(pace.allowed).toBe(3);
	});
});

describe('PaceRegistry: per account, bounded, idle accounts forgotten', () => {
	it('keeps one pace per account and forgets an account idle for idleMs', async () => {
		let now = 0;
		const registry = new PaceRegistry({ idleMs: 60_000, maxAccounts: 10, now: () => now });
		const a = registry.paceFor('a', 24);
		expect(registry.paceFor('a', 24)).toBe(a);
		expect(registry.paceFor('b', 24)).not.toBe(a);
		await a.acquire();
		now += 120_000;
		registry.paceFor('c', 24);
		// b was idle for 2 minutes: forgotten; a still has a send in flight: kept.
		expect([registry.has('a'), registry.has('b'), registry.has('c')]).toEqual([true, false, true]);
		a.release('ok');
		now += 120_000;
		registry.paceFor('c', 24);
		expect(registry.has('a')).toBe(false);
		// A forgotten account starts afresh.
		expect(registry.paceFor('a', 24).allowed).toBe(INITIAL_SENDS_IN_FLIGHT);
	});

	it('holds at most maxAccounts, dropping the idle ones longest unused', () => {
		let now = 0;
		const registry = new PaceRegistry({ idleMs: 3_600_000, maxAccounts: 3, now: () => now });
		for (const account of ['a', 'b', 'c']) {
			registry.paceFor(account, 24);
			now += 10;
		}
		registry.paceFor('a', 24); // used again: now the most recent
		registry.paceFor('d', 24);
		expect(registry.size).toBe(3);
		expect(['a', 'b', 'c', 'd'].map((account) => registry.has(account))).toEqual([
			true,
			false,
			true,
			true,
		]);
	});
});
