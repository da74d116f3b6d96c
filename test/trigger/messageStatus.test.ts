import { addMessage, setMessageStatus } from '../simulator/control';
import { useSimulator } from '../harness/simulatorFixture';
import { numberParam, pollCounting, snapshot, triggerPoller } from './helpers';
import { NUMBER } from '../harness/params';

const fx = useSimulator();
const params = (statuses?: string[]) => ({
	event: 'messageStatusChanged',
	phoneNumberId: numberParam(),
	...(statuses ? { statuses } : {}),
});

describe('BotSailor Trigger → Message Status Changed', () => {
	it('emits each status change of an outgoing message once, in order, with the previous status and the failure reason', async () => {
		const poller = triggerPoller(fx, params(['sent', 'delivered', 'read', 'failed']));
		const old = fx.sim.state.messages.find(
			(message) => message.phone_number_id === NUMBER && message.sender === 'bot',
		)!;
		expect(await poller.poll()).toEqual([]);
		setMessageStatus(fx.sim.state, { wa_message_id: old.wa_message_id, status: 'read' }); // sent before activation: not followed
		const [a, b] = fx.sim.state.subscribersOf(NUMBER).slice(1, 3);
		const first = addMessage(fx.sim.state, {
			phone_number: a.chat_id,
			text: 'Your order shipped',
			sender: 'bot',
		});
		const second = addMessage(fx.sim.state, {
			phone_number: b.chat_id,
			text: 'Promo',
			sender: 'bot',
		});
		addMessage(fx.sim.state, { phone_number: b.chat_id, text: 'incoming, no status' });
		expect(await poller.poll()).toEqual([]);

		setMessageStatus(fx.sim.state, { wa_message_id: first.wa_message_id, status: 'delivered' });
		setMessageStatus(fx.sim.state, {
			wa_message_id: second.wa_message_id,
			status: 'failed',
			failed_reason: '(#131026) Message undeliverable',
		});
		const { json } = await pollCounting(fx, poller);
		expect(
			json.map((item) => [item.wa_message_id, item.previous_status, item.message_status]),
		).toEqual([
			[first.wa_message_id, 'sent', 'delivered'],
			[second.wa_message_id, 'sent', 'failed'],
		]);
		expect(json[0]).toMatchObject({
			phone_number: a.chat_id,
			phone_number_id: NUMBER,
			message_content: { text: { body: 'Your order shipped' } },
		});
		expect(json[0]).not.toHaveProperty('failed_reason');
		expect(json[1]).toMatchObject({ failed_reason: '(#131026) Message undeliverable' });
		expect(await poller.poll()).toEqual([]);

		setMessageStatus(fx.sim.state, { wa_message_id: first.wa_message_id, status: 'read' });
		expect(
			(await poller.poll()).map((item) => [item.json.previous_status, item.json.message_status]),
		).toEqual([['delivered', 'read']]);
		expect(await poller.poll()).toEqual([]);
	});

	it('keeps to the selected statuses and reports a change that happened before the message was first seen', async () => {
		const poller = triggerPoller(fx, params(['failed']));
		await poller.poll();
		const chat = fx.sim.state.subscribersOf(NUMBER)[4].chat_id;
		const ok = addMessage(fx.sim.state, { phone_number: chat, text: 'x', sender: 'bot' });
		const bad = addMessage(fx.sim.state, { phone_number: chat, text: 'y', sender: 'bot' });
		setMessageStatus(fx.sim.state, { wa_message_id: ok.wa_message_id, status: 'delivered' });
		setMessageStatus(fx.sim.state, { wa_message_id: bad.wa_message_id, status: 'failed' });
		const { json } = await pollCounting(fx, poller);
		expect(
			json.map((item) => [item.wa_message_id, item.previous_status, item.message_status]),
		).toEqual([[bad.wa_message_id, null, 'failed']]);
	});

	it('follows a message further back than the first conversation page through message-status', async () => {
		const poller = triggerPoller(fx, params());
		await poller.poll();
		const chat = fx.sim.state.subscribersOf(NUMBER)[5].chat_id;
		const tracked = addMessage(fx.sim.state, {
			phone_number: chat,
			text: 'tracked',
			sender: 'bot',
		});
		await poller.poll();
		for (let index = 0; index < 60; index++)
			addMessage(fx.sim.state, { phone_number: chat, text: `chatter ${index}` });
		await poller.poll();
		setMessageStatus(fx.sim.state, { wa_message_id: tracked.wa_message_id, status: 'read' });
		const { json } = await pollCounting(fx, poller);
		expect(json).toMatchObject([
			{ wa_message_id: tracked.wa_message_id, message_status: 'read', previous_status: 'sent' },
		]);
		expect(fx.sim.requests.some((request) => request.path === '/whatsapp/get/message-status')).toBe(
			true,
		);
	});

	it('a failing poll moves nothing; a manual run shows ONE outgoing message, the newest, without touching the state', async () => {
		const poller = triggerPoller(fx, params());
		await poller.poll();
		const sent = addMessage(fx.sim.state, {
			phone_number: fx.sim.state.subscribersOf(NUMBER)[6].chat_id,
			text: 'hi',
			sender: 'bot',
		});
		await poller.poll();
		setMessageStatus(fx.sim.state, { wa_message_id: sent.wa_message_id, status: 'delivered' });
		const before = snapshot(poller);
		fx.sim.faults.add('/whatsapp/get/conversation', { kind: 'status0', times: 1 });
		await expect(poller.poll()).rejects.toThrow();
		expect(snapshot(poller)).toEqual(before);
		const { json } = await pollCounting(fx, poller, 'manual');
		expect(json).toEqual([
			expect.objectContaining({
				wa_message_id: sent.wa_message_id,
				message_status: 'delivered',
				direction: 'outgoing',
				text: 'hi',
				previous_status: null,
			}),
		]);
		expect(snapshot(poller)).toEqual(before);
		expect((await poller.poll()).map((item) => item.json.wa_message_id)).toEqual([
			sent.wa_message_id,
		]);
	});

	it('follows a bounded number of messages', async () => {
		const poller = triggerPoller(fx, params());
		await poller.poll();
		const subscribers = fx.sim.state.subscribersOf(NUMBER);
		for (let index = 0; index < 140; index++)
			addMessage(fx.sim.state, {
				phone_number: subscribers[index % 40].chat_id,
				text: `b${index}`,
				sender: 'bot',
			});
		await poller.poll();
		const [stored] = Object.values(poller.staticData()) as Array<{ state: { tracked: unknown[] } }>;
		const state = stored.state;
		expect(state.tracked).toHaveLength(100);
	});
});
