/**
 * Reliability matrix, part 4: 200-item batches mixing valid inputs, bad inputs and injected faults,
 * under Continue On Fail: every good item succeeds, every bad or faulted one is an error item, and
 * each output's pairedItem points at its own input.
 */
import type { INodeParameters } from 'n8n-workflow';
import { runNode } from '../harness/harness';
import { addSubscribers } from '../simulator/control';
import { useSimulator } from '../harness/simulatorFixture';
import type { FaultKind } from '../simulator/faults';
import { count, flushTally, leaks, newTally } from './checks';
import { byPhone, NUMBER, numberFromList } from '../harness/params';

const fx = useSimulator();
const tally = newTally();
const started = Date.now();
afterAll(() => flushTally('batch', tally, (Date.now() - started) / 1000));

const SIZE = 200;
/** Faults that are never retried (the platform answered, or, for a write, the connection dropped), 5 of each. */
const FAULTS: FaultKind[] = ['status0', 'html500', 'malformed', 'drop'];
/** A read repeats a dropped connection (transport.ts, retryRead): those items succeed, at one request more each. */
const RETRIED_BY_READS: FaultKind[] = ['drop'];
const PER_FAULT = 5;
const isBad = (index: number) => index % 7 === 3;

const batches: Array<[string, INodeParameters, string, RegExp, 'read' | 'write']> = [
	[
		'Message → Send Text',
		{
			resource: 'message',
			operation: 'sendText',
			phoneNumberId: numberFromList,
			phoneNumber: '={{ $json.phone }}',
			message: '={{ $json.text }}',
		},
		'/whatsapp/send',
		/^Subscriber /,
		'write',
	],
	[
		'Subscriber → Add Labels',
		{
			resource: 'subscriber',
			operation: 'addLabels',
			phoneNumberId: numberFromList,
			subscriber: byPhone('={{ $json.phone }}'),
			labelIds: ['32'],
		},
		'/whatsapp/subscriber/chat/assign-labels',
		/^Subscriber /,
		'write',
	],
	[
		'Subscriber → Get',
		{
			resource: 'subscriber',
			operation: 'get',
			phoneNumberId: numberFromList,
			subscriber: byPhone('={{ $json.phone }}'),
		},
		'/whatsapp/subscriber/get',
		/^Subscriber /,
		'read',
	],
];

describe(`batches of ${SIZE} items with bad inputs and injected faults, Continue On Fail`, () => {
	it.each(batches)('%s', async (_name, parameters, endpoint, badMessage, kind) => {
		const failing = FAULTS.filter((fault) => kind === 'write' || !RETRIED_BY_READS.includes(fault));
		const repeated = (FAULTS.length - failing.length) * PER_FAULT;
		for (const fault of FAULTS)
			fx.sim.faults.add(endpoint, { kind: fault, times: PER_FAULT, message: 'Injected failure.' });
		// Existing subscribers, so the subscriber operations find each one.
		addSubscribers(fx.sim.state, { phone_number_id: NUMBER, count: SIZE });
		const phones = fx.sim.state
			.subscribersOf(NUMBER)
			.map((subscriber) => subscriber.chat_id)
			.slice(0, SIZE);
		const items = phones.map((phone, index) => ({
			json: { phone: isBad(index) ? `+1 555 CALL ${index}` : phone, text: `Hello ${index} 👋` },
		}));
		const { items: output, error } = await runNode({
			parameters,
			credentials: fx.credentials,
			items,
			continueOnFail: true,
		});
		const problems: string[] = [];
		if (error) problems.push(`stopped: ${error.message}`);
		if (output.length !== SIZE) problems.push(`${output.length} outputs for ${SIZE} inputs`);
		const paired = output.map((item) => (item.pairedItem as { item?: number } | undefined)?.item);
		if (paired.some((item, index) => item !== index))
			problems.push(
				`pairedItem does not map outputs to inputs: ${JSON.stringify(paired.slice(0, 12))}…`,
			);
		const good = output.filter((item, index) => !isBad(index) && !item.error);
		const faulted = output.filter((item, index) => !isBad(index) && item.error);
		output.forEach((item, index) => {
			if (
				isBad(index) &&
				!(
					item.error &&
					badMessage.test(item.error.message) &&
					item.error.name === 'NodeOperationError'
				)
			)
				problems.push(`bad item ${index} not refused: ${item.error?.message ?? 'succeeded'}`);
		});
		// Exactly the injected faults fail good items; every other good item got through.
		if (faulted.length !== failing.length * PER_FAULT)
			problems.push(
				`${faulted.length} good items failed, ${failing.length * PER_FAULT} faults fail an item: ${faulted
					.slice(0, 3)
					.map((item) => item.error?.message)
					.join(' | ')}`,
			);
		const valid = items.filter((_, index) => !isBad(index)).length;
		if (good.length !== valid - failing.length * PER_FAULT)
			problems.push(`${good.length} successes`);
		if (faulted.some((item) => !/BotSailor .* failed/.test(String(item.error?.description))))
			problems.push('a faulted item does not name the operation');
		const sentPhones = fx.sim.requests.map((request) => request.body.phone_number);
		if (sentPhones.length !== valid + repeated)
			problems.push(
				`${sentPhones.length} requests for ${valid} valid items and ${repeated} repeated reads`,
			);
		if (kind === 'write' && new Set(sentPhones).size !== sentPhones.length)
			problems.push('a write was sent twice');
		if (new Set(sentPhones).size !== valid)
			problems.push(`${new Set(sentPhones).size} subscribers asked for, ${valid} valid items`);
		if (leaks(output, fx.sim.token).length) problems.push('token in output');
		count(tally, 'batches (200 items)', problems.length > 0);
		expect(problems).toEqual([]);
	});
});
