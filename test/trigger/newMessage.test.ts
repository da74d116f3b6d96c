import { addMessage, addSubscribers } from '../simulator/control';
import { useSimulator } from '../harness/simulatorFixture';
import { numberParam, pollCounting, snapshot, triggerPoller } from './helpers';
import { NUMBER } from '../harness/params';

const fx = useSimulator();
const params = (options = {}) => ({
	event: 'newMessage',
	phoneNumberId: numberParam(),
	messageOptions: options,
});

describe('BotSailor Trigger → New Message', () => {
	it('starts from now, then emits each new incoming message once, in order, decoded, with its subscriber', async () => {
		const poller = triggerPoller(fx, params());
		expect((await pollCounting(fx, poller)).json).toEqual([]);
		const ava = fx.sim.state.subscribersOf(NUMBER)[10];
		const first = addMessage(fx.sim.state, { phone_number: ava.chat_id, text: 'Do you deliver?' });
		addMessage(fx.sim.state, { phone_number: ava.chat_id, text: 'On Sundays', sender: 'bot' });
		const second = addMessage(fx.sim.state, {
			phone_number: '447700900555',
			text: 'Hi there',
			name: 'Zoe Quinn',
		});
		const third = addMessage(fx.sim.state, { phone_number: ava.chat_id, text: 'Thanks' });

		const { json, requests } = await pollCounting(fx, poller);
		expect(json.map((item) => item.wa_message_id)).toEqual([
			first.wa_message_id,
			second.wa_message_id,
			third.wa_message_id,
		]);
		expect(json[0]).not.toHaveProperty('caption');
		// What a workflow reads most comes first: n8n's table view shows fields in this order.
		expect(Object.keys(json[0]).slice(0, 5)).toEqual([
			'text',
			'message_type',
			'direction',
			'phone_number',
			'subscriber_name',
		]);
		expect(json[0]).toMatchObject({
			id: first.id,
			sender: 'user',
			direction: 'incoming',
			message_content: { type: 'text', text: { body: 'Do you deliver?' } },
			text: 'Do you deliver?',
			message_type: 'text',
			phone_number: ava.chat_id,
			subscriber_name: `${ava.first_name} ${ava.last_name}`,
			subscriber_id: ava.subscriber_id,
			phone_number_id: NUMBER,
			conversation_time: first.conversation_time,
		});
		expect(json[1]).toMatchObject({ phone_number: '447700900555', subscriber_name: 'Zoe Quinn' });
		expect(requests).toBeLessThanOrEqual(2 + 2);
		const bodies = fx.sim.requests
			.filter((request) => request.path === '/whatsapp/subscriber/list')
			.map((request) => request.body);
		expect(bodies.at(-1)).toEqual({
			phone_number_id: NUMBER,
			limit: '100',
			offset: '1',
			orderBy: '1',
		});
		const conversation = fx.sim.requests.find(
			(request) => request.path === '/whatsapp/get/conversation',
		);
		expect(conversation?.body).toMatchObject({ phone_number_id: NUMBER, limit: '50', offset: '1' });
		expect(conversation?.method).toBe('POST');

		expect((await pollCounting(fx, poller)).json).toEqual([]);
		expect((await pollCounting(fx, poller)).json).toEqual([]);
	});

	it('includes outgoing messages when asked, and keeps to the listed phone numbers', async () => {
		const [a, b] = fx.sim.state.subscribersOf(NUMBER).slice(3, 5);
		const poller = triggerPoller(
			fx,
			params({
				includeOutgoing: true,
				phoneNumbers: `+${a.chat_id.slice(0, 3)} ${a.chat_id.slice(3)}`,
			}),
		);
		await poller.poll();
		addMessage(fx.sim.state, { phone_number: b.chat_id, text: 'not for us' });
		const incoming = addMessage(fx.sim.state, { phone_number: a.chat_id, text: 'question' });
		const reply = addMessage(fx.sim.state, {
			phone_number: a.chat_id,
			text: 'answer',
			sender: 'agent',
		});
		const { json } = await pollCounting(fx, poller);
		expect(json.map((item) => [item.wa_message_id, item.direction])).toEqual([
			[incoming.wa_message_id, 'incoming'],
			[reply.wa_message_id, 'outgoing'],
		]);
		expect(json[1]).toMatchObject({ agent_name: 'Alex Agent', message_status: 'sent' });
	});

	it('refuses a malformed phone number filter, naming the option', async () => {
		const poller = triggerPoller(fx, params({ phoneNumbers: 'abc' }));
		await poller.poll();
		await expect(poller.poll()).rejects.toThrow(/Only From Phone Numbers/);
	});

	it('reads older conversation pages when a subscriber wrote more than 50 messages since the last poll', async () => {
		const poller = triggerPoller(fx, params());
		await poller.poll();
		const chat = fx.sim.state.subscribersOf(NUMBER)[7].chat_id;
		const sent = Array.from(
			{ length: 120 },
			(_, index) =>
				addMessage(fx.sim.state, { phone_number: chat, text: `m${index}` }).wa_message_id,
		);
		const { json } = await pollCounting(fx, poller);
		expect(json.map((item) => item.wa_message_id)).toEqual(sent);
	});

	it('a failing poll moves no cursor: the next poll emits the message exactly once', async () => {
		const poller = triggerPoller(fx, params());
		await poller.poll();
		const message = addMessage(fx.sim.state, {
			phone_number: fx.sim.state.subscribersOf(NUMBER)[2].chat_id,
			text: 'hello',
		});
		// Failures a read does not repeat (a dropped connection is repeated: readRetry.test.ts).
		for (const kind of ['html500', 'status0', 'malformed'] as const) {
			const before = snapshot(poller);
			fx.sim.faults.add('/whatsapp/get/conversation', { kind, times: 1 });
			await expect(poller.poll()).rejects.toThrow();
			expect(snapshot(poller)).toEqual(before);
		}
		expect((await poller.poll()).map((item) => item.json.wa_message_id)).toEqual([
			message.wa_message_id,
		]);
		expect(await poller.poll()).toEqual([]);
	});

	it('a manual run returns ONE message, the newest incoming, and leaves the cursor alone', async () => {
		const poller = triggerPoller(fx, params());
		await poller.poll();
		const [a, b] = fx.sim.state.subscribersOf(NUMBER).slice(2, 4);
		addMessage(fx.sim.state, { phone_number: a.chat_id, text: 'older' });
		const message = addMessage(fx.sim.state, { phone_number: b.chat_id, text: 'sample me' });
		addMessage(fx.sim.state, {
			phone_number: b.chat_id,
			text: 'bot reply, not incoming',
			sender: 'bot',
		});
		const before = snapshot(poller);
		const { json } = await pollCounting(fx, poller, 'manual');
		expect(json).toEqual([
			expect.objectContaining({
				wa_message_id: message.wa_message_id,
				text: 'sample me',
				direction: 'incoming',
				phone_number: b.chat_id,
			}),
		]);
		expect(snapshot(poller)).toEqual(before);
		expect((await poller.poll()).map((item) => item.json.text)).toEqual(['older', 'sample me']);
	});

	it('a manual run on a number without messages emits nothing', async () => {
		fx.sim.state.messages = [];
		const poller = triggerPoller(fx, params());
		expect(await poller.poll('manual')).toEqual([]);
	});

	it('gives every message a flat text, message_type and (for media that have one) caption', async () => {
		const poller = triggerPoller(fx, params());
		await poller.poll();
		const chat = fx.sim.state.subscribersOf(NUMBER)[6].chat_id;
		const contents = [
			{ type: 'text', text: { body: 'price please' } },
			{
				type: 'image',
				image: { id: 'media-1', mime_type: 'image/jpeg', caption: 'Is this cake available?' },
			},
			{ type: 'document', document: { id: 'media-2', filename: 'order.pdf' } },
			{
				type: 'interactive',
				interactive: { type: 'button_reply', button_reply: { id: 'size-l', title: 'Large' } },
			},
			{
				type: 'interactive',
				interactive: { type: 'list_reply', list_reply: { id: 'row-2', title: 'Carrot cake' } },
			},
			{ type: 'button', button: { text: 'Stop promotions', payload: 'STOP' } },
			{ type: 'reaction', reaction: { message_id: 'wamid.x', emoji: '👍' } },
			{ type: 'location', location: { latitude: 51.5, longitude: -0.1 } },
		];
		for (const content of contents) addMessage(fx.sim.state, { phone_number: chat, content });
		const { json } = await pollCounting(fx, poller);
		expect(json.map((item) => [item.message_type, item.text, item.caption])).toEqual([
			['text', 'price please', undefined],
			['image', 'Is this cake available?', 'Is this cake available?'],
			['document', '', undefined],
			['interactive', 'Large', undefined],
			['interactive', 'Carrot cake', undefined],
			['button', 'Stop promotions', undefined],
			['reaction', '👍', undefined],
			['location', '', undefined],
		]);
		expect(json[2]).not.toHaveProperty('caption');
		// The decoded message_content stays as it was.
		expect(json[1].message_content).toEqual(contents[1]);
	});

	it('costs 2 requests when idle with 10,000 subscribers, and k + 2 when k subscribers wrote', async () => {
		addSubscribers(fx.sim.state, { phone_number_id: NUMBER, count: 10_000 });
		const poller = triggerPoller(fx, params());
		await poller.poll();
		expect((await pollCounting(fx, poller)).requests).toBeLessThanOrEqual(2);
		const subscribers = fx.sim.state.subscribersOf(NUMBER);
		for (const k of [1, 5, 20]) {
			const chats = Array.from(
				{ length: k },
				(_, index) => subscribers[(index * 37 + k) % subscribers.length].chat_id,
			);
			for (const chat of chats) addMessage(fx.sim.state, { phone_number: chat, text: `k=${k}` });
			const { json, requests } = await pollCounting(fx, poller);
			expect(json).toHaveLength(k);
			expect(requests).toBeLessThanOrEqual(k + 2);
			// The poll after re-checks the k subscribers once (a message may have landed during the poll), then idles at 2.
			expect((await pollCounting(fx, poller)).json).toEqual([]);
			expect((await pollCounting(fx, poller)).requests).toBeLessThanOrEqual(2);
		}
	});
});
