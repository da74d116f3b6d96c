/**
 * Reliability matrix, part 5: the trigger polled 1,000 times while messages keep arriving, with
 * injected faults and n8n restarts (static data reloaded as persisted): zero lost, zero duplicated.
 */
import { BotSailorTrigger } from '../../nodes/BotSailorTrigger/BotSailorTrigger.node';
import { createPoller } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { addMessage } from '../simulator/control';
import type { FaultKind } from '../simulator/faults';
import { seededRandom } from '../simulator/random';
import { count, flushTally, leaks, newTally, tokenMisplaced } from './checks';
import { NUMBER, numberById } from '../harness/params';

const fx = useSimulator();
const tally = newTally();
const started = Date.now();
afterAll(() => flushTally('triggerSoak', tally, (Date.now() - started) / 1000));

const POLLS = 1_000;
// No `timeout` here: the trigger's programmatic requests use a fixed 60 s client timeout.
const FAULTS: FaultKind[] = [
	'html500',
	'malformed',
	'status0',
	'drop',
	'rate429',
	'unauthorized',
	'redirect',
];

describe('trigger soak: New Message', () => {
	it(`${POLLS} polls with faults and restarts lose and duplicate nothing`, async () => {
		const next = seededRandom(20_260_101);
		const poller = createPoller(
			new BotSailorTrigger(),
			{ event: 'newMessage', phoneNumberId: numberById },
			fx.credentials,
		);
		await poller.poll(); // activation: starts from now
		const subscribers = fx.sim.state.subscribersOf(NUMBER);
		const expected: string[] = [];
		const emitted: string[] = [];
		let failedPolls = 0;
		let restarts = 0;
		let faults = 0;
		let outputLeaks = 0;
		for (let round = 0; round < POLLS; round++) {
			const arriving = Math.floor(next() * 4);
			for (let index = 0; index < arriving; index++) {
				const newcomer = next() < 0.05;
				const phone = newcomer
					? `4477009${String(round).padStart(5, '0')}`
					: subscribers[Math.floor(next() * subscribers.length)].chat_id;
				const message = addMessage(fx.sim.state, {
					phone_number_id: NUMBER,
					phone_number: phone,
					text: `m${round}-${index} 🎉`,
					...(newcomer ? { name: `New ${round}` } : {}),
				});
				expected.push(String(message.wa_message_id));
			}
			if (next() < 0.25) {
				fx.sim.faults.add('*', {
					kind: FAULTS[Math.floor(next() * FAULTS.length)],
					times: 1 + Math.floor(next() * 2),
				});
				faults++;
			}
			if (next() < 0.05) {
				poller.restart();
				restarts++;
			}
			const items = await poller.poll().catch(() => undefined);
			if (items === undefined)
				failedPolls++; // a failed poll saves nothing; the next one catches up
			else emitted.push(...items.map((item) => String(item.json.wa_message_id)));
			if (items && leaks(items, fx.sim.token).length) outputLeaks++;
			fx.sim.faults.clear();
		}
		// Faults cleared: the next polls catch up on whatever the failed ones left.
		for (let extra = 0; extra < 5; extra++)
			emitted.push(...(await poller.poll()).map((item) => String(item.json.wa_message_id)));
		const duplicates = emitted.filter((id, index) => emitted.indexOf(id) !== index);
		const emittedSet = new Set(emitted);
		const lost = expected.filter((id) => !emittedSet.has(id));
		const misplaced = tokenMisplaced(fx.sim.requests);
		count(
			tally,
			`trigger soak (${POLLS} polls, ${faults} faults, ${restarts} restarts, ${failedPolls} failed polls, ${expected.length} messages)`,
			lost.length + duplicates.length + misplaced.length + outputLeaks > 0,
		);
		expect({
			lost: lost.length,
			duplicated: duplicates.length,
			tokenMisplaced: misplaced.length,
			outputLeaks,
		}).toEqual({ lost: 0, duplicated: 0, tokenMisplaced: 0, outputLeaks: 0 });
		expect(emitted).toHaveLength(expected.length);
		expect(failedPolls).toBeGreaterThan(0);
		expect(restarts).toBeGreaterThan(0);
	}, 180_000); // the limit is for a loaded CI machine, not a performance check
});
