/**
 * Reliability matrix, parts 0, 2 and 3: the catalog covers every operation; every operation
 * succeeds with its catalog parameters without the token appearing anywhere; every generated invalid
 * value is refused naming the parameter with zero requests; every valid edge value arrives as is.
 */
import { NodeApiError } from 'n8n-workflow';
import { RESOURCES } from '../../nodes/BotSailor/resources';
import { operationLabel } from '../../nodes/shared/parameters/operationLabel';
import { runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import {
	count,
	describedOperations,
	flushTally,
	leaks,
	newTally,
	tokenMisplaced,
	behaviourOf,
} from './checks';
import { catalog, entryName, FROM_ITEM, parametersOf, withValue } from '../harness/operations';

const fx = useSimulator();
const tally = newTally();
const started = Date.now();
afterAll(() => flushTally('catalog', tally, (Date.now() - started) / 1000));

const described = describedOperations();

describe('operation catalog', () => {
	it('has an entry for every operation of the node description, and none that does not exist', () => {
		const key = (entry: { resource: string; operation: string }) =>
			`${entry.resource}.${entry.operation}`;
		const catalogued = new Set(catalog.map(key));
		expect(described.map(key).filter((name) => !catalogued.has(name))).toEqual([]);
		const existing = new Set(described.map(key));
		expect([...catalogued].filter((name) => !existing.has(name))).toEqual([]);
		// As many as the resources' records hold (what the description is built from): the walk missed none.
		expect(described.length).toBe(RESOURCES.flatMap((resource) => resource.operations).length);
	});

	it('names every parameter it fuzzes by a display name the operation really shows', () => {
		const wrong = catalog.flatMap((entry) => {
			const names =
				described.find(
					(operation) =>
						operation.resource === entry.resource && operation.operation === entry.operation,
				)?.parameterNames ?? new Set();
			return entry.cases
				.filter((cases) => !names.has(cases.parameter))
				.map((cases) => `${entryName(entry)}: ${cases.parameter}`);
		});
		expect(wrong).toEqual([]);
	});

	it("labels errors with the operation's display names (shared operationLabel matches the description)", () => {
		const mismatched = described
			.map((operation) => ({
				want: operation.label,
				got: operationLabel({
					parameters: { resource: operation.resource, operation: operation.operation },
				}),
			}))
			.filter(({ want, got }) => want !== got);
		expect(mismatched).toEqual([]);
	});
});

describe('every operation succeeds with its catalog parameters, and the token appears nowhere', () => {
	it.each(catalog.map((entry) => [entryName(entry), entry] as const))(
		'%s',
		async (_name, entry) => {
			fx.sim.reset();
			const { items, error } = await runNode({
				parameters: parametersOf(entry, fx.sim),
				credentials: fx.credentials,
				items: entry.items,
			});
			const problems: string[] = [];
			if (error) problems.push(`failed: ${error.message}`);
			if (items.length === 0 && !['note.getMany'].includes(`${entry.resource}.${entry.operation}`))
				problems.push('no output items');
			if (items.some((item) => item.json.error !== undefined)) problems.push('error item');
			if (fx.sim.requests[0]?.path !== entry.endpoint)
				problems.push(`first request to ${fx.sim.requests[0]?.path}, expected ${entry.endpoint}`);
			const leaked = [...leaks(items, fx.sim.token), ...tokenMisplaced(fx.sim.requests)];
			if (leaked.length) problems.push(`token in ${leaked.join(', ')}`);
			if (fx.sim.requests.some((request) => 'apiToken' in request.body))
				problems.push('apiToken recorded in body fields');
			count(tally, 'success (token secrecy)', problems.length > 0);
			expect(problems).toEqual([]);
		},
	);
});

const invalidCases = catalog.flatMap((entry) =>
	entry.cases.flatMap((cases) =>
		cases.invalid.map(
			(invalid) =>
				[
					`${entryName(entry)} → ${cases.parameter}: ${invalid.why}`,
					entry,
					cases,
					invalid,
				] as const,
		),
	),
);

describe('bad input: refused before any request, naming the parameter', () => {
	it(`${invalidCases.length} invalid values across every operation`, async () => {
		const failures: string[] = [];
		for (const [name, entry, cases, invalid] of invalidCases) {
			fx.sim.clearRequests();
			const parameters = withValue(
				{ ...parametersOf(entry, fx.sim), ...cases.extra },
				cases.path,
				FROM_ITEM,
			);
			const items = [{ json: { v: invalid.value as string }, binary: entry.items?.[0]?.binary }];
			const name_ = cases.says ?? cases.parameter;
			const problems: string[] = [];
			// Continue On Fail shows the node's own error as is: a NodeOperationError naming the parameter.
			const soft = await runNode({
				parameters,
				credentials: fx.credentials,
				items,
				continueOnFail: true,
			});
			const itemError = soft.items[0]?.error;
			if (!itemError) problems.push(`accepted (${soft.items.length} items)`);
			else {
				if (itemError.name !== 'NodeOperationError')
					problems.push(`${itemError.name}: ${itemError.message}`);
				if (!itemError.message.startsWith(name_))
					problems.push(`message "${itemError.message}" does not start with "${name_}"`);
				if (invalid.says && !invalid.says.test(itemError.message))
					problems.push(`message "${itemError.message}" does not say ${String(invalid.says)}`);
				if (soft.items[0].pairedItem === undefined) problems.push('error item without pairedItem');
			}
			// Without it, RoutingNode rethrows every rejected item as a NodeApiError with the same message.
			const hard = await runNode({ parameters, credentials: fx.credentials, items });
			if (!hard.error) problems.push('accepted without Continue On Fail');
			else if (!hard.error.message.startsWith(name_))
				problems.push(`stopping error "${hard.error.message}" does not start with "${name_}"`);
			if ([itemError, hard.error].some((error) => leaks(error, fx.sim.token).length))
				problems.push('token in error');
			if (fx.sim.requests.length) problems.push(`${fx.sim.requests.length} request(s) sent`);
			count(tally, 'bad input', problems.length > 0, behaviourOf(itemError, name_));
			if (problems.length)
				failures.push(
					`${name} (${JSON.stringify(invalid.value).slice(0, 30)}): ${problems.join('; ')}`,
				);
		}
		expect(failures).toEqual([]);
	});
});

const edgeCases = catalog.flatMap((entry) =>
	entry.cases.flatMap((cases) =>
		(cases.edge ?? []).map(
			(edge) =>
				[`${entryName(entry)} → ${cases.parameter}: ${edge.why}`, entry, cases, edge] as const,
		),
	),
);

describe('valid edge values: sent byte-for-byte', () => {
	it(`${edgeCases.length} edge values across every operation`, async () => {
		const failures: string[] = [];
		for (const [name, entry, cases, edge] of edgeCases) {
			fx.sim.reset();
			const parameters = withValue(
				{ ...parametersOf(entry, fx.sim), ...cases.extra },
				cases.path,
				FROM_ITEM,
			);
			const items = [{ json: { v: edge.value as string }, binary: entry.items?.[0]?.binary }];
			const { error } = await runNode({ parameters, credentials: fx.credentials, items });
			const problems: string[] = [];
			// The platform may refuse the value (an unknown phone number, say); the node must not.
			if (error && !(error.name === 'NodeApiError' || (error as unknown) instanceof NodeApiError))
				problems.push(`${error.name}: ${error.message}`);
			const request = fx.sim.requests.find((entry) => edge.field in entry.body);
			const sent = request?.body[edge.field];
			if (sent !== edge.sent)
				problems.push(
					`sent ${JSON.stringify(sent)?.slice(0, 60)} (${String(sent).length} chars), expected ${JSON.stringify(edge.sent).slice(0, 60)} (${edge.sent.length} chars)`,
				);
			count(tally, 'edge values', problems.length > 0);
			if (problems.length) failures.push(`${name}: ${problems.join('; ')}`);
		}
		expect(failures).toEqual([]);
	});
});
