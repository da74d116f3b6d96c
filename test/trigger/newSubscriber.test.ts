import { addSubscriber, addSubscribers } from '../simulator/control';
import { useSimulator } from '../harness/simulatorFixture';
import { numberParam, pollCounting, snapshot, triggerPoller } from './helpers';
import { OTHER_NUMBER, NUMBER } from '../harness/params';

const fx = useSimulator();
const params = { event: 'newSubscriber', phoneNumberId: numberParam() };

describe('BotSailor Trigger → New Subscriber', () => {
	it('starts from now, emits each new subscriber once in creation order, and idles on one request', async () => {
		const poller = triggerPoller(fx, params);
		expect(await poller.poll()).toEqual([]);
		const zoe = addSubscriber(fx.sim.state, { phone_number: '447700900111', name: 'Zoe Quinn' });
		addSubscriber(fx.sim.state, {
			phone_number_id: OTHER_NUMBER,
			phone_number: '447700900222',
			name: 'Elsewhere',
		});
		const yan = addSubscriber(fx.sim.state, { phone_number: '447700900333', name: 'Yan Li' });
		const { json } = await pollCounting(fx, poller);
		expect(json).toEqual([
			{
				subscriber_id: zoe.subscriber_id,
				chat_id: zoe.chat_id,
				first_name: 'Zoe',
				last_name: 'Quinn',
				email: null,
				gender: '',
				assigned_agent_id: 0,
				phone_number: zoe.chat_id,
				phone_number_id: NUMBER,
			},
			expect.objectContaining({ subscriber_id: yan.subscriber_id, first_name: 'Yan' }),
		]);
		const idle = await pollCounting(fx, poller);
		expect(idle).toEqual({ json: [], requests: 1 });
		expect(fx.sim.requests.at(-1)?.body).toMatchObject({
			phone_number_id: NUMBER,
			limit: '100',
			orderBy: '0',
		});
	});

	it('finds the last page of 10,000 subscribers in a few requests, then follows new pages and deletions', async () => {
		addSubscribers(fx.sim.state, { phone_number_id: NUMBER, count: 10_000 });
		const poller = triggerPoller(fx, params);
		const start = await pollCounting(fx, poller);
		expect(start).toMatchObject({ json: [] });
		expect(start.requests).toBeLessThanOrEqual(20);
		const added = addSubscribers(fx.sim.state, {
			phone_number_id: NUMBER,
			count: 150,
			prefix: '4479',
		});
		const { json, requests } = await pollCounting(fx, poller);
		expect(json).toHaveLength(150);
		expect(requests).toBeLessThanOrEqual(4);
		expect(added).toBe(fx.sim.state.subscribers.length);
		// Deleting 300 old subscribers moves the last page back; the new one is still found once.
		const victims = new Set(
			fx.sim.state
				.subscribersOf(NUMBER)
				.slice(0, 300)
				.map((entry) => entry.subscriber_id),
		);
		fx.sim.state.subscribers = fx.sim.state.subscribers.filter(
			(entry) => !victims.has(entry.subscriber_id),
		);
		const late = addSubscriber(fx.sim.state, { phone_number: '447700900999', name: 'Late Comer' });
		expect((await poller.poll()).map((item) => item.json.subscriber_id)).toEqual([
			late.subscriber_id,
		]);
		expect(await poller.poll()).toEqual([]);
	});

	it('a failing poll moves nothing; a manual run shows ONE subscriber, the newest', async () => {
		const poller = triggerPoller(fx, params);
		await poller.poll();
		const zoe = addSubscriber(fx.sim.state, { phone_number: '447700900111', name: 'Zoe Quinn' });
		const before = snapshot(poller);
		fx.sim.faults.add('/whatsapp/subscriber/list', { kind: 'html500', times: 1 });
		await expect(poller.poll()).rejects.toThrow(/web page/);
		expect(snapshot(poller)).toEqual(before);
		const { json } = await pollCounting(fx, poller, 'manual');
		expect(json).toEqual([
			expect.objectContaining({
				subscriber_id: zoe.subscriber_id,
				first_name: 'Zoe',
				phone_number: zoe.chat_id,
				phone_number_id: NUMBER,
			}),
		]);
		expect(snapshot(poller)).toEqual(before);
		expect((await poller.poll()).map((item) => item.json.subscriber_id)).toEqual([
			zoe.subscriber_id,
		]);
	});
});
