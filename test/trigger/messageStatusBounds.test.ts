import { addMessage, setMessageStatus } from '../simulator/control';
import { useSimulator } from '../harness/simulatorFixture';
import {
	DELIVERED_FOR_HOURS,
	EVERY_POLL_MINUTES,
	MAX_AGE_DAYS,
} from '../../nodes/BotSailorTrigger/events/messageStatusChanged';
import type { Poller } from '../harness/harness';
import { numberParam, pollCounting, triggerPoller } from './helpers';
import { NUMBER } from '../harness/params';

/** Message Status Changed when nothing happens: what following many messages costs, and for how long. */
const fx = useSimulator();
const params = {
	event: 'messageStatusChanged',
	phoneNumberId: numberParam(),
	statuses: ['delivered', 'read', 'failed'],
};
const MINUTE = 60_000;

/** The n8n host's clock, moved on by the test. */
let offset = 0;
const realNow = Date.now;
beforeEach(() => {
	offset = 0;
	jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
});
afterEach(() => jest.restoreAllMocks());
const later = (minutes: number) => void (offset += minutes * MINUTE);

const tracked = (poller: Poller) =>
	(
		poller.staticData()['node:BotSailor Trigger'] as {
			state: { tracked: Array<{ waMessageId: string; status: string }> };
		}
	).state.tracked;

/** 100 outgoing messages to 100 subscribers, all delivered and reported; the poller idle afterwards. */
async function hundredDelivered() {
	const poller = triggerPoller(fx, params);
	await poller.poll();
	const subscribers = fx.sim.state.subscribersOf(NUMBER).slice(0, 100);
	const sent = subscribers.map((subscriber) =>
		addMessage(fx.sim.state, {
			phone_number: subscriber.chat_id,
			text: 'Your order shipped',
			sender: 'bot',
		}),
	);
	await poller.poll();
	await poller.poll(); // re-checks the subscribers active in the previous poll
	for (const message of sent)
		setMessageStatus(fx.sim.state, { wa_message_id: message.wa_message_id, status: 'delivered' });
	expect((await poller.poll()).length).toBe(100);
	expect(tracked(poller)).toHaveLength(100);
	return { poller, sent };
}

describe('BotSailor Trigger → Message Status Changed, bounded following', () => {
	it('checks every followed message on every poll during its first hour', async () => {
		const { poller, sent } = await hundredDelivered();
		const idle = await pollCounting(fx, poller);
		expect(idle.json).toEqual([]);
		expect(idle.requests).toBeGreaterThanOrEqual(100); // one conversation per subscriber: the young messages' price
		later(EVERY_POLL_MINUTES - 1);
		setMessageStatus(fx.sim.state, { wa_message_id: sent[42].wa_message_id, status: 'read' });
		expect((await poller.poll()).map((item) => item.json.wa_message_id)).toEqual([
			sent[42].wa_message_id,
		]);
	});

	it('after an hour, an idle poll costs at most 3 requests with 100 delivered messages followed; a read still shows, once, within 100 polls', async () => {
		const { poller, sent } = await hundredDelivered();
		later(EVERY_POLL_MINUTES + 1);
		for (let poll = 0; poll < 10; poll++) {
			const idle = await pollCounting(fx, poller);
			expect(idle.json).toEqual([]);
			expect(idle.requests).toBeLessThanOrEqual(3);
			later(1);
		}
		setMessageStatus(fx.sim.state, { wa_message_id: sent[77].wa_message_id, status: 'read' });
		const reported: unknown[] = [];
		let polls = 0;
		while (reported.length === 0 && polls < 100) {
			const { json, requests } = await pollCounting(fx, poller);
			expect(requests).toBeLessThanOrEqual(3);
			reported.push(
				...json.map((item) => [item.wa_message_id, item.previous_status, item.message_status]),
			);
			polls++;
			later(1);
		}
		expect(reported).toEqual([[sent[77].wa_message_id, 'delivered', 'read']]);
		expect(polls).toBeLessThanOrEqual(100);
		expect(tracked(poller)).toHaveLength(99);
		expect(await poller.poll()).toEqual([]);
	});

	it('an older message is checked at once, for free, when its subscriber writes (the poll reads that conversation anyway)', async () => {
		const { poller, sent } = await hundredDelivered();
		later(EVERY_POLL_MINUTES + 1);
		await poller.poll();
		setMessageStatus(fx.sim.state, { wa_message_id: sent[5].wa_message_id, status: 'read' });
		addMessage(fx.sim.state, {
			phone_number: sent[5].whatsapp_bot_subscriber_subscriber_id,
			text: 'Thanks, got it',
		});
		const { json, requests } = await pollCounting(fx, poller);
		expect(json.map((item) => [item.wa_message_id, item.message_status])).toEqual([
			[sent[5].wa_message_id, 'read'],
		]);
		expect(requests).toBeLessThanOrEqual(4);
	});

	it(`stops following a delivered message ${DELIVERED_FOR_HOURS} hours after it was seen delivered; a sent one after ${MAX_AGE_DAYS} days`, async () => {
		const { poller } = await hundredDelivered();
		const chat = fx.sim.state.subscribersOf(NUMBER)[120].chat_id;
		const undelivered = addMessage(fx.sim.state, {
			phone_number: chat,
			text: 'To a phone that stays off',
			sender: 'bot',
		});
		await poller.poll();
		expect(tracked(poller)).toHaveLength(100); // the newest 100: one delivered message left out
		later(DELIVERED_FOR_HOURS * 60 + 1);
		await poller.poll();
		expect(tracked(poller).map((entry) => [entry.waMessageId, entry.status])).toEqual([
			[undelivered.wa_message_id, 'sent'],
		]);
		later(MAX_AGE_DAYS * 24 * 60);
		await poller.poll();
		expect(tracked(poller)).toEqual([]);
		expect(await pollCounting(fx, poller)).toEqual({ json: [], requests: 2 });
	});
});
