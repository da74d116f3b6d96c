import type { IDataObject } from 'n8n-workflow';
import {
	addMessage,
	addOrder,
	addSubscriber,
	decideTemplate,
	setMessageStatus,
} from '../simulator/control';
import type { FaultKind } from '../simulator/faults';
import { seededRandom } from '../simulator/random';
import type { Poller } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { numberParam, triggerPoller } from './helpers';
import { NUMBER } from '../harness/params';

const fx = useSimulator();

const FAULT_KINDS: FaultKind[] = ['html500', 'status0', 'malformed', 'drop'];
const ROUNDS = 300;
/** Static data of one trigger node stays under this, whatever happened. */
const STATIC_DATA_CAP = 64 * 1024;

interface Subject {
	name: string;
	poller: Poller;
	paths: string[];
	/** Checks what one successful poll emitted against the model, then updates the model. */
	check(items: IDataObject[]): void;
}

const sortedCopy = (values: string[]) => [...values].sort();

describe('BotSailor Trigger: randomized run with injected faults', () => {
	it(`emits exactly the injected changes over ${ROUNDS} polls per event, with bounded static data`, async () => {
		const random = seededRandom(20260115);
		const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)];
		const state = fx.sim.state;
		const seeded = state
			.subscribersOf(NUMBER)
			.slice(0, 40)
			.map((entry) => entry.chat_id);
		const poller = (parameters: IDataObject) => triggerPoller(fx, parameters as never);

		// What was injected, and what each status event last saw (its last successful poll).
		const incoming: string[] = [];
		const outgoing: Array<{ wa: string; status: string }> = [];
		const orders: Array<{ order_unique_id: string }> = [];
		const emitted = {
			newMessage: [] as string[],
			newSubscriber: [] as string[],
			newCatalogOrder: [] as string[],
		};
		const seenStatus = new Map<string, string>();
		let statusMismatches: string[] = [];
		const orderStatus = new Map<string, string>(
			state.orders.map((order) => [String(order.order_unique_id), String(order.cart_status_raw)]),
		);
		const templateStatus = new Map<string, string>(
			state.templates
				.filter((entry) => entry.phone_number_id === NUMBER)
				.map((entry) => [String(entry.template_id), String(entry.status)]),
		);
		const mismatch = (label: string, got: string[], want: string[]) => {
			if (JSON.stringify(sortedCopy(got)) !== JSON.stringify(sortedCopy(want)))
				statusMismatches.push(`${label}: got ${got} want ${want}`);
		};

		const subjects: Subject[] = [
			{
				name: 'newMessage',
				poller: poller({ event: 'newMessage', phoneNumberId: numberParam() }),
				paths: ['/whatsapp/subscriber/list', '/whatsapp/get/conversation'],
				check: (items) =>
					emitted.newMessage.push(...items.map((item) => String(item.wa_message_id))),
			},
			{
				name: 'messageStatusChanged',
				poller: poller({
					event: 'messageStatusChanged',
					phoneNumberId: numberParam(),
					statuses: ['sent', 'delivered', 'read', 'failed'],
				}),
				paths: [
					'/whatsapp/subscriber/list',
					'/whatsapp/get/conversation',
					'/whatsapp/get/message-status',
				],
				check: (items) => {
					const want: string[] = [];
					for (const { wa } of outgoing) {
						const message = state.messages.find((entry) => entry.wa_message_id === wa)!;
						const before = seenStatus.get(wa);
						const now = String(message.message_status);
						if (before === undefined ? now !== 'sent' : now !== before)
							want.push(`${wa}:${before ?? null}>${now}`);
						seenStatus.set(wa, now);
					}
					mismatch(
						'status',
						items.map(
							(item) => `${item.wa_message_id}:${item.previous_status}>${item.message_status}`,
						),
						want,
					);
				},
			},
			{
				name: 'newSubscriber',
				poller: poller({ event: 'newSubscriber', phoneNumberId: numberParam() }),
				paths: ['/whatsapp/subscriber/list'],
				check: (items) =>
					emitted.newSubscriber.push(...items.map((item) => String(item.subscriber_id))),
			},
			{
				name: 'newCatalogOrder',
				poller: poller({ event: 'newCatalogOrder' }),
				paths: ['/whatsapp/catalog/order/list'],
				check: (items) =>
					emitted.newCatalogOrder.push(...items.map((item) => String(item.order_unique_id))),
			},
			{
				name: 'catalogOrderStatusChanged',
				poller: poller({ event: 'catalogOrderStatusChanged' }),
				paths: ['/whatsapp/catalog/order/list'],
				check: (items) => {
					const want: string[] = [];
					for (const order of state.orders) {
						const id = String(order.order_unique_id);
						const before = orderStatus.get(id);
						const now = String(order.cart_status_raw);
						const changedSincePlaced = String(order.status_changed_at) > String(order.ordered_at);
						if (before === undefined ? changedSincePlaced : now !== before)
							want.push(`${id}:${before ?? null}>${now}`);
						orderStatus.set(id, now);
					}
					mismatch(
						'order',
						items.map(
							(item) => `${item.order_unique_id}:${item.previous_status}>${item.cart_status_raw}`,
						),
						want,
					);
				},
			},
			{
				name: 'templateStatusChanged',
				poller: poller({ event: 'templateStatusChanged', phoneNumberId: numberParam() }),
				paths: ['/whatsapp/template/list'],
				check: (items) => {
					const want: string[] = [];
					for (const template of state.templates.filter(
						(entry) => entry.phone_number_id === NUMBER,
					)) {
						const id = String(template.template_id);
						if (templateStatus.get(id) !== String(template.status))
							want.push(`${id}:${templateStatus.get(id)}>${template.status}`);
						templateStatus.set(id, String(template.status));
					}
					mismatch(
						'template',
						items.map((item) => `${item.template_id}:${item.previous_status}>${item.status}`),
						want,
					);
				},
			},
		];

		for (const subject of subjects) expect(await subject.poller.poll()).toEqual([]);
		const firstSubscriberId = Math.max(
			...state.subscribersOf(NUMBER).map((entry) => entry.subscriber_id),
		);
		let faultsInjected = 0;
		let failedPolls = 0;
		let phoneCounter = 0;

		const inject = () => {
			const roll = random();
			if (roll < 0.3) {
				const phone =
					random() < 0.1 ? `4477009${String(++phoneCounter).padStart(5, '0')}` : pick(seeded);
				const outgoingMessage = random() < 0.4;
				const message = addMessage(state, {
					phone_number: phone,
					text: `r${roll}`,
					sender: outgoingMessage ? pick(['bot', 'agent']) : 'user',
				});
				if (outgoingMessage) outgoing.push({ wa: message.wa_message_id, status: 'sent' });
				else incoming.push(message.wa_message_id);
			} else if (roll < 0.5) {
				// Status moves on the 50 most recent messages that can still move (the tracked bound is 100).
				const open = outgoing
					.filter((entry) => entry.status === 'sent' || entry.status === 'delivered')
					.slice(-50);
				if (!open.length) return;
				const target = pick(open);
				target.status =
					target.status === 'sent' ? pick(['delivered', 'failed']) : pick(['read', 'failed']);
				setMessageStatus(state, { wa_message_id: target.wa, status: target.status });
			} else if (roll < 0.6) {
				addSubscriber(state, {
					phone_number: `4477008${String(++phoneCounter).padStart(5, '0')}`,
					name: 'Rand Om',
				});
			} else if (roll < 0.75) {
				orders.push(addOrder(state, { total: Math.round(random() * 100) }));
			} else if (roll < 0.9) {
				const order = pick(state.orders);
				order.cart_status_raw = pick(
					['Approved', 'Completed', 'Shipped', 'Delivered', 'Refunded'].filter(
						(status) => status !== order.cart_status_raw,
					),
				);
				order.status_changed_at = state.now();
			} else {
				const template = pick(state.templates.filter((entry) => entry.phone_number_id === NUMBER));
				decideTemplate(state, {
					template_id: String(template.template_id),
					status: pick(
						['APPROVED', 'Rejected', 'Submitted'].filter((status) => status !== template.status),
					),
				});
			}
		};

		const pollOnce = async (subject: Subject, allowFault: boolean) => {
			if (allowFault && random() < 0.1) {
				fx.sim.faults.add(pick(subject.paths), { kind: pick(FAULT_KINDS), times: 1 });
				faultsInjected++;
			}
			const before = JSON.stringify(subject.poller.staticData());
			try {
				const items = await subject.poller.poll();
				subject.check(items.map((item) => item.json));
			} catch {
				failedPolls++;
				expect(JSON.stringify(subject.poller.staticData())).toBe(before);
			} finally {
				fx.sim.faults.clear();
			}
			const size = JSON.stringify(subject.poller.staticData()).length;
			expect(size).toBeLessThan(STATIC_DATA_CAP);
		};

		for (let round = 0; round < ROUNDS; round++) {
			const changes = Math.floor(random() * 4);
			for (let index = 0; index < changes; index++) inject();
			for (const subject of subjects) await pollOnce(subject, true);
		}
		// A last fault-free poll for everyone collects what the failed polls left.
		for (const subject of subjects) await pollOnce(subject, false);

		expect(faultsInjected).toBeGreaterThan(ROUNDS * 6 * 0.05);
		expect(failedPolls).toBeGreaterThan(0);
		expect(statusMismatches).toEqual([]);
		expect(sortedCopy(emitted.newMessage)).toEqual(sortedCopy(incoming));
		expect(new Set(emitted.newMessage).size).toBe(emitted.newMessage.length);
		const newSubscribers = state
			.subscribersOf(NUMBER)
			.filter((entry) => entry.subscriber_id > firstSubscriberId)
			.map((entry) => String(entry.subscriber_id));
		expect(emitted.newSubscriber).toEqual(newSubscribers);
		expect(emitted.newCatalogOrder).toEqual(orders.map((order) => String(order.order_unique_id)));
		statusMismatches = [];
	}, 420_000); // the limit is for a loaded CI machine (39 s idle, four test files at once), not a performance check
});
