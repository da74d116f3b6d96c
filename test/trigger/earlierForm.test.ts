import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { BotSailorTrigger } from '../../nodes/BotSailorTrigger/BotSailorTrigger.node';
import { createPoller } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import {
	addMessage,
	addOrder,
	addSubscriber,
	decideTemplate,
	setMessageStatus,
} from '../simulator/control';
import { numberParam, pollCounting } from './helpers';
import { NUMBER } from '../harness/params';

/**
 * Every event with the credential's API Form set to Earlier, against a deployment on the earlier form
 * only (state.earlierFormOnly: the subscriber list and the conversation have no pagination parameters,
 * answer whole lists, and refuse limit/offset). Spec, Versioning 2.
 */
const fx = useSimulator();
beforeEach(() => {
	fx.sim.state.earlierFormOnly = true;
});

const earlierPoller = (parameters: INodeParameters) =>
	createPoller(new BotSailorTrigger(), parameters, { ...fx.credentials, apiForm: 'earlier' });
const waIds = (json: IDataObject[]) => json.map((item) => item.wa_message_id);

/** No request of the run carried a pagination parameter. */
function expectNoPagination() {
	const paginated = fx.sim.requests.filter(
		(request) => 'limit' in request.body || 'offset' in request.body,
	);
	expect(paginated.map((request) => `${request.path} ${JSON.stringify(request.body)}`)).toEqual([]);
}

describe('BotSailor Trigger on the earlier API form', () => {
	it('New Message: whole lists, each message once in order, 2 requests when idle, a test run shows the newest', async () => {
		const poller = earlierPoller({
			event: 'newMessage',
			phoneNumberId: numberParam(),
			messageOptions: {},
		});
		expect(await poller.poll()).toEqual([]);
		const [ava, ben] = fx.sim.state.subscribersOf(NUMBER).slice(10, 12);
		// More than a current-form page (50) from one subscriber: the earlier form answers them all at once.
		const burst = Array.from(
			{ length: 70 },
			(_, index) =>
				addMessage(fx.sim.state, { phone_number: ava.chat_id, text: `m${index}` }).wa_message_id,
		);
		const hello = addMessage(fx.sim.state, {
			phone_number: ben.chat_id,
			text: 'hello',
		}).wa_message_id;
		const { json, requests } = await pollCounting(fx, poller);
		expect(waIds(json)).toEqual([...burst, hello]);
		expect(requests).toBe(1 + 3); // the list, Ben, Ava, and the first subscriber with nothing new
		expect(
			fx.sim.requests.find((request) => request.path === '/whatsapp/subscriber/list')?.body,
		).toEqual({ phone_number_id: NUMBER, orderBy: '1' });
		expect(
			fx.sim.requests.find((request) => request.path === '/whatsapp/get/conversation')?.body,
		).toEqual({ phone_number_id: NUMBER, phone_number: expect.any(String) });
		await poller.poll();
		expect(await pollCounting(fx, poller)).toEqual({ json: [], requests: 2 });
		expect(waIds((await pollCounting(fx, poller, 'manual')).json)).toEqual([hello]);
		expectNoPagination();
	});

	it('Message Status Changed: follows outgoing messages and emits each change once', async () => {
		const poller = earlierPoller({ event: 'messageStatusChanged', phoneNumberId: numberParam() });
		await poller.poll();
		const chat = fx.sim.state.subscribersOf(NUMBER)[4].chat_id;
		const sent = addMessage(fx.sim.state, {
			phone_number: chat,
			text: 'Your order shipped',
			sender: 'bot',
		});
		for (let index = 0; index < 60; index++)
			addMessage(fx.sim.state, { phone_number: chat, text: `chatter ${index}` });
		expect(await poller.poll()).toEqual([]);
		setMessageStatus(fx.sim.state, { wa_message_id: sent.wa_message_id, status: 'delivered' });
		expect((await pollCounting(fx, poller)).json).toEqual([
			expect.objectContaining({
				wa_message_id: sent.wa_message_id,
				previous_status: 'sent',
				message_status: 'delivered',
				text: 'Your order shipped',
			}),
		]);
		setMessageStatus(fx.sim.state, { wa_message_id: sent.wa_message_id, status: 'read' });
		expect(
			(await poller.poll()).map((item) => [item.json.previous_status, item.json.message_status]),
		).toEqual([['delivered', 'read']]);
		expect(await poller.poll()).toEqual([]);
		expect(waIds((await pollCounting(fx, poller, 'manual')).json)).toEqual([sent.wa_message_id]);
		expectNoPagination();
	});

	it('New Subscriber: one request per poll, in whatever order the list comes', async () => {
		for (const order of ['oldestFirst', 'byName'] as const) {
			fx.sim.state.subscriberDefaultOrder = order;
			const poller = earlierPoller({ event: 'newSubscriber', phoneNumberId: numberParam() });
			expect(await pollCounting(fx, poller)).toEqual({ json: [], requests: 1 });
			const zoe = addSubscriber(fx.sim.state, {
				phone_number: `44770090${order.length}111`,
				name: 'Zoe Quinn',
			});
			const aaron = addSubscriber(fx.sim.state, {
				phone_number: `44770090${order.length}222`,
				name: 'Aaron Able',
			});
			const { json, requests } = await pollCounting(fx, poller);
			expect(json.map((item) => item.subscriber_id)).toEqual([
				zoe.subscriber_id,
				aaron.subscriber_id,
			]);
			expect(json[0]).toMatchObject({
				phone_number: zoe.chat_id,
				phone_number_id: NUMBER,
				email: null,
			});
			expect(requests).toBe(1);
			expect(fx.sim.requests.at(-1)?.body).toEqual({ phone_number_id: NUMBER, orderBy: '0' });
			expect(await pollCounting(fx, poller)).toEqual({ json: [], requests: 1 });
			expect(
				(await pollCounting(fx, poller, 'manual')).json.map((item) => item.subscriber_id),
			).toEqual([aaron.subscriber_id]);
		}
		expectNoPagination();
	});

	it('New Catalog Order and Catalog Order Status Changed (lists without pagination in both forms)', async () => {
		const orders = earlierPoller({ event: 'newCatalogOrder' });
		const statuses = earlierPoller({ event: 'catalogOrderStatusChanged' });
		await orders.poll();
		await statuses.poll();
		const placed = addOrder(fx.sim.state, { total: 31 });
		expect((await orders.poll()).map((item) => item.json.order_unique_id)).toEqual([
			placed.order_unique_id,
		]);
		expect(await statuses.poll()).toEqual([]);
		placed.cart_status_raw = 'Shipped';
		placed.status_changed_at = fx.sim.state.now();
		expect(
			(await statuses.poll()).map((item) => [
				item.json.order_unique_id,
				item.json.previous_status,
				item.json.cart_status_raw,
			]),
		).toEqual([[placed.order_unique_id, 'Approved', 'Shipped']]);
		expect(await orders.poll()).toEqual([]);
		expect(await statuses.poll()).toEqual([]);
		expectNoPagination();
	});

	it('Template Status Changed', async () => {
		const poller = earlierPoller({ event: 'templateStatusChanged', phoneNumberId: numberParam() });
		await poller.poll();
		const pending = fx.sim.state.templates.find(
			(entry) => entry.phone_number_id === NUMBER && entry.status === 'Submitted',
		)!;
		decideTemplate(fx.sim.state, { template_id: String(pending.template_id), status: 'APPROVED' });
		expect(
			(await poller.poll()).map((item) => [
				item.json.template_id,
				item.json.previous_status,
				item.json.status,
			]),
		).toEqual([[pending.template_id, 'Submitted', 'APPROVED']]);
		expect(await poller.poll()).toEqual([]);
		expectNoPagination();
	});

	it('the current form against such a deployment fails visibly (the simulator refuses pagination parameters), so these tests cannot pass by accident', async () => {
		const poller = createPoller(
			new BotSailorTrigger(),
			{ event: 'newSubscriber', phoneNumberId: numberParam() },
			fx.credentials,
		);
		await expect(poller.poll()).rejects.toThrow(/Unknown parameter: limit, offset/);
	});
});
