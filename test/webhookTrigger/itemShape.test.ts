/**
 * Two triggers, one item shape: for a message the simulator records and posts to its webhook URL, the
 * webhook trigger's Incoming Message item carries every field the polling trigger's New Message item
 * has; with Fetch Full Message it is the same item, value for value.
 */
import type { IDataObject } from 'n8n-workflow';
import { BotSailorTrigger } from '../../nodes/BotSailorTrigger/BotSailorTrigger.node';
import { BotSailorWebhookTrigger } from '../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node';
import { createPoller } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { addMessage } from '../simulator/control';
import { SIMULATOR_TEST_CREDENTIAL } from '../simulator/server';
import { startReceiver, type Receiver } from './receiver';
import { WebhookRunner } from './webhookHarness';
import { NUMBER, fromList, numberById } from '../harness/params';

const fx = useSimulator();

let receiver: Receiver;
let runner: WebhookRunner;

beforeAll(async () => {
	receiver = await startReceiver(() => runner);
});
afterAll(async () => await receiver.close());

async function setUp(fetchFullMessage: boolean) {
	runner = new WebhookRunner({
		webhookType: new BotSailorWebhookTrigger(),
		parameters: { event: 'incomingMessage', phoneNumberId: numberById, fetchFullMessage },
		credentials: fx.credentials,
	});
	await runner.activate();
	fx.sim.state.webhooks.configure(NUMBER, { urls: { incoming_message: receiver.url } });
	const poller = createPoller(
		new BotSailorTrigger(),
		{ event: 'newMessage', phoneNumberId: numberById },
		fx.credentials,
	);
	await poller.poll(); // activation: the cursor starts now
	return poller;
}

/** The same customer messages, seen by both triggers. */
async function bothItems(
	fetchFullMessage: boolean,
	contents: unknown[],
): Promise<Array<{ polled: IDataObject; pushed: IDataObject }>> {
	const poller = await setUp(fetchFullMessage);
	for (const content of contents)
		addMessage(fx.sim.state, { phone_number_id: NUMBER, phone_number: '15550100000', content });
	await fx.sim.state.webhooks.idle();
	const polled = (await poller.poll()).map((item) => item.json as IDataObject);
	const pushed = runner.started();
	expect(pushed).toHaveLength(contents.length);
	expect(polled).toHaveLength(contents.length);
	return polled.map((item, index) => ({ polled: item, pushed: pushed[index] }));
}

const CONTENTS = [
	{ type: 'text', text: { body: 'Do you deliver on Sundays?' } },
	{
		type: 'image',
		image: { id: 'media-1', mime_type: 'image/jpeg', caption: 'This one, in blue' },
	},
	{ type: 'document', document: { id: 'media-2', filename: 'order.pdf' } },
];

describe('Incoming Message item vs the polling New Message item', () => {
	it('with Fetch Full Message: the same item, value for value, plus event_type and webhook_body', async () => {
		for (const { polled, pushed } of await bothItems(true, CONTENTS)) {
			const { event_type, webhook_body, ...rest } = pushed;
			expect(rest).toEqual(polled);
			expect(Object.keys(rest)).toEqual(Object.keys(polled)); // same order too
			expect(event_type).toBe('incomingMessage');
			expect(webhook_body).toEqual(
				expect.objectContaining({ chat_id: '15550100000', wa_message_id: polled.wa_message_id }),
			);
		}
	});

	it('without it: every polling field is there; text, type, caption, ids and direction equal; first name only; the rest null', async () => {
		const same = [
			'whatsapp_bot_subscriber_subscriber_id',
			'whatsapp_bot_id',
			'sender',
			'agent_name',
			'wa_message_id',
			'reaction_data',
			'message_status',
			'failed_reason',
			'text',
			'message_type',
			'caption',
			'direction',
			'phone_number',
			'phone_number_id',
		];
		for (const { polled, pushed } of await bothItems(false, CONTENTS)) {
			expect(Object.keys(pushed)).toEqual(expect.arrayContaining(Object.keys(polled)));
			// In the polling trigger's order (text, type, direction, phone and name first).
			expect(Object.keys(pushed).filter((key) => key in polled)).toEqual(Object.keys(polled));
			for (const field of same)
				expect({ field, value: pushed[field] }).toEqual({ field, value: polled[field] });
			expect(pushed).toEqual(
				expect.objectContaining({
					id: null,
					message_content: null,
					conversation_time: null,
					delivery_status_updated_at: null,
				}),
			);
			// The webhook carries the first name only.
			expect(pushed.subscriber_name).toBe('Jonas');
			expect(polled.subscriber_name).toBe('Jonas Silva');
			// The webhook's subscriber_id is `<phone>-<bot id>`; the polling one is the numeric id (Fetch Full Message gives that).
			expect(pushed.subscriber_id).toBe('15550100000-11');
			expect(typeof polled.subscriber_id).toBe('number');
		}
		// Two API requests per message are the cost of Fetch Full Message; without it, none.
		expect(
			fx.sim.requests.filter((request) => request.path === '/whatsapp/subscriber/get'),
		).toHaveLength(0);
	});

	it('the token is never needed to receive, and never in an item, even when the fetch fails', async () => {
		const poller = await setUp(true);
		void poller;
		fx.sim.faults.add('/whatsapp/get/conversation', { kind: 'unauthorized' });
		addMessage(fx.sim.state, {
			phone_number_id: NUMBER,
			phone_number: '15550100000',
			text: 'hello',
		});
		await fx.sim.state.webhooks.idle();
		const [item] = runner.started();
		expect(item).toEqual(
			expect.objectContaining({ text: 'hello', full_message_error: expect.any(String) }),
		);
		expect(JSON.stringify(runner.started())).not.toContain(SIMULATOR_TEST_CREDENTIAL);
	});

	it('without a WhatsApp Number (optional, as on a new node) a message still starts the workflow; Fetch Full Message says what it needs', async () => {
		runner = new WebhookRunner({
			webhookType: new BotSailorWebhookTrigger(),
			parameters: {
				event: 'incomingMessage',
				phoneNumberId: fromList(''),
				fetchFullMessage: true,
			},
			credentials: fx.credentials,
		});
		await runner.activate();
		fx.sim.state.webhooks.configure(NUMBER, { urls: { incoming_message: receiver.url } });
		addMessage(fx.sim.state, { phone_number_id: NUMBER, phone_number: '15550100000', text: 'hi' });
		await fx.sim.state.webhooks.idle();
		expect(runner.started()).toEqual([
			expect.objectContaining({
				text: 'hi',
				full_message_error: 'Fetch Full Message needs the WhatsApp Number',
			}),
		]);
		expect(fx.sim.requests.filter((request) => request.path.startsWith('/whatsapp/'))).toEqual([]);
	});
});
