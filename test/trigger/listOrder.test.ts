import { addMessage, addSubscriber, addSubscribers, setMessageStatus } from '../simulator/control';
import { useSimulator } from '../harness/simulatorFixture';
import { numberParam, pollCounting, snapshot, triggerPoller } from './helpers';
import { NUMBER } from '../harness/params';

/**
 * The orders the spec does not give, served by the simulator's deployment variants (SPEC-GAP in
 * test/simulator/state.ts): the subscriber list's default order and the conversation's page order.
 */
const fx = useSimulator();
const subscriberParams = { event: 'newSubscriber', phoneNumberId: numberParam() };
const messageParams = { event: 'newMessage', phoneNumberId: numberParam(), messageOptions: {} };
const ids = (json: Array<Record<string, unknown>>, key = 'subscriber_id') =>
	json.map((item) => item[key]);
const conversationReads = () =>
	fx.sim.requests
		.filter((request) => request.path === '/whatsapp/get/conversation')
		.map((request) => request.body.offset);

describe('BotSailor Trigger → New Subscriber, whatever the default order', () => {
	it('newest first: finds new subscribers on page 1, each once, and idles on one request', async () => {
		fx.sim.state.subscriberDefaultOrder = 'newestFirst';
		addSubscribers(fx.sim.state, { phone_number_id: NUMBER, count: 10_000 });
		const poller = triggerPoller(fx, subscriberParams);
		const start = await pollCounting(fx, poller);
		expect(start).toEqual({ json: [], requests: 1 });

		const zoe = addSubscriber(fx.sim.state, { phone_number: '447700900111', name: 'Zoe Quinn' });
		const yan = addSubscriber(fx.sim.state, { phone_number: '447700900333', name: 'Yan Li' });
		const { json, requests } = await pollCounting(fx, poller);
		expect(ids(json)).toEqual([zoe.subscriber_id, yan.subscriber_id]);
		expect(json[0]).toMatchObject({
			first_name: 'Zoe',
			phone_number: zoe.chat_id,
			phone_number_id: NUMBER,
		});
		expect(requests).toBe(1);
		expect(await pollCounting(fx, poller)).toEqual({ json: [], requests: 1 });

		// More than a page of new subscribers: page 1, then page 2 where the known ones start.
		addSubscribers(fx.sim.state, { phone_number_id: NUMBER, count: 150, prefix: '4479' });
		const burst = await pollCounting(fx, poller);
		expect(burst.json).toHaveLength(150);
		expect(burst.requests).toBe(2);
		expect(await pollCounting(fx, poller)).toEqual({ json: [], requests: 1 });
		// A manual run shows the newest.
		const sample = await pollCounting(fx, poller, 'manual');
		expect(ids(sample.json)).toEqual([
			Math.max(...fx.sim.state.subscribersOf(NUMBER).map((entry) => entry.subscriber_id)),
		]);
	});

	it('follows a platform that changes its order between polls, losing and repeating no one', async () => {
		addSubscribers(fx.sim.state, { phone_number_id: NUMBER, count: 1_000 });
		const poller = triggerPoller(fx, subscriberParams);
		await poller.poll();
		const emitted: unknown[] = [];
		const expected: unknown[] = [];
		for (const order of ['newestFirst', 'oldestFirst', 'newestFirst'] as const) {
			fx.sim.state.subscriberDefaultOrder = order;
			for (let index = 0; index < 3; index++)
				expected.push(
					addSubscriber(fx.sim.state, {
						phone_number: `44770090${order.length}${emitted.length}${index}0`,
						name: `New ${order}`,
					}).subscriber_id,
				);
			emitted.push(...ids((await pollCounting(fx, poller)).json));
			expect(await poller.poll()).toEqual([]);
		}
		expect(emitted).toEqual(expected);
	});

	it('a list in no order by subscriber_id fails the activation, saying what was expected and found; nothing is stored', async () => {
		fx.sim.state.subscriberDefaultOrder = 'byName';
		const poller = triggerPoller(fx, subscriberParams);
		const failure = poller.poll();
		await expect(failure).rejects.toThrow(
			/expected its default order \(orderBy=0\) by subscriber_id, oldest or newest first; found subscriber_id \d+, \d+, \d+, \d+, \d+, … on page 1/,
		);
		expect(Object.values(snapshot(poller))).toEqual([{}]);
	});

	it('a list in no order that fits on one page is read whole: new subscribers are still found', async () => {
		fx.sim.state.subscriberDefaultOrder = 'byName';
		const kept = new Set(
			fx.sim.state
				.subscribersOf(NUMBER)
				.slice(0, 20)
				.map((entry) => entry.subscriber_id),
		);
		fx.sim.state.subscribers = fx.sim.state.subscribers.filter(
			(entry) => entry.phone_number_id !== NUMBER || kept.has(entry.subscriber_id),
		);
		const poller = triggerPoller(fx, subscriberParams);
		await poller.poll();
		const aaron = addSubscriber(fx.sim.state, { phone_number: '447700900444', name: 'Aaron Able' });
		expect(ids((await pollCounting(fx, poller)).json)).toEqual([aaron.subscriber_id]);
		expect(await poller.poll()).toEqual([]);
	});
});

describe('BotSailor Trigger → New Message and Message Status Changed, whatever the conversation order', () => {
	it('oldest first: reads the last page of long conversations (remembered, so idle polls stay at 2 requests)', async () => {
		fx.sim.state.conversationOrder = 'oldestFirst';
		const [ava, ben] = fx.sim.state.subscribersOf(NUMBER).slice(10, 12);
		for (let index = 0; index < 120; index++)
			addMessage(fx.sim.state, { phone_number: ava.chat_id, text: `old ${index}` });
		const poller = triggerPoller(fx, messageParams);
		// Activation: Ava's page 1 shows the order, then her last page is found (doubling, then bisection).
		expect((await pollCounting(fx, poller)).json).toEqual([]);
		expect(conversationReads()).toEqual(['1', '2', '4', '3']);

		const first = addMessage(fx.sim.state, { phone_number: ava.chat_id, text: 'Do you deliver?' });
		const second = addMessage(fx.sim.state, { phone_number: ben.chat_id, text: 'Hi' });
		const third = addMessage(fx.sim.state, { phone_number: ava.chat_id, text: 'Thanks' });
		fx.sim.clearRequests();
		const { json } = await pollCounting(fx, poller);
		expect(ids(json, 'wa_message_id')).toEqual([
			first.wa_message_id,
			second.wa_message_id,
			third.wa_message_id,
		]);
		expect(json[2]).toMatchObject({ text: 'Thanks', phone_number: ava.chat_id });
		expect(conversationReads()[0]).toBe('3'); // Ava's remembered last page first
		await poller.poll(); // re-checks the subscribers active in the previous poll
		expect((await pollCounting(fx, poller)).requests).toBe(2);

		// A burst of 70 (more than a page) on Ava: her last page moves on, everything is emitted once, in order.
		const burst = Array.from(
			{ length: 70 },
			(_, index) =>
				addMessage(fx.sim.state, { phone_number: ava.chat_id, text: `burst ${index}` })
					.wa_message_id,
		);
		expect(ids((await pollCounting(fx, poller)).json, 'wa_message_id')).toEqual(burst);
		expect(await poller.poll()).toEqual([]);
		expect(await poller.poll()).toEqual([]);

		// A test run shows the newest incoming message.
		const sample = await pollCounting(fx, poller, 'manual');
		expect(ids(sample.json, 'wa_message_id')).toEqual([burst.at(-1)]);
	});

	it('follows a platform that turns its conversation order around between polls', async () => {
		const ava = fx.sim.state.subscribersOf(NUMBER)[10];
		for (let index = 0; index < 120; index++)
			addMessage(fx.sim.state, { phone_number: ava.chat_id, text: `old ${index}` });
		const poller = triggerPoller(fx, messageParams);
		await poller.poll();
		const expected: unknown[] = [];
		const emitted: unknown[] = [];
		for (const order of ['oldestFirst', 'newestFirst', 'oldestFirst'] as const) {
			fx.sim.state.conversationOrder = order;
			for (let index = 0; index < 3; index++)
				expected.push(
					addMessage(fx.sim.state, { phone_number: ava.chat_id, text: `${order} ${index}` })
						.wa_message_id,
				);
			emitted.push(...ids((await pollCounting(fx, poller)).json, 'wa_message_id'));
			expect(await poller.poll()).toEqual([]);
		}
		expect(emitted).toEqual(expected);
	});

	it('Message Status Changed finds a followed message on the last page of an oldest-first conversation', async () => {
		fx.sim.state.conversationOrder = 'oldestFirst';
		const chat = fx.sim.state.subscribersOf(NUMBER)[5].chat_id;
		for (let index = 0; index < 80; index++)
			addMessage(fx.sim.state, { phone_number: chat, text: `old ${index}` });
		const poller = triggerPoller(fx, {
			event: 'messageStatusChanged',
			phoneNumberId: numberParam(),
		});
		await poller.poll();
		const sent = addMessage(fx.sim.state, {
			phone_number: chat,
			text: 'Your order shipped',
			sender: 'bot',
		});
		await poller.poll();
		setMessageStatus(fx.sim.state, { wa_message_id: sent.wa_message_id, status: 'delivered' });
		const { json } = await pollCounting(fx, poller);
		expect(json).toEqual([
			expect.objectContaining({
				wa_message_id: sent.wa_message_id,
				previous_status: 'sent',
				message_status: 'delivered',
				text: 'Your order shipped',
			}),
		]);
		expect(fx.sim.requests.some((request) => request.path === '/whatsapp/get/message-status')).toBe(
			false,
		);
	});

	it('pages in no time order fail the activation, saying what was expected and found; short conversations need no order', async () => {
		fx.sim.state.conversationOrder = 'unordered';
		// Every seeded conversation fits on one page: nothing depends on the order.
		const short = triggerPoller(fx, messageParams);
		await short.poll();
		const hello = addMessage(fx.sim.state, {
			phone_number: fx.sim.state.subscribersOf(NUMBER)[3].chat_id,
			text: 'hello',
		});
		expect(ids((await pollCounting(fx, short)).json, 'wa_message_id')).toEqual([
			hello.wa_message_id,
		]);

		const ava = fx.sim.state.subscribersOf(NUMBER)[10];
		for (let index = 0; index < 60; index++)
			addMessage(fx.sim.state, { phone_number: ava.chat_id, text: `m${index}` });
		const poller = triggerPoller(fx, messageParams);
		await expect(poller.poll()).rejects.toThrow(
			new RegExp(
				`The conversation of ${ava.chat_id} is paged in an order the trigger cannot follow: expected pages by conversation_time, newest or oldest first; found conversation_time \\d{4}-`,
			),
		);
		expect(Object.values(snapshot(poller))).toEqual([{}]);
	});
});
