/**
 * Reliability matrix, parts 1 and 2: every operation × every injected fault ends as a NodeApiError
 * (or an error item under Continue On Fail) whose description names the operation, never as a
 * success item or an unhandled exception; the API token appears in no error, item or run data, and on the
 * wire only where the API reads it.
 */
import { loadedNode, runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import type { FaultKind } from '../simulator/faults';
import {
	count,
	describedOperations,
	flushTally,
	leaks,
	newTally,
	tokenMisplaced,
	behaviourOf,
} from './checks';
import { catalog, entryName, parametersOf } from '../harness/operations';

const fx = useSimulator();
const tally = newTally();
const started = Date.now();
afterAll(() => flushTally('faults', tally, (Date.now() - started) / 1000));

const nodeType = loadedNode();
/** The client gives up after this long, so the `timeout` fault (no answer ever) fails fast. */
const TIMEOUT_MS = 2_000;

const labels = new Map(
	describedOperations().map((operation) => [
		`${operation.resource}.${operation.operation}`,
		operation.label,
	]),
);
const FAULTS: FaultKind[] = [
	'unauthorized',
	'redirect',
	'html500',
	'rate429',
	'malformed',
	'status0',
	'drop',
	'timeout',
	// Issue 34: a processed request whose 200 answer is cut or empty, and a redirect to another host.
	'processThenTruncated',
	'processThenEmpty',
	'redirectOffsite',
];

/** The problems of one case, and its behaviour (behaviourOf its errors: what a distinct code path did). */
async function runCase(
	entry: (typeof catalog)[number],
	parameters: Record<string, unknown>,
	continueOnFail: boolean,
): Promise<{ problems: string[]; behaviour: string }> {
	const label = labels.get(`${entry.resource}.${entry.operation}`) ?? '';
	const problems: string[] = [];
	let result;
	try {
		result = await runNode({
			nodeType,
			parameters: { ...parameters, requestOptions: { timeout: TIMEOUT_MS } } as never,
			credentials: fx.credentials,
			items: entry.items,
			continueOnFail,
		});
	} catch (error) {
		return {
			problems: [`unhandled exception: ${(error as Error).message}`],
			behaviour: 'unhandled exception',
		};
	}
	const { items, error, run } = result;
	const errors = continueOnFail ? items.map((item) => item.error) : [error];
	if (continueOnFail) {
		if (error) problems.push(`stopped despite Continue On Fail: ${error.message}`);
		if (items.length === 0) problems.push('no error item');
		if (items.some((item) => !item.error || item.json.error === undefined))
			problems.push('a success item');
		if (items.some((item) => item.pairedItem === undefined))
			problems.push('an error item without pairedItem');
	} else if (items.length) problems.push(`${items.length} output item(s)`);
	for (const failure of errors) {
		if (!failure) {
			problems.push('no error');
			continue;
		}
		if (failure.name !== 'NodeApiError') problems.push(`${failure.name} instead of NodeApiError`);
		if (!failure.message || /undefined|\[object/i.test(failure.message))
			problems.push(`unusable message "${failure.message}"`);
		const text = `${failure.message} ${failure.description ?? ''}`;
		if (!text.includes(`BotSailor ${label}`))
			problems.push(`does not name "${label}": ${failure.message} | ${failure.description}`);
		const leaked = leaks(failure, fx.sim.token);
		if (leaked.length) problems.push(`token in error at ${leaked.slice(0, 3).join(', ')}`);
	}
	if (leaks(items, fx.sim.token).length) problems.push('token in output items');
	let runJson = '';
	try {
		runJson = JSON.stringify(run);
	} catch {
		problems.push('run data not serialisable');
	}
	if (runJson.includes(fx.sim.token)) problems.push('token in run data');
	const behaviour = `${continueOnFail ? 'error items' : 'stops'}: ${[...new Set(errors.map((failure) => behaviourOf(failure, `BotSailor ${label}`)))].join(' / ')}`;
	return { problems, behaviour };
}

describe('fault matrix: every operation × every fault, with and without Continue On Fail', () => {
	it.each(FAULTS)('%s', async (kind) => {
		fx.sim.reset();
		const prepared = catalog.map((entry) => [entry, parametersOf(entry, fx.sim)] as const);
		// A 429 that asks to be retried at once: the sends retry it (6 times) without slowing the matrix down.
		fx.sim.faults.add('*', {
			kind,
			message: kind === 'status0' ? 'The platform is under maintenance.' : undefined,
			retryAfterSeconds: kind === 'rate429' ? 0 : undefined,
		});
		// Operations run at once: the fault applies to every path, and the timeouts overlap.
		const outcomes = await Promise.all(
			prepared.flatMap(([entry, parameters]) =>
				[false, true].map(async (continueOnFail) => {
					const { problems, behaviour } = await runCase(entry, parameters, continueOnFail);
					count(tally, `fault matrix (${kind})`, problems.length > 0, behaviour);
					return problems.length
						? `${entryName(entry)}${continueOnFail ? ' [Continue On Fail]' : ''}: ${problems.join('; ')}`
						: undefined;
				}),
			),
		);
		// The token as it left the process: only where the API reads it (checks.ts tokenMisplaced).
		count(
			tally,
			'token on the wire (raw URL, headers and body of every request of a fault run)',
			tokenMisplaced(fx.sim.requests).length > 0,
		);
		expect(fx.sim.requests.length).toBeGreaterThan(0);
		expect(tokenMisplaced(fx.sim.requests)).toEqual([]);
		expect(outcomes.filter(Boolean)).toEqual([]);
	});
});
