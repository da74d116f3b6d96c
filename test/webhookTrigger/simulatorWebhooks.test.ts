/**
 * The simulator's outgoing webhooks (test/simulator/webhooks.ts) posting to the webhook trigger through
 * a real HTTP hop: what each platform event sends, to which URL, and the delivery faults (twice, late,
 * drop, concurrent) against the node's deduplication.
 */
import { BotSailorWebhookTrigger } from '../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node';
import { useSimulator } from '../harness/simulatorFixture';
import { addMessage, callControl, setMessageStatus } from '../simulator/control';
import { startReceiver, type Receiver } from './receiver';
import { WebhookRunner } from './webhookHarness';
import { NUMBER, OTHER_NUMBER, numberById } from '../harness/params';

const fx = useSimulator();

let receiver: Receiver;
let runner: WebhookRunner;

beforeAll(async () => {
	receiver = await startReceiver(() => runner);
});
afterAll(async () => await receiver.close());
beforeEach(async () => {
	runner = new WebhookRunner({
		webhookType: new BotSailorWebhookTrigger(),
		parameters: {
			event: 'anyEvent',
			phoneNumberId: numberById,
			statuses: ['sent', 'delivered', 'read', 'failed'],
		},
	});
	await runner.activate();
	receiver.received.splice(0);
});

const webhooks = () => fx.sim.state.webhooks;
const write = (text: string, phone = '15550100000', phoneNumberId = NUMBER) =>
	addMessage(fx.sim.state, { phone_number_id: phoneNumberId, phone_number: phone, text });

const control = (action: string, input: unknown = {}) => callControl(fx.sim, action, input);

describe('what the platform posts', () => {
	it("a customer message: the flat JSON of webhooks.md to the number's Incoming Message URL", async () => {
		await control('webhooks', {
			phone_number_id: NUMBER,
			urls: { incoming_message: receiver.url },
		});
		const message = write('price');
		await webhooks().idle();
		expect(receiver.received).toEqual([
			{
				query: {},
				status: 200,
				body: {
					chat_id: '15550100000',
					subscriber_id: '15550100000-11',
					wa_message_id: message.wa_message_id,
					first_name: 'Jonas',
					whatsapp_bot_id: 11,
					whatsapp_bot_name: 'Sunrise Bakery',
					whatsapp_bot_username: 'sunrisebakery',
					user_message: 'price',
					label_names: 'VIP',
				},
			},
		]);
		expect(runner.started()).toEqual([
			expect.objectContaining({
				event_type: 'incomingMessage',
				text: 'price',
				wa_message_id: message.wa_message_id,
			}),
		]);
	});

	it('each event to its own URL; nothing without a URL; each number its own settings', async () => {
		webhooks().configure(NUMBER, {
			urls: {
				incoming_message: receiver.url,
				message_status: `${receiver.url}?secret=x`,
				conversation_status: receiver.url,
				flow_data: receiver.url,
			},
		});
		write('hi');
		write('hi from the UK number', '447700900123', OTHER_NUMBER); // no URL on that number
		const sent = addMessage(fx.sim.state, {
			phone_number_id: NUMBER,
			phone_number: '15550100000',
			text: 'Thanks!',
			sender: 'bot',
		}); // no outgoing URL
		setMessageStatus(fx.sim.state, { wa_message_id: sent.wa_message_id, status: 'delivered' });
		const marked = await fetch(`${fx.sim.url}/api/v1/whatsapp/subscriber/chat/mark-conversation`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({
				apiToken: fx.sim.token,
				phone_number_id: NUMBER,
				phone_number: '15550100000',
				action: 'resolved',
			}),
		});
		expect(marked.ok).toBe(true);
		await control('flow-data', {
			phone_number_id: NUMBER,
			phone_number: '15550100000',
			postbackid: 'order-cake',
			user_message: 'cake',
			user_input_data: { size: 'L' },
		});
		await webhooks().idle();
		expect(webhooks().deliveries.map((delivery) => delivery.event)).toEqual([
			'incoming_message',
			'message_status',
			'conversation_status',
			'flow_data',
		]);
		// The POSTs leave at once and may arrive in any order.
		const of = (marker: string) =>
			receiver.received.find((entry) => marker in (entry.body as object))!;
		expect(of('webhook_type').query).toEqual({ secret: 'x' });
		expect(of('webhook_type').body).toEqual(
			expect.objectContaining({
				webhook_type: 'message_status_change',
				message_status: 'delivered',
				wa_message_id: sent.wa_message_id,
			}),
		);
		expect(of('event').body).toEqual(
			expect.objectContaining({
				event: 'conversation.resolved',
				action: 'resolved',
				agent_name: 'API',
				chat_id: '15550100000',
			}),
		);
		expect(of('postbackid').body).toEqual({
			first_name: 'Jonas',
			chat_id: '15550100000',
			postbackid: 'order-cake',
			user_input_data: { size: 'L' },
			user_message: 'cake',
			whatsapp_bot_username: 'sunrisebakery',
		});
		expect(
			runner
				.started()
				.map((item) => item.event_type)
				.sort(),
		).toEqual(['conversationStatusChanged', 'flowData', 'incomingMessage', 'messageStatusChanged']);
	});

	it.each(['likeIncoming', 'noText'] as const)(
		'the outgoing-message webhook (%s) posted to the Outgoing Message URL is an outgoing message, never incoming',
		async (outgoing) => {
			webhooks().configure(NUMBER, {
				urls: { incoming_message: receiver.url, outgoing_message: receiver.outgoingUrl },
				outgoing,
			});
			const reply = addMessage(fx.sim.state, {
				phone_number_id: NUMBER,
				phone_number: '15550100000',
				text: 'Thanks!',
				sender: 'bot',
			});
			await webhooks().idle();
			expect(receiver.received).toHaveLength(1);
			if (outgoing === 'likeIncoming')
				expect(receiver.received[0].body).toMatchObject({ user_message: 'Thanks!' });
			else expect(receiver.received[0].body).not.toHaveProperty('user_message');
			expect(runner.started()).toEqual([
				expect.objectContaining({
					event_type: 'outgoingMessage',
					direction: 'outgoing',
					sender: 'bot',
					wa_message_id: reply.wa_message_id,
					text: outgoing === 'likeIncoming' ? 'Thanks!' : '',
				}),
			]);
		},
	);

	it('a node on Incoming Message ignores what reaches its Outgoing Message URL; a node on Outgoing Message ignores incoming ones', async () => {
		webhooks().configure(NUMBER, {
			urls: { incoming_message: receiver.url, outgoing_message: receiver.outgoingUrl },
		});
		for (const event of ['incomingMessage', 'outgoingMessage']) {
			runner = new WebhookRunner({
				webhookType: new BotSailorWebhookTrigger(),
				parameters: { event, phoneNumberId: numberById },
			});
			await runner.activate();
			write('a question');
			addMessage(fx.sim.state, {
				phone_number_id: NUMBER,
				phone_number: '15550100000',
				text: 'an answer',
				sender: 'bot',
			});
			await webhooks().idle();
			expect(runner.started().map((item) => [item.event_type, item.text])).toEqual([
				event === 'incomingMessage'
					? ['incomingMessage', 'a question']
					: ['outgoingMessage', 'an answer'],
			]);
		}
	});

	it.each([
		['json', 'text/plain'],
		['json', ''],
		['json', 'application/octet-stream'],
		['form', 'text/plain'],
		['form', ''],
	] as const)(
		'a %s body with Content-Type "%s" (not recorded which one the platform sends) starts the workflow',
		async (format, contentType) => {
			webhooks().configure(NUMBER, {
				urls: { incoming_message: receiver.url },
				format,
				contentType,
			});
			const message = write('is it open?');
			await webhooks().idle();
			expect(receiver.received[0].status).toBe(200);
			expect(runner.started()).toEqual([
				expect.objectContaining({
					event_type: 'incomingMessage',
					text: 'is it open?',
					wa_message_id: message.wa_message_id,
				}),
			]);
		},
	);

	it('form-encoded bodies when the number is set so', async () => {
		webhooks().configure(NUMBER, {
			urls: { incoming_message: receiver.url, flow_data: receiver.url },
			format: 'form',
		});
		write('hello');
		await control('flow-data', {
			phone_number_id: NUMBER,
			phone_number: '15550100000',
			user_input_data: { size: 'L' },
		});
		await webhooks().idle();
		expect(receiver.received[0].body).toEqual(
			expect.objectContaining({ whatsapp_bot_id: '11', user_message: 'hello' }),
		);
		expect(runner.started()).toEqual([
			expect.objectContaining({
				event_type: 'incomingMessage',
				whatsapp_bot_id: 11,
				text: 'hello',
			}),
			expect.objectContaining({ event_type: 'flowData', user_input_data: { size: 'L' } }),
		]);
	});

	it('media as the placeholder text', async () => {
		webhooks().configure(NUMBER, { urls: { incoming_message: receiver.url } });
		addMessage(fx.sim.state, {
			phone_number_id: NUMBER,
			phone_number: '15550100000',
			content: { type: 'image', image: { id: 'm1', caption: 'blue one' } },
		});
		await webhooks().idle();
		expect(receiver.received[0].body).toEqual(
			expect.objectContaining({ user_message: '#ATTACHMENT:Photo# blue one' }),
		);
		expect(runner.started()).toEqual([
			expect.objectContaining({ message_type: 'image', caption: 'blue one' }),
		]);
	});
});

describe('delivery faults', () => {
	beforeEach(() =>
		webhooks().configure(NUMBER, {
			urls: { incoming_message: receiver.url, message_status: receiver.url },
		}),
	);

	it('twice: two POSTs, one execution', async () => {
		webhooks().addFault({ kind: 'twice', times: 1 });
		write('twice');
		await webhooks().idle();
		expect(receiver.received.map((entry) => entry.status)).toEqual([200, 200]);
		expect(runner.executions).toHaveLength(1);
	});

	it('concurrent: five identical POSTs at once, one execution', async () => {
		webhooks().addFault({ kind: 'concurrent', copies: 5, times: 1 });
		write('five at once');
		await webhooks().idle();
		expect(
			webhooks().deliveries.filter((delivery) => delivery.fault === 'concurrent'),
		).toHaveLength(5);
		expect(receiver.received).toHaveLength(5);
		expect(runner.executions).toHaveLength(1);
	});

	it('late: the POST leaves after the delay and still starts the workflow once', async () => {
		webhooks().addFault({ kind: 'late', delayMs: 300, times: 1 });
		write('late');
		write('on time');
		// No look at 100 ms (on a loaded machine the on-time POST may take longer): the order and the delay prove it.
		await webhooks().idle();
		expect(runner.started().map((item) => item.text)).toEqual(['on time', 'late']);
		const late = webhooks().deliveries.find((delivery) => delivery.fault === 'late')!;
		expect(late.sentAt! - late.emittedAt).toBeGreaterThanOrEqual(290);
	});

	it('drop: nothing is posted (and nothing re-sent)', async () => {
		webhooks().addFault({ kind: 'drop', everyNth: 5 });
		for (let index = 0; index < 10; index++) write(`message ${index}`);
		await webhooks().idle();
		expect(webhooks().deliveries.filter((delivery) => delivery.dropped)).toHaveLength(2);
		expect(
			runner
				.started()
				.map((item) => item.text)
				.sort(),
		).toEqual([
			'message 0',
			'message 1',
			'message 2',
			'message 3',
			'message 5',
			'message 6',
			'message 7',
			'message 8',
		]);
	});

	it('faults can target one event, and statuses are deduplicated per status', async () => {
		webhooks().addFault({ kind: 'twice', event: 'message_status' });
		const sent = addMessage(fx.sim.state, {
			phone_number_id: NUMBER,
			phone_number: '15550100000',
			text: 'Your order',
			sender: 'bot',
		});
		write('thanks');
		setMessageStatus(fx.sim.state, { wa_message_id: sent.wa_message_id, status: 'delivered' });
		setMessageStatus(fx.sim.state, { wa_message_id: sent.wa_message_id, status: 'read' });
		await webhooks().idle();
		expect(receiver.received).toHaveLength(5);
		expect(
			runner
				.started()
				.map((item) => item.message_status ?? item.text)
				.sort(),
		).toEqual(['delivered', 'read', 'thanks']);
	});

	it('the control API sets faults and reads deliveries over HTTP (for the e2e suite and the bench)', async () => {
		await control('webhook-fault', { kind: 'twice', times: 1 });
		write('over http');
		await webhooks().idle();
		const result = await control('webhook-deliveries', {});
		expect(result).toEqual([
			expect.objectContaining({ copy: 1, status: 200, fault: 'twice' }),
			expect.objectContaining({ copy: 2, status: 200, fault: 'twice' }),
		]);
		await control('webhook-clear-faults', {});
		await control('webhook-deliveries', { clear: true });
		expect(webhooks().deliveries).toEqual([]);
	});
});
