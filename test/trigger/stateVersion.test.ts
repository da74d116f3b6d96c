import type { IDataObject, INodeParameters } from 'n8n-workflow';
import type { Poller } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import {
	addMessage,
	addOrder,
	addSubscriber,
	decideTemplate,
	setMessageStatus,
} from '../simulator/control';
import { numberParam, triggerPoller } from './helpers';
import { NUMBER } from '../harness/params';

/** The stored state carries the event's state version; a version the code does not read starts from now. */
const fx = useSimulator();
const KEY = 'node:BotSailor Trigger';
const stored = (poller: Poller) => poller.staticData()[KEY] as IDataObject;
const store = (poller: Poller, value: IDataObject) => void (poller.staticData()[KEY] = value);
let count = 0;

/** Each event, its parameters, its current version, and one new record of its kind (returns what identifies it in the items). */
const EVENTS: Array<{
	event: string;
	parameters: INodeParameters;
	version: number;
	key: string;
	happen(): string;
}> = [
	{
		event: 'newMessage',
		parameters: { event: 'newMessage', phoneNumberId: numberParam() },
		version: 1,
		key: 'wa_message_id',
		happen: () =>
			addMessage(fx.sim.state, {
				phone_number: fx.sim.state.subscribersOf(NUMBER)[3].chat_id,
				text: 'hi',
			}).wa_message_id,
	},
	{
		event: 'messageStatusChanged',
		parameters: {
			event: 'messageStatusChanged',
			phoneNumberId: numberParam(),
			statuses: ['sent', 'delivered', 'read', 'failed'],
		},
		version: 2,
		key: 'wa_message_id',
		happen: () => {
			const sent = addMessage(fx.sim.state, {
				phone_number: fx.sim.state.subscribersOf(NUMBER)[3].chat_id,
				text: 'hi',
				sender: 'bot',
			});
			return setMessageStatus(fx.sim.state, {
				wa_message_id: sent.wa_message_id,
				status: 'delivered',
			}).wa_message_id;
		},
	},
	{
		event: 'newSubscriber',
		parameters: { event: 'newSubscriber', phoneNumberId: numberParam() },
		version: 1,
		key: 'subscriber_id',
		happen: () =>
			String(
				addSubscriber(fx.sim.state, {
					phone_number: `4477009001${String(++count).padStart(2, '0')}`,
					name: 'Zoe Quinn',
				}).subscriber_id,
			),
	},
	{
		event: 'newCatalogOrder',
		parameters: { event: 'newCatalogOrder' },
		version: 1,
		key: 'order_unique_id',
		happen: () => String(addOrder(fx.sim.state, {}).order_unique_id),
	},
	{
		event: 'catalogOrderStatusChanged',
		parameters: { event: 'catalogOrderStatusChanged' },
		version: 1,
		key: 'order_unique_id',
		happen: () => {
			const order = fx.sim.state.orders[0];
			order.cart_status_raw = `Shipped ${++count}`;
			order.status_changed_at = fx.sim.state.now();
			return String(order.order_unique_id);
		},
	},
	{
		event: 'templateStatusChanged',
		parameters: { event: 'templateStatusChanged', phoneNumberId: numberParam() },
		version: 1,
		key: 'template_id',
		happen: () => {
			const template = fx.sim.state.templates.find((entry) => entry.phone_number_id === NUMBER)!;
			return String(
				decideTemplate(fx.sim.state, {
					template_id: String(template.template_id),
					status: `APPROVED ${++count}`,
				}).template_id,
			);
		},
	},
];

describe('BotSailor Trigger: versioned state', () => {
	it.each(EVENTS)(
		'$event stores its state version ($version); a state of an unknown version is replaced by a fresh start from now',
		async ({ parameters, version, key, happen }) => {
			const poller = triggerPoller(fx, parameters);
			await poller.poll();
			expect(stored(poller)).toMatchObject({ version });
			const scope = stored(poller).scope;

			// Written by a release this code does not know (newer, or garbage): never read, never fed to the event.
			for (const unknown of [
				{ version: version + 1, state: { nonsense: true, page: 'x', tracked: 'y', activity: 1 } },
				{ version: 'two', state: [] },
			]) {
				happen(); // happened while the unknown state was stored: not replayed by a fresh start
				store(poller, { scope, ...unknown } as IDataObject);
				expect(await poller.poll()).toEqual([]);
				expect(stored(poller)).toMatchObject({ scope, version });
			}
			const fresh = happen();
			expect((await poller.poll()).map((item) => String(item.json[key]))).toEqual([fresh]);
			expect(await poller.poll()).toEqual([]);
		},
	);

	it('Message Status Changed reads a version 1 state (one-letter keys, stored before versions) and goes on from it', async () => {
		const poller = triggerPoller(fx, {
			event: 'messageStatusChanged',
			phoneNumberId: numberParam(),
		});
		await poller.poll();
		const chat = fx.sim.state.subscribersOf(NUMBER)[4];
		const sent = addMessage(fx.sim.state, {
			phone_number: chat.chat_id,
			text: 'Your order shipped',
			sender: 'bot',
		});
		await poller.poll();
		const current = stored(poller) as {
			scope: string;
			state: { activity: IDataObject; tracked: Array<Record<string, string>> };
		};
		expect(current.state.tracked).toEqual([
			{
				waMessageId: sent.wa_message_id,
				phoneNumber: chat.chat_id,
				subscriberName: `${chat.first_name} ${chat.last_name}`,
				status: 'sent',
				sentAt: sent.conversation_time,
				followedSince: expect.any(Number),
				statusSince: expect.any(Number),
				checkedAt: expect.any(Number),
			},
		]);
		// What the previous release stored: no version, one-letter keys.
		const tracked = current.state.tracked.map((entry) => ({
			w: entry.waMessageId,
			p: entry.phoneNumber,
			n: entry.subscriberName,
			s: entry.status,
			t: entry.sentAt,
		}));
		store(poller, { scope: current.scope, state: { activity: current.state.activity, tracked } });
		setMessageStatus(fx.sim.state, { wa_message_id: sent.wa_message_id, status: 'delivered' });
		expect(
			(await poller.poll()).map((item) => [
				item.json.wa_message_id,
				item.json.previous_status,
				item.json.message_status,
			]),
		).toEqual([[sent.wa_message_id, 'sent', 'delivered']]);
		expect(stored(poller)).toMatchObject({
			version: 2,
			state: {
				tracked: [
					expect.objectContaining({ waMessageId: sent.wa_message_id, status: 'delivered' }),
				],
			},
		});

		// A version 1 state that is not one (broken keys) starts from now instead.
		store(poller, {
			scope: current.scope,
			state: { activity: current.state.activity, tracked: [{ w: 1 }] },
		});
		setMessageStatus(fx.sim.state, { wa_message_id: sent.wa_message_id, status: 'read' });
		expect(await poller.poll()).toEqual([]);
		expect(stored(poller)).toMatchObject({ version: 2, state: { tracked: [] } });
	});

	it('states stored before versions existed are version 1: New Subscriber and New Message go on from them', async () => {
		const subscribers = triggerPoller(fx, { event: 'newSubscriber', phoneNumberId: numberParam() });
		const messages = triggerPoller(fx, { event: 'newMessage', phoneNumberId: numberParam() });
		await subscribers.poll();
		await messages.poll();
		for (const poller of [subscribers, messages]) {
			const { scope, state } = stored(poller);
			store(poller, { scope, state: JSON.parse(JSON.stringify(state)) as IDataObject }); // no version
		}
		const zoe = addSubscriber(fx.sim.state, { phone_number: '447700900111', name: 'Zoe Quinn' });
		const hello = addMessage(fx.sim.state, {
			phone_number: fx.sim.state.subscribersOf(NUMBER)[2].chat_id,
			text: 'hello',
		});
		expect((await subscribers.poll()).map((item) => item.json.subscriber_id)).toEqual([
			zoe.subscriber_id,
		]);
		expect((await messages.poll()).map((item) => item.json.wa_message_id)).toEqual([
			hello.wa_message_id,
		]);
	});
});
