import { addSubscribers } from '../simulator/control';
import { BotSailor } from '../../nodes/BotSailor/BotSailor.node';
import { runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { validParameters } from '../harness/operations';
import { NUMBER, numberFromList, onSubscriber, PHONE, rl } from '../harness/params';

const fx = useSimulator();
const on = (operation: string, extra: Record<string, unknown> = {}) => ({
	resource: 'subscriber',
	operation,
	...onSubscriber,
	...extra,
});
const subscriber = () => fx.sim.state.subscriber(NUMBER, PHONE)!;

describe('Subscriber → Get', () => {
	it('sends the number and the normalised phone, outputs the subscriber with a null email', async () => {
		const { items, error } = await runNode({
			parameters: on('get', { subscriber: rl('+1 (555) 010-0000', 'phone') }),
			credentials: fx.credentials,
		});
		expect(error).toBeUndefined();
		expect(fx.sim.requests).toHaveLength(1);
		expect(fx.sim.requests[0]).toMatchObject({
			method: 'POST',
			path: '/whatsapp/subscriber/get',
			body: { phone_number_id: NUMBER, phone_number: PHONE },
		});
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ chat_id: PHONE, email: null, label_names: 'VIP' });
		expect(items[0].json).toHaveProperty('created_at');
	});

	it('refuses a phone number with letters, naming the parameter, and sends nothing', async () => {
		const { error } = await runNode({
			parameters: on('get', { subscriber: rl('+1 555 CALL ME', 'phone') }),
			credentials: fx.credentials,
		});
		expect(error?.message).toMatch(/^Subscriber must contain only digits/);
		expect(fx.sim.requests).toHaveLength(0);
	});
});

describe('Subscriber → Get Many', () => {
	it('returns all over 4 pages of 100, in default order, with spec list fields only', async () => {
		addSubscribers(fx.sim.state, { phone_number_id: NUMBER, count: 200 });
		const { items, error } = await runNode({
			parameters: {
				resource: 'subscriber',
				operation: 'getMany',
				phoneNumberId: numberFromList,
				returnAll: true,
			},
			credentials: fx.credentials,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(350);
		expect(fx.sim.requests.map((request) => request.body)).toEqual(
			[1, 2, 3, 4].map((offset) => ({
				phone_number_id: NUMBER,
				orderBy: '0',
				limit: '100',
				offset: String(offset),
			})),
		);
		const ids = items.map((item) => item.json.subscriber_id as number);
		expect([...ids].sort((a, b) => a - b)).toEqual(ids);
		expect(new Set(ids).size).toBe(350);
		expect(Object.keys(items[0].json).sort()).toEqual([
			'assigned_agent_id',
			'chat_id',
			'email',
			'first_name',
			'gender',
			'last_name',
			'subscriber_id',
		]);
		expect(items[0].json.email).toBeNull();
	});

	it('orders by most recent message and stops at the limit', async () => {
		fx.sim.state.subscribers.find((entry) => entry.chat_id === '15550100042')!.last_message_at =
			'2026-02-01 10:00:00';
		const { items } = await runNode({
			parameters: {
				resource: 'subscriber',
				operation: 'getMany',
				phoneNumberId: numberFromList,
				orderBy: '1',
				limit: 3,
			},
			credentials: fx.credentials,
		});
		expect(items).toHaveLength(3);
		expect(items[0].json.chat_id).toBe('15550100042');
		expect(fx.sim.requests).toHaveLength(1);
		expect(fx.sim.requests[0].body).toEqual({
			phone_number_id: NUMBER,
			orderBy: '1',
			limit: '3',
			offset: '1',
		});
	});

	it('sends no pagination parameters under the earlier API form and applies the limit itself', async () => {
		const { items, error } = await runNode({
			parameters: {
				resource: 'subscriber',
				operation: 'getMany',
				phoneNumberId: numberFromList,
				limit: 120,
			},
			credentials: { ...fx.credentials, apiForm: 'earlier' },
		});
		expect(error).toBeUndefined();
		expect(fx.sim.requests).toHaveLength(1);
		expect(fx.sim.requests[0].body).toEqual({ phone_number_id: NUMBER, orderBy: '0' });
		expect(items).toHaveLength(120);
		expect(items[0].json).toHaveProperty('label_names');
	});
});

describe('Subscriber → Create', () => {
	const create = (phoneNumber: string, name = 'Jane Doe') => ({
		...validParameters('subscriber', 'create'),
		phoneNumber,
		name,
	});

	it('sends the camelCase fields and outputs the confirmation (mesasge quirk read as message)', async () => {
		const { items, error } = await runNode({
			parameters: create('+44 7700 900123'),
			credentials: fx.credentials,
		});
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/subscriber/create',
			body: { phoneNumberID: NUMBER, name: 'Jane Doe', phoneNumber: '447700900123' },
		});
		expect(items[0].json).toEqual({
			success: true,
			message: 'WhatsApp subscriber has been created.',
		});
		expect(fx.sim.state.subscriber(NUMBER, '447700900123')).toMatchObject({
			first_name: 'Jane',
			last_name: 'Doe',
		});
	});

	it.each([
		[
			'an existing subscriber',
			() => undefined,
			PHONE,
			NUMBER,
			'Something went wrong or subscriber already exist.',
		],
		[
			'the subscriber limit',
			() => void (fx.sim.state.subscriberLimit = fx.sim.state.subscribers.length),
			'447700900124',
			NUMBER,
			'Subscriber limit has been exceeded. You cannot have more subscribers.',
		],
		['an unknown number', () => undefined, '447700900125', '999', 'WhatsApp account not found.'],
	])('fails on %s with the API text', async (_name, arrange, phone, number, text) => {
		arrange();
		const { error } = await runNode({
			parameters: { ...create(phone), phoneNumberId: rl(number, 'id') },
			credentials: fx.credentials,
		});
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(text);
	});
});

describe('Subscriber → writes', () => {
	it('updates names, gender and labels (multi-select → comma-separated)', async () => {
		const { items } = await runNode({
			parameters: on('update', {
				updateFields: {
					firstName: 'Ann',
					lastName: 'Lee',
					gender: 'female',
					labelIds: ['32', '33'],
				},
			}),
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/subscriber/update',
			body: {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				first_name: 'Ann',
				last_name: 'Lee',
				gender: 'female',
				label_ids: '32,33',
			},
		});
		expect(items[0].json).toEqual({ success: true, message: 'Subscriber Updated Successfully.' });
		expect(subscriber()).toMatchObject({
			first_name: 'Ann',
			last_name: 'Lee',
			gender: 'female',
			label_ids: [32, 33],
		});
	});

	it('deletes', async () => {
		const { items } = await runNode({ parameters: on('delete'), credentials: fx.credentials });
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/subscriber/delete',
			body: { phone_number_id: NUMBER, phone_number: PHONE },
		});
		expect(items[0].json.message).toBe('Subscriber has been deleted successfully.');
		expect(fx.sim.state.subscriber(NUMBER, PHONE)).toBeUndefined();
	});

	it('resets the input flow', async () => {
		const { items } = await runNode({
			parameters: on('resetInputFlow'),
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/subscriber/reset/user-input-flow',
			body: { phone_number_id: NUMBER, phone_number: PHONE },
		});
		expect(items[0].json.message).toBe('Reset User Input Flow successfully.');
		expect(subscriber().input_flow_reset_count).toBe(1);
	});

	it('assigns to a team member', async () => {
		const { items } = await runNode({
			parameters: on('assignToTeamMember', { teamMember: rl('502') }),
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/subscriber/chat/assign-to-team-member',
			body: { phone_number_id: NUMBER, phone_number: PHONE, team_member_id: '502' },
		});
		expect(items[0].json.message).toBe('Successfully Assign Agent to Conversation.');
		expect(subscriber().assigned_agent_id).toBe(502);
	});

	it.each([
		['resolved', 1],
		['archived', 2],
		['blocked', 3],
		['unblocked', 0],
		['reopen', 0],
		['unarchived', 0],
	])('sets the conversation status %s → %d', async (action, status) => {
		subscriber().conversation_status = 2;
		const { items } = await runNode({
			parameters: on('setConversationStatus', { conversationAction: action }),
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/subscriber/chat/mark-conversation',
			body: { phone_number_id: NUMBER, phone_number: PHONE, action },
		});
		expect(items[0].json.success).toBe(true);
		expect(subscriber().conversation_status).toBe(status);
	});

	it('refuses an unknown conversation action and sends nothing', async () => {
		const { error } = await runNode({
			parameters: on('setConversationStatus', { conversationAction: 'snoozed' }),
			credentials: fx.credentials,
		});
		expect(error?.message).toMatch(/^Status must be one of: resolved, reopen, archived/);
		expect(fx.sim.requests).toHaveLength(0);
	});

	it('sets picked custom fields as the JSON object custom_fields', async () => {
		const { items } = await runNode({
			parameters: on('setCustomFields', {
				customFieldsUi: {
					field: [
						{ name: 'city', value: 'Paris' },
						{ name: 'order_count', value: '3' },
					],
				},
			}),
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/subscriber/chat/assign-custom-fields',
			body: {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				custom_fields: '{"city":"Paris","order_count":"3"}',
			},
		});
		expect(items[0].json.message).toBe('Subscriber changes have been saved successfully.');
		expect(subscriber().custom_fields).toEqual({ city: 'Paris', order_count: '3' });
	});

	it('sets custom fields typed as JSON', async () => {
		await runNode({
			parameters: on('setCustomFields', {
				customFieldsMode: 'json',
				customFieldsJson: '{"birthday": "2000-01-31"}',
			}),
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0].body.custom_fields).toBe('{"birthday":"2000-01-31"}');
		expect(subscriber().custom_fields).toEqual({ birthday: '2000-01-31' });
	});

	it.each([
		['JSON, unedited', { customFieldsMode: 'json' }],
		['JSON, an empty object', { customFieldsMode: 'json', customFieldsJson: '{ }' }],
		['picked, no field', {}],
	])(
		'sends nothing with no field set (%s): "set at least one field", naming the parameter',
		async (_case, extra) => {
			const { error } = await runNode({
				parameters: on('setCustomFields', extra),
				credentials: fx.credentials,
			});
			expect(error?.message).toMatch(/^Custom Fields must set at least one field/);
			expect(fx.sim.requests).toHaveLength(0);
			expect(subscriber().custom_fields).toEqual({});
		},
	);

	it('the JSON default is an empty object, with the example only as a hint', () => {
		const property = new BotSailor().description.properties.find(
			(entry) => entry.name === 'customFieldsJson',
		)!;
		expect(property.default).toBe('{}');
		expect(property.hint).toContain('{"city": "Paris"');
	});

	it.each([['{"city": "Paris"'], ['["city"]']])(
		'refuses invalid custom field JSON %s and sends nothing',
		async (json) => {
			const { error } = await runNode({
				parameters: on('setCustomFields', { customFieldsMode: 'json', customFieldsJson: json }),
				credentials: fx.credentials,
			});
			expect(error?.message).toMatch(/^Custom Fields must be/);
			expect(fx.sim.requests).toHaveLength(0);
		},
	);

	it('adds and removes labels', async () => {
		const added = await runNode({
			parameters: on('addLabels', { labelIds: ['32', '34'] }),
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/subscriber/chat/assign-labels',
			body: { phone_number_id: NUMBER, phone_number: PHONE, label_ids: '32,34' },
		});
		expect(added.items[0].json.message).toBe('Labels have been assigned successfully.');
		expect(subscriber().label_ids).toEqual([31, 32, 34]);
		const removed = await runNode({
			parameters: on('removeLabels', { labelIds: ['31', '34'] }),
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[1]).toMatchObject({
			path: '/whatsapp/subscriber/chat/remove-labels',
			body: { label_ids: '31,34' },
		});
		expect(removed.items[0].json.message).toBe('Labels have been assigned successfully.');
		expect(subscriber().label_ids).toEqual([32]);
	});

	it('adds to and removes from sequences', async () => {
		const added = await runNode({
			parameters: on('addToSequences', { sequenceIds: ['41', '42'] }),
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/subscriber/chat/assign-sequence',
			body: { phone_number_id: NUMBER, phone_number: PHONE, sequence_ids: '41,42' },
		});
		expect(added.items[0].json.message).toBe('Sequences have been assigned successfully.');
		expect(subscriber().sequence_ids).toEqual([41, 42]);
		const removed = await runNode({
			parameters: on('removeFromSequences', { sequenceIds: ['41'] }),
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[1]).toMatchObject({
			path: '/whatsapp/subscriber/chat/remove-sequence',
			body: { sequence_ids: '41' },
		});
		expect(removed.items[0].json.message).toBe('Sequences have been removed successfully.');
		expect(subscriber().sequence_ids).toEqual([42]);
	});

	it('keeps going under Continue On Fail with mixed good and bad items, each paired to its input', async () => {
		const { items, error } = await runNode({
			parameters: on('addLabels', {
				subscriber: rl('={{ $json.phone }}', 'phone'),
				labelIds: ['33'],
			}),
			credentials: fx.credentials,
			continueOnFail: true,
			items: [
				{ json: { phone: PHONE } },
				{ json: { phone: 'call me' } },
				{ json: { phone: '15550100001' } },
			],
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json.success).toBe(true);
		expect(String(items[1].json.error)).toMatch(/^Subscriber must contain only digits/);
		expect(items[2].json.success).toBe(true);
		expect(fx.sim.requests).toHaveLength(2);
	});
});
