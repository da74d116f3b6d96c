/**
 * A send answering a trigger's item for a customer without a phone number (Meta, 2026: `user_id`, `username`; SPEC-GAP:
 * the platform's shape is not published, sendDefinition.ts withoutPhoneOutcome): the reply guards and Check Window
 * First decide "skip" with the reason, a plain send fails saying what the API accepts; nothing is read or sent.
 */
import type { IDataObject } from 'n8n-workflow';
import { runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { NUMBER, numberById } from '../harness/params';
import { addMessage } from '../simulator/control';

const fx = useSimulator();
const PATHS = ['workflow', 'execute'] as const;
/** The Webhook Trigger's item for such a customer (test/webhookTrigger/withoutPhone.test.ts). */
const AVA: IDataObject = {
	text: 'Do you bake on Sundays?',
	phone_number: '',
	wa_message_id: 'wamid.HBgLMTU1NTAxMDAwMDEVAgASGBQzQUY',
	user_id: 'US.13491208655302741918',
	username: 'ava.bakes',
};

const reply = (
	path: (typeof PATHS)[number],
	additionalFields: IDataObject,
	json = AVA,
	window: IDataObject = {},
) =>
	runNode({
		path,
		credentials: fx.credentials,
		items: [{ json }],
		parameters: {
			resource: 'message',
			operation: 'sendText',
			phoneNumberId: numberById,
			phoneNumber: { __rl: true, mode: 'phone', value: '={{ $json.phone_number }}' },
			message: 'Yes, from 8 to 12',
			...window,
			additionalFields: { answersMessageId: '={{ $json.wa_message_id }}', ...additionalFields },
		} as never,
	});
const platformCalls = () =>
	fx.sim.requests.filter((request) => request.path.startsWith('/whatsapp/')).length;

describe('sends for a customer without a phone number', () => {
	it.each(PATHS)(
		'Only If Still Unanswered decides: skipped, saying why, with Meta ids; nothing read or sent (%s)',
		async (path) => {
			const result = await reply(path, { onlyIfUnanswered: true });
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json)).toEqual([
				{
					skipped: true,
					reason: expect.stringMatching(
						/^The customer has no phone number \(user_id US\.13491208655302741918, username ava\.bakes\): the platform's API accepts only phone numbers/,
					),
					phone_number: '',
					user_id: AVA.user_id,
					username: AVA.username,
				},
			]);
			expect(platformCalls()).toBe(0);
		},
	);

	it.each(PATHS)('Check Window First with Skip decides the same (%s)', async (path) => {
		const result = await reply(path, {}, AVA, { outsideWindow: 'skip', checkWindowFirst: true });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ skipped: true, user_id: AVA.user_id });
		expect(platformCalls()).toBe(0);
	});

	it.each(PATHS)(
		'a plain send fails, naming the field and what the API accepts (%s)',
		async (path) => {
			const result = await reply(path, {});
			expect(result.error?.message).toBe(
				'Subscriber is empty: the customer has no phone number (user_id US.13491208655302741918, username ava.bakes)',
			);
			expect(String(result.error?.description)).toMatch(/accepts only phone numbers/);
			expect(platformCalls()).toBe(0);
		},
	);

	it('a customer with a phone number and Meta ids besides is sent to as before', async () => {
		const written = addMessage(fx.sim.state, {
			phone_number_id: NUMBER,
			phone_number: '15550100001',
			text: 'Do you bake on Sundays?',
		});
		const result = await reply(
			'workflow',
			{ onlyIfUnanswered: true },
			{ ...AVA, phone_number: '15550100001', wa_message_id: written.wa_message_id },
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ phone_number: '15550100001' });
		expect(result.items[0].json).not.toHaveProperty('user_id');
		expect(fx.sim.requests.filter((request) => request.path === '/whatsapp/send')).toHaveLength(1);
	});

	it('Get Window Status (the window read) for such an item fails before any request, saying what the API accepts', async () => {
		const result = await runNode({
			credentials: fx.credentials,
			items: [{ json: AVA }],
			parameters: {
				resource: 'subscriber',
				operation: 'getWindowStatus',
				phoneNumberId: numberById,
				subscriber: { __rl: true, mode: 'phone', value: '={{ $json.phone_number }}' },
			} as never,
		});
		expect(result.error?.message).toBe('Subscriber is required');
		expect(String(result.error?.description)).toMatch(
			/the platform's API accepts only phone numbers .* not Meta's user IDs/,
		);
		expect(platformCalls()).toBe(0);
	});
});
