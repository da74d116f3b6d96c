/**
 * The polling trigger and customers without a phone number (Meta, 2026: a business-scoped `user_id`, a username):
 * the simulator lists them in Meta's shape (SPEC-GAP: test/simulator/routes/subscriber.ts metaIdsOf,
 * `/__control/customer-ids`): `chat_id` empty, `user_id`, `username`, `parent_user_id`.
 */
import { addMessage } from '../simulator/control';
import { control } from '../harness/deliveryStatuses';
import { useSimulator } from '../harness/simulatorFixture';
import { NUMBER } from '../harness/params';
import { numberParam, pollCounting, triggerPoller } from './helpers';
import { customerOf, warnWithoutPhone } from '../../nodes/shared/conversation/customer';

const fx = useSimulator();

const AVA = { chat: '15550100001', user_id: 'US.13491208655302741918', username: 'ava.bakes' };
/** A customer with a phone number and Meta's ids besides. */
const BEN = { chat: '15550100002', user_id: 'US.13491208655302741919', parent_user_id: 'US.1' };

function customers() {
	control(fx.sim, 'customer-ids', {
		customers: {
			[AVA.chat]: { user_id: AVA.user_id, username: AVA.username, no_phone: true },
			[BEN.chat]: { user_id: BEN.user_id, parent_user_id: BEN.parent_user_id },
		},
	});
}
const write = (text: string, phone: string) =>
	addMessage(fx.sim.state, { phone_number_id: NUMBER, phone_number: phone, text });

describe('BotSailor Trigger → New Message, customers without a phone number', () => {
	it('a customer listed without a phone number neither fails the poll nor hides the others; Meta ids pass through; nothing twice', async () => {
		customers();
		const poller = triggerPoller(fx, { event: 'newMessage', phoneNumberId: numberParam() });
		expect((await pollCounting(fx, poller)).json).toEqual([]);
		const fromBen = write('Two croissants please', BEN.chat);
		// Ava wrote last: first in the list by latest message, before Ben.
		write('Do you bake on Sundays?', AVA.chat);
		const { json } = await pollCounting(fx, poller);
		expect(json).toEqual([
			expect.objectContaining({
				wa_message_id: fromBen.wa_message_id,
				phone_number: BEN.chat,
				user_id: BEN.user_id,
				parent_user_id: BEN.parent_user_id,
			}),
		]);
		expect(json[0]).not.toHaveProperty('username');
		// No conversation read with an empty number (the platform refuses it, and the whole poll with it).
		const reads = fx.sim.requests.filter(
			(request) => request.path === '/whatsapp/get/conversation',
		);
		expect(reads.map((request) => request.body.phone_number)).not.toContain('');
		expect((await pollCounting(fx, poller)).json).toEqual([]);
		// The walk still stops where nothing is new: an idle poll stays cheap with such a customer on top.
		expect((await pollCounting(fx, poller)).requests).toBeLessThanOrEqual(3);
	});

	it('a manual run passes over such a customer too', async () => {
		customers();
		write('Hello', BEN.chat);
		write('Do you bake on Sundays?', AVA.chat);
		const poller = triggerPoller(fx, { event: 'newMessage', phoneNumberId: numberParam() });
		const { json } = await pollCounting(fx, poller, 'manual');
		expect(json).toEqual([expect.objectContaining({ text: 'Hello', user_id: BEN.user_id })]);
	});

	it('the shared customer key never mixes two customers, and says once per source that the assumption did not hold', () => {
		expect(customerOf({ chat_id: '', user_id: AVA.user_id })).toBe(`user_id:${AVA.user_id}`);
		expect(customerOf({ chat_id: '', username: 'US.13491208655302741918' })).not.toBe(
			customerOf({ chat_id: '', user_id: 'US.13491208655302741918' }),
		);
		expect(customerOf({ chat_id: BEN.chat, user_id: BEN.user_id })).toBe(BEN.chat);
		const warnings: string[] = [];
		const logger = { warn: (message: string) => warnings.push(message) };
		warnWithoutPhone('Test Source', { chat_id: BEN.chat, user_id: BEN.user_id }, 'x', logger);
		expect(warnings).toEqual([]);
		warnWithoutPhone('Test Source', { chat_id: '', user_id: AVA.user_id }, 'x', logger);
		warnWithoutPhone('Test Source', { username: AVA.username }, 'x', logger);
		warnWithoutPhone('Other Source', { username: AVA.username }, 'y', logger);
		expect(warnings).toEqual([
			"Test Source: a customer without a phone number (Meta's user_id or username only). x",
			"Other Source: a customer without a phone number (Meta's user_id or username only). y",
		]);
	});
});
