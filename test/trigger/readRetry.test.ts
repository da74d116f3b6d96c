/**
 * Polls repeat what is safe to repeat (transport.ts, retryRead): a read sends nothing to a customer, so a
 * burst of 429s, a 502/503/504 or a dropped connection costs a short wait, not a failed poll (n8n would
 * record an error execution and fire the Error Workflow). A poll fails only when the platform keeps refusing,
 * and then no cursor moves: the next poll emits what the failed one would have, once.
 */
import type { IDataObject } from 'n8n-workflow';
import { addMessage } from '../simulator/control';
import type { FaultKind } from '../simulator/faults';
import { useSimulator } from '../harness/simulatorFixture';
import { numberParam, triggerPoller } from './helpers';
import { NUMBER } from '../harness/params';

const fx = useSimulator();
const params = { event: 'newMessage', phoneNumberId: numberParam() };

/** Two customers write; the ids the next poll must emit. */
function customersWrite(): string[] {
	const [a, b] = fx.sim.state.subscribersOf(NUMBER).slice(20, 22);
	return [
		addMessage(fx.sim.state, { phone_number: a.chat_id, text: 'Are you open?' }),
		addMessage(fx.sim.state, { phone_number: b.chat_id, text: 'Price of a croissant?' }),
	].map((message) => String(message.wa_message_id));
}

const ids = (items: Array<{ json: IDataObject }>) =>
	items.map((item) => String(item.json.wa_message_id));
const answersTo = (path: string) =>
	fx.sim.requests.filter((request) => request.path === path).length;

describe('BotSailor Trigger polls during a rate limit', () => {
	it('survives a burst of 429s without an error and emits each message once', async () => {
		const poller = triggerPoller(fx, params);
		await poller.poll(); // activation: from now
		const expected = customersWrite();
		fx.sim.requests.splice(0);
		// Six 429s in a row, across the reads of one poll (the subscriber list, then the conversations).
		fx.sim.faults.add('*', { kind: 'rate429', retryAfterSeconds: 0, times: 6 });
		const items = await poller.poll();
		expect(ids(items)).toEqual(expected);
		expect(fx.sim.requests.length).toBeGreaterThanOrEqual(6 + 3);
		expect(ids(await poller.poll())).toEqual([]);
	});

	it('backs off when the 429s carry no Retry-After, within a few seconds', async () => {
		const poller = triggerPoller(fx, params);
		await poller.poll();
		const expected = customersWrite();
		fx.sim.faults.add('/whatsapp/subscriber/list', { kind: 'rate429', times: 3 });
		const started = Date.now();
		expect(ids(await poller.poll())).toEqual(expected);
		const waited = Date.now() - started;
		// Backoff 250 ms doubling, half of it random: 0.125–0.25 + 0.25–0.5 + 0.5–1 s.
		expect(waited).toBeGreaterThanOrEqual(875);
		expect(waited).toBeLessThan(5000);
	});

	it.each<[string, FaultKind]>([
		['a 502 page', 'processThen502'],
		['a 503 page', 'unavailable503'],
		['a 504 page', 'processThen504'],
		['a dropped connection', 'drop'],
	])('repeats a read after %s', async (_name, kind) => {
		const poller = triggerPoller(fx, params);
		await poller.poll();
		const expected = customersWrite();
		fx.sim.requests.splice(0);
		fx.sim.faults.add('/whatsapp/get/conversation', { kind, times: 1 });
		expect(ids(await poller.poll())).toEqual(expected);
		expect(answersTo('/whatsapp/get/conversation')).toBeGreaterThanOrEqual(3); // two conversations, one read twice
	});

	it('refused connections for a moment: the poll waits and goes on', async () => {
		const poller = triggerPoller(fx, params);
		await poller.poll();
		const expected = customersWrite();
		fx.sim.refuseConnections(400);
		expect(ids(await poller.poll())).toEqual(expected);
	});

	it('fails only when the platform keeps refusing, naming how often; no cursor moves, the next poll catches up once', async () => {
		const poller = triggerPoller(fx, params);
		await poller.poll();
		const expected = customersWrite();
		fx.sim.faults.add('*', { kind: 'rate429', retryAfterSeconds: 0 });
		fx.sim.requests.splice(0);
		const failure = await poller.poll().then(
			() => undefined,
			(error: Error & { description?: string; httpCode?: string }) => error,
		);
		expect(failure?.message).toBe('Too Many Requests');
		expect(failure?.httpCode).toBe('429');
		expect(failure?.description).toMatch(
			/The platform refused this read 7 times in [\d.]+ s; it was not retried further\.$/,
		);
		expect(fx.sim.requests).toHaveLength(7);
		fx.sim.faults.clear();
		expect(ids(await poller.poll())).toEqual(expected);
		expect(ids(await poller.poll())).toEqual([]);
	});

	it('does not repeat what is not worth repeating: an HTML 500, a refusal in the body', async () => {
		for (const kind of ['html500', 'status0'] as const) {
			fx.sim.reset();
			const poller = triggerPoller(fx, params);
			await poller.poll();
			customersWrite();
			fx.sim.faults.add('/whatsapp/subscriber/list', { kind, times: 1 });
			fx.sim.requests.splice(0);
			await expect(poller.poll()).rejects.toThrow();
			expect(answersTo('/whatsapp/subscriber/list')).toBe(1);
		}
	});
});
