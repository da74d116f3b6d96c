import { useContractSimulator } from './contractClient';
import { NUMBER, PHONE } from '../harness/params';

const { context, call } = useContractSimulator();

const one = { phone_number_id: NUMBER, phone_number: PHONE };
const LIST_FIELDS = [
	'assigned_agent_id',
	'chat_id',
	'email',
	'first_name',
	'gender',
	'last_name',
	'subscriber_id',
];

describe.each(['GET', 'POST'] as const)('subscriber group over %s', (method) => {
	it('lists subscribers by page with nextOffset, default order by subscriber_id, list fields only', async () => {
		const first = await call(
			'/whatsapp/subscriber/list',
			{ phone_number_id: NUMBER, limit: '100' },
			method,
		);
		expect(first.status).toBe('1');
		expect(first.message).toHaveLength(100);
		expect(first.nextOffset).toBe(2);
		expect(Object.keys(first.message[0]).sort()).toEqual(LIST_FIELDS);
		const ids = first.message.map((row: { subscriber_id: number }) => row.subscriber_id);
		expect([...ids].sort((a, b) => a - b)).toEqual(ids);
		const second = await call(
			'/whatsapp/subscriber/list',
			{ phone_number_id: NUMBER, limit: '100', offset: '2' },
			method,
		);
		expect(second.message).toHaveLength(50);
		expect(second.nextOffset).toBeUndefined();
	});

	it('orders by most recent message with orderBy=1', async () => {
		context.sim.state.subscribers.find((row) => row.chat_id === '15550100042')!.last_message_at =
			'2026-02-01 00:00:00';
		const listed = await call(
			'/whatsapp/subscriber/list',
			{ phone_number_id: NUMBER, limit: '5', orderBy: '1' },
			method,
		);
		expect(listed.message[0].chat_id).toBe('15550100042');
		const times = listed.message.map(
			(row: { chat_id: string }) =>
				context.sim.state.subscriber(NUMBER, row.chat_id)!.last_message_at,
		);
		expect([...times].sort().reverse()).toEqual(times);
	});

	it('refuses a limit over 100 and answers the earlier unpaginated form (with label_names) without one', async () => {
		expect(
			(await call('/whatsapp/subscriber/list', { phone_number_id: NUMBER, limit: '101' }, method))
				.status,
		).toBe('0');
		expect(await call('/whatsapp/subscriber/list', {}, method)).toEqual({
			status: '0',
			message: 'The phone_number_id field is required.',
		});
		const earlier = await call('/whatsapp/subscriber/list', { phone_number_id: NUMBER }, method);
		expect(earlier.message).toHaveLength(150);
		expect(earlier.nextOffset).toBeUndefined();
		expect(earlier.message[0].label_names).toBe('VIP');
	});

	it('gets one subscriber with the single-get fields', async () => {
		const got = await call('/whatsapp/subscriber/get', one, method);
		expect(got.status).toBe('1');
		expect(Object.keys(got.message[0]).sort()).toEqual(
			[
				...LIST_FIELDS,
				'ai_reply_label',
				'assigned_agent',
				'bot_reply_label',
				'created_at',
				'label_names',
			].sort(),
		);
		expect(got.message[0].email).toBe('null');
		expect(
			(await call('/whatsapp/subscriber/get', { ...one, phone_number: '1' }, method)).status,
		).toBe('0');
	});

	it('creates with camelCase fields and the mesasge quirk; every failure text', async () => {
		expect(
			await call(
				'/whatsapp/subscriber/create',
				{ phoneNumberID: NUMBER, name: 'Jane Doe', phoneNumber: '447700900123' },
				method,
			),
		).toEqual({ status: '1', mesasge: 'WhatsApp subscriber has been created.' });
		expect(
			await call(
				'/whatsapp/subscriber/create',
				{ phoneNumberID: NUMBER, name: 'Jane Doe', phoneNumber: '447700900123' },
				method,
			),
		).toEqual({ status: '0', message: 'Something went wrong or subscriber already exist.' });
		expect(
			await call(
				'/whatsapp/subscriber/create',
				{ phoneNumberID: '1', name: 'Jane', phoneNumber: '447700900124' },
				method,
			),
		).toEqual({ status: '0', message: 'WhatsApp account not found.' });
		context.sim.state.subscriberLimit = context.sim.state.subscribers.length;
		expect(
			await call(
				'/whatsapp/subscriber/create',
				{ phoneNumberID: NUMBER, name: 'Jane', phoneNumber: '447700900125' },
				method,
			),
		).toEqual({
			status: '0',
			message: 'Subscriber limit has been exceeded. You cannot have more subscribers.',
		});
		expect(
			(
				await call(
					'/whatsapp/subscriber/create',
					{ phone_number_id: NUMBER, name: 'Jane', phoneNumber: '447700900126' },
					method,
				)
			).message,
		).toBe('Unknown parameter: phone_number_id.');
	});

	it('updates, resets, assigns, marks, sets custom fields, labels, sequences, notes and deletes', async () => {
		const subscriber = () => context.sim.state.subscriber(NUMBER, PHONE)!;
		expect(
			await call(
				'/whatsapp/subscriber/update',
				{ ...one, first_name: 'Ann', label_ids: '32,33' },
				method,
			),
		).toEqual({ status: '1', message: 'Subscriber Updated Successfully.' });
		expect(subscriber()).toMatchObject({ first_name: 'Ann', label_ids: [32, 33] });
		expect((await call('/whatsapp/subscriber/reset/user-input-flow', one, method)).message).toBe(
			'Reset User Input Flow successfully.',
		);
		expect(
			(
				await call(
					'/whatsapp/subscriber/chat/assign-to-team-member',
					{ ...one, team_member_id: '501' },
					method,
				)
			).message,
		).toBe('Successfully Assign Agent to Conversation.');
		expect(subscriber().assigned_agent_id).toBe(501);
		for (const [action, state] of [
			['resolved', 1],
			['archived', 2],
			['blocked', 3],
			['unblocked', 0],
			['archived', 2],
			['unarchived', 0],
			['resolved', 1],
			['reopen', 0],
		] as const) {
			const marked = await call(
				'/whatsapp/subscriber/chat/mark-conversation',
				{ ...one, action },
				method,
			);
			expect(marked.message).toContain(action);
			expect(subscriber().conversation_status).toBe(state);
		}
		expect(
			(
				await call(
					'/whatsapp/subscriber/chat/mark-conversation',
					{ ...one, action: 'snooze' },
					method,
				)
			).status,
		).toBe('0');
		expect(
			(
				await call(
					'/whatsapp/subscriber/chat/assign-custom-fields',
					{ ...one, custom_fields: '{"city":"Oslo"}' },
					method,
				)
			).message,
		).toBe('Subscriber changes have been saved successfully.');
		expect(subscriber().custom_fields).toEqual({ city: 'Oslo' });
		expect(
			(
				await call(
					'/whatsapp/subscriber/chat/assign-custom-fields',
					{ ...one, custom_fields: '{city' },
					method,
				)
			).status,
		).toBe('0');
		expect(
			(await call('/whatsapp/subscriber/chat/assign-labels', { ...one, label_ids: '34' }, method))
				.message,
		).toBe('Labels have been assigned successfully.');
		expect(
			(await call('/whatsapp/subscriber/chat/remove-labels', { ...one, label_ids: '32' }, method))
				.message,
		).toBe('Labels have been assigned successfully.');
		expect(subscriber().label_ids).toEqual([33, 34]);
		expect(
			(
				await call(
					'/whatsapp/subscriber/chat/assign-sequence',
					{ ...one, sequence_ids: '41,42' },
					method,
				)
			).message,
		).toBe('Sequences have been assigned successfully.');
		expect(
			(
				await call(
					'/whatsapp/subscriber/chat/remove-sequence',
					{ ...one, sequence_ids: '41' },
					method,
				)
			).message,
		).toBe('Sequences have been removed successfully.');
		expect(subscriber().sequence_ids).toEqual([42]);
		expect(
			(
				await call(
					'/whatsapp/subscriber/chat/add-notes',
					{ ...one, note_text: 'Call back' },
					method,
				)
			).message,
		).toBe('Notes have been added successfully.');
		const notes = await call('/whatsapp/subscriber/chat/get-notes', one, method);
		expect(notes.message).toEqual([
			expect.objectContaining({ note_text: 'Call back', noted_by_name: 'Sunrise Owner' }),
		]);
		expect((await call('/whatsapp/subscriber/delete', one, method)).message).toBe(
			'Subscriber has been deleted successfully.',
		);
		expect(context.sim.state.subscriber(NUMBER, PHONE)).toBeUndefined();
		expect((await call('/whatsapp/subscriber/delete', one, method)).status).toBe('0');
	});

	it('reads and writes the CRM overview (has_deal false, then true)', async () => {
		expect((await call('/whatsapp/subscriber/crm/get', one, method)).message).toMatchObject({
			has_deal: false,
			pipeline_id: 1,
		});
		expect(
			(
				await call(
					'/whatsapp/subscriber/crm/update',
					{
						...one,
						title: 'Deal',
						stage_id: '12',
						lead_score: 'warm',
						expected_close_date: '2026-05-01',
						value: '9.5',
					},
					method,
				)
			).message,
		).toBe('CRM Overview updated successfully.');
		expect((await call('/whatsapp/subscriber/crm/get', one, method)).message).toMatchObject({
			has_deal: true,
			title: 'Deal',
			stage_name: 'Qualified',
			lead_score: 'warm',
			value: 9.5,
		});
		expect(
			(await call('/whatsapp/subscriber/crm/update', { ...one, lead_score: 'lukewarm' }, method))
				.status,
		).toBe('0');
		expect(
			(
				await call(
					'/whatsapp/subscriber/crm/update',
					{ ...one, expected_close_date: '31/12/2025' },
					method,
				)
			).status,
		).toBe('0');
	});

	it('lists custom fields under data and sequences under message', async () => {
		const fields = await call('/whatsapp/subscriber/custom-fields/list', {}, method);
		expect(fields).toMatchObject({ status: '1', message: 'Custom fields retrieved successfully' });
		expect(fields.data[0]).toEqual({ id: 61, name: 'city', reply_type: 'text' });
		expect(
			(await call('/whatsapp/subscriber/sequence/list', { phone_number_id: NUMBER }, method))
				.message,
		).toHaveLength(2);
	});

	it('lists and creates labels on the current and the earlier paths', async () => {
		expect(await call('/label/create', { label_name: 'Gold' }, method)).toEqual({
			status: '1',
			message: 'Label has been created successfully.',
		});
		const labels = await call('/label/list', {}, method);
		expect(labels.message.at(-1)).toEqual({
			id: expect.any(Number),
			label_name: 'Gold',
			status: '1',
		});
		expect((await call('/label/list', { phone_number_id: NUMBER }, method)).message).toBe(
			'Unknown parameter: phone_number_id.',
		);
		expect(
			await call(
				'/whatsapp/label/create',
				{ phone_number_id: NUMBER, label_name: 'Silver' },
				method,
			),
		).toEqual({ status: '1', message: 'Label has been created successfully.' });
		expect(
			(await call('/whatsapp/label/list', { phone_number_id: NUMBER }, method)).message.map(
				(row: { label_name: string }) => row.label_name,
			),
		).toContain('Silver');
		expect(await call('/whatsapp/label/list', {}, method)).toEqual({
			status: '0',
			message: 'The phone_number_id field is required.',
		});
	});
});

describe.each(['GET', 'POST'] as const)('catalogs over %s', (method) => {
	it('lists catalogs with boolean true', async () => {
		const listed = await call('/whatsapp/catalog/list', {}, method);
		expect(listed.status).toBe(true);
		expect(Object.keys(listed.message[0]).sort()).toEqual([
			'catalog_id',
			'catalog_name',
			'catalog_url',
			'checkout_settings',
		]);
	});

	it('syncs a catalog', async () => {
		expect(
			await call('/whatsapp/catalog/sync', { whatsapp_catalog_id: '7788990011' }, method),
		).toEqual({ status: '1', message: 'Catalog products have been synced successfully.' });
		expect(context.sim.state.catalogSyncs).toEqual(['7788990011']);
		expect((await call('/whatsapp/catalog/sync', {}, method)).message).toBe(
			'The whatsapp_catalog_id field is required.',
		);
	});

	it('lists orders, filtered by catalog, with the order fields', async () => {
		const all = await call('/whatsapp/catalog/order/list', {}, method);
		expect(all.message).toHaveLength(6);
		expect(Object.keys(all.message[0])).toHaveLength(19);
		const cakes = await call(
			'/whatsapp/catalog/order/list',
			{ whatsapp_catalog_id: '7788990022' },
			method,
		);
		expect(
			cakes.message.every((row: { catalog_id: string }) => row.catalog_id === '7788990022'),
		).toBe(true);
	});

	it('changes an order status with boolean true and stamps status_changed_at', async () => {
		expect(
			await call(
				'/whatsapp/catalog/order/status-change',
				{ order_unique_id: 'ORD-1001', cart_status: 'Refunded' },
				method,
			),
		).toEqual({ status: true, message: 'Cart status has been updated successfully' });
		const order = context.sim.state.orders.find((row) => row.order_unique_id === 'ORD-1001')!;
		expect(order).toMatchObject({
			cart_status_raw: 'Refunded',
			status_changed_at: order.updated_at,
		});
		expect(
			(
				await call(
					'/whatsapp/catalog/order/status-change',
					{ order_unique_id: 'ORD-1001', cart_status: 'Lost' },
					method,
				)
			).status,
		).toBe('0');
		expect(
			(
				await call(
					'/whatsapp/catalog/order/status-change',
					{ order_unique_id: 'NOPE', cart_status: 'Shipped' },
					method,
				)
			).status,
		).toBe(false);
	});
});
