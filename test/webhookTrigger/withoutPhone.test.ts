/**
 * Customers without a phone number (Meta, 2026: a business-scoped `user_id`, a username): the simulator's webhooks in
 * Meta's shape (SPEC-GAP: test/simulator/webhooks.ts customerIdsOf, `/__control/customer-ids`) posting to the Webhook
 * Trigger through a real HTTP hop; and the phone fields of the action node refusing a user id or a username.
 */
import { BotSailorWebhookTrigger } from '../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node';
import { customerOf, noticeWithoutPhone } from '../../nodes/BotSailorWebhookTrigger/payload/fields';
import { runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { NUMBER, numberById } from '../harness/params';
import { addMessage, setMessageStatus } from '../simulator/control';
import { control } from '../harness/deliveryStatuses';
import { useWebhookReceiver } from './receiver';
import { WebhookRunner } from './webhookHarness';

const fx = useSimulator();

const hooks = useWebhookReceiver(
	() =>
		new WebhookRunner({
			webhookType: new BotSailorWebhookTrigger(),
			parameters: {
				event: 'anyEvent',
				phoneNumberId: numberById,
				statuses: ['sent', 'delivered', 'read', 'failed'],
			},
		}),
);
beforeEach(() =>
	fx.sim.state.webhooks.configure(NUMBER, {
		urls: { incoming_message: hooks.receiver.url, message_status: hooks.receiver.url },
	}),
);

/** Two customers the simulator keeps under these numbers; the webhooks carry Meta's ids and no phone number. */
const AVA = { chat: '15550100001', user_id: 'US.13491208655302741918', username: 'ava.bakes' };
const BEN = { chat: '15550100002', user_id: 'US.13491208655302741919', parent_user_id: 'US.1' };

function withoutPhone() {
	control(fx.sim, 'customer-ids', {
		customers: {
			[AVA.chat]: { user_id: AVA.user_id, username: AVA.username, no_phone: true },
			[BEN.chat]: { user_id: BEN.user_id, parent_user_id: BEN.parent_user_id, no_phone: true },
		},
	});
}
const write = (text: string, phone: string) =>
	addMessage(fx.sim.state, { phone_number_id: NUMBER, phone_number: phone, text });

describe('the Webhook Trigger, customers without a phone number', () => {
	// First in the file: the warning is once per process (module), and the runs below meet such customers too.
	it('says once, at run time, that it met a customer without a phone number (the assumption checked)', () => {
		const warnings: string[] = [];
		const logger = { warn: (message: string) => warnings.push(message) };
		noticeWithoutPhone({ chat_id: '15550100001', user_message: 'hi' }, logger);
		expect(warnings).toEqual([]);
		noticeWithoutPhone({ chat_id: '', user_id: AVA.user_id, user_message: 'hi' }, logger);
		noticeWithoutPhone({ user_id: BEN.user_id, user_message: 'hi' }, logger);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/without a phone number.*user_id/);
	});
	it('starts one run per message with user_id, username and parent_user_id passed through; a second delivery starts nothing', async () => {
		withoutPhone();
		fx.sim.state.webhooks.addFault({ kind: 'twice', times: 1 });
		const message = write('Do you bake on Sundays?', AVA.chat);
		await fx.sim.state.webhooks.idle();
		expect(hooks.receiver.received.map((entry) => entry.status)).toEqual([200, 200]);
		expect(hooks.receiver.received[0].body).toMatchObject({ chat_id: '', user_id: AVA.user_id });
		expect(hooks.runner.executions).toHaveLength(1);
		expect(hooks.runner.started()).toEqual([
			expect.objectContaining({
				event_type: 'incomingMessage',
				text: 'Do you bake on Sundays?',
				wa_message_id: message.wa_message_id,
				phone_number: '',
				user_id: AVA.user_id,
				username: AVA.username,
				subscriber_id: `${AVA.user_id}-11`,
			}),
		]);
	});

	it('keeps two customers apart: each message and each status starts its own run, with its own ids', async () => {
		withoutPhone();
		const fromAva = write('yes', AVA.chat);
		const fromBen = write('yes', BEN.chat);
		await fx.sim.state.webhooks.idle();
		const started = hooks.runner.started();
		expect(started.map((item) => [item.wa_message_id, item.user_id])).toEqual([
			[fromAva.wa_message_id, AVA.user_id],
			[fromBen.wa_message_id, BEN.user_id],
		]);
		expect(started[1]).toMatchObject({ parent_user_id: BEN.parent_user_id });
		expect(started[1]).not.toHaveProperty('username');
		// Statuses without a wa_message_id, same time and status: told apart by the customer, not taken for duplicates.
		const bodies = [AVA, BEN].map((customer) => ({
			webhook_type: 'message_status_change',
			message_status: 'delivered',
			status_time: '2026-11-20 10:15:02',
			failed_reason: '',
			chat_id: '',
			user_id: customer.user_id,
			whatsapp_bot_id: 11,
		}));
		expect(customerOf(bodies[0])).not.toBe(customerOf(bodies[1]));
		for (const body of bodies) {
			const answer = await hooks.runner.deliver({ body });
			expect(answer.body).not.toMatchObject({ duplicate: true });
		}
		expect(hooks.runner.started().slice(2)).toEqual([
			expect.objectContaining({ message_status: 'delivered', user_id: AVA.user_id }),
			expect.objectContaining({ message_status: 'delivered', user_id: BEN.user_id }),
		]);
	});

	it("a status of a message to such a customer carries Meta's ids", async () => {
		withoutPhone();
		const sent = addMessage(fx.sim.state, {
			phone_number_id: NUMBER,
			phone_number: AVA.chat,
			text: 'Your cake is ready',
			sender: 'bot',
		});
		setMessageStatus(fx.sim.state, { wa_message_id: sent.wa_message_id, status: 'delivered' });
		await fx.sim.state.webhooks.idle();
		expect(hooks.runner.started()).toEqual([
			expect.objectContaining({
				event_type: 'messageStatusChanged',
				wa_message_id: sent.wa_message_id,
				phone_number: '',
				user_id: AVA.user_id,
			}),
		]);
	});
});

describe('phone fields refuse a user id or a username, saying what the API accepts', () => {
	it.each([AVA.user_id, '@ava.bakes'])('%s', async (value) => {
		const { error } = await runNode({
			credentials: fx.credentials,
			parameters: {
				resource: 'message',
				operation: 'sendText',
				phoneNumberId: numberById,
				phoneNumber: value,
				message: 'Hello',
			} as never,
		});
		expect(error?.message).toMatch(
			/^Subscriber is a WhatsApp user ID or username .*not a phone number: the platform's API accepts only phone numbers here today/,
		);
		expect(fx.sim.requests.filter((request) => request.path === '/whatsapp/send')).toHaveLength(0);
	});
});
