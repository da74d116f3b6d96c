import { runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { validParameters } from '../harness/operations';
import { NUMBER, numberFromList, onSubscriber, PHONE } from '../harness/params';

const fx = useSimulator();

describe('CRM Deal', () => {
	it('gets the overview of a subscriber without a deal (has_deal false, default pipeline)', async () => {
		const { items, error } = await runNode({
			parameters: validParameters('crmDeal', 'get'),
			credentials: fx.credentials,
		});
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({
			method: 'POST',
			path: '/whatsapp/subscriber/crm/get',
			body: { phone_number_id: NUMBER, phone_number: PHONE },
		});
		expect(items[0].json).toMatchObject({
			has_deal: false,
			pipeline_id: 1,
			pipeline_name: 'Sales',
			stage_id: 11,
		});
	});

	it('creates then updates the deal; Get shows it', async () => {
		const updateFields = {
			title: 'Wedding cake',
			pipelineId: '1',
			stageId: '12',
			value: 250.5,
			currency: 'eur',
			expectedCloseDate: '2026-03-31',
			ownerUserId: '501',
			leadScore: 'hot',
			source: 'Instagram',
		};
		const { items, error } = await runNode({
			parameters: { resource: 'crmDeal', operation: 'update', ...onSubscriber, updateFields },
			credentials: fx.credentials,
		});
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/subscriber/crm/update',
			body: {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				title: 'Wedding cake',
				pipeline_id: '1',
				stage_id: '12',
				value: '250.5',
				currency: 'EUR',
				expected_close_date: '2026-03-31',
				owner_user_id: '501',
				lead_score: 'hot',
				source: 'Instagram',
			},
		});
		expect(items[0].json).toEqual({ success: true, message: 'CRM Overview updated successfully.' });
		expect(fx.sim.state.deals).toHaveLength(1);
		await runNode({
			parameters: {
				resource: 'crmDeal',
				operation: 'update',
				...onSubscriber,
				updateFields: { leadScore: 'cold' },
			},
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[1].body).toEqual({
			phone_number_id: NUMBER,
			phone_number: PHONE,
			lead_score: 'cold',
		});
		expect(fx.sim.state.deals).toHaveLength(1);
		const got = await runNode({
			parameters: validParameters('crmDeal', 'get'),
			credentials: fx.credentials,
		});
		expect(got.items[0].json).toMatchObject({
			has_deal: true,
			title: 'Wedding cake',
			stage_name: 'Qualified',
			value: 250.5,
			lead_score: 'cold',
			owner_name: 'Alex Agent',
			expected_close_date: '2026-03-31',
		});
	});

	it.each([
		[
			{ expectedCloseDate: '31/12/2025' },
			/^Expected Close Date must be a real date in the form YYYY-MM-DD/,
		],
		[{ expectedCloseDate: '2025-02-30' }, /^Expected Close Date must be a real date/],
		[{ leadScore: 'lukewarm' }, /^Lead Score must be one of: hot, warm, cold/],
		[{ value: 'lots' }, /^Value must be a number/],
	])('refuses %p naming the parameter, sending nothing', async (updateFields, message) => {
		const { error } = await runNode({
			parameters: { resource: 'crmDeal', operation: 'update', ...onSubscriber, updateFields },
			credentials: fx.credentials,
		});
		expect(error?.message).toMatch(message);
		expect(fx.sim.requests).toHaveLength(0);
		expect(fx.sim.state.deals).toHaveLength(0);
	});

	it('pairs each item under Continue On Fail (good, bad date, good)', async () => {
		const { items } = await runNode({
			parameters: {
				resource: 'crmDeal',
				operation: 'update',
				...onSubscriber,
				updateFields: { expectedCloseDate: '={{ $json.date }}' },
			},
			credentials: fx.credentials,
			continueOnFail: true,
			items: [
				{ json: { date: '2026-01-31' } },
				{ json: { date: '31/12/2025' } },
				{ json: { date: '2026-02-28' } },
			],
		});
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items.map((item) => Boolean(item.json.success))).toEqual([true, false, true]);
		expect(String(items[1].json.error)).toMatch(/Expected Close Date/);
		expect(fx.sim.requests).toHaveLength(2);
	});
});

describe('Note', () => {
	it('adds a note and lists it', async () => {
		const created = await runNode({
			parameters: validParameters('note', 'create'),
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/subscriber/chat/add-notes',
			body: {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				note_text: 'Prefers delivery after 5pm',
			},
		});
		expect(created.items[0].json).toEqual({
			success: true,
			message: 'Notes have been added successfully.',
		});
		expect(fx.sim.state.notes).toHaveLength(1);
		const listed = await runNode({
			parameters: validParameters('note', 'getMany'),
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[1]).toMatchObject({
			path: '/whatsapp/subscriber/chat/get-notes',
			body: { phone_number_id: NUMBER, phone_number: PHONE },
		});
		expect(listed.items).toHaveLength(1);
		expect(Object.keys(listed.items[0].json).sort()).toEqual([
			'id',
			'note_text',
			'noted_by_name',
			'noted_by_user_id',
			'updated_at',
		]);
	});

	it('refuses an empty note', async () => {
		const { error } = await runNode({
			parameters: { resource: 'note', operation: 'create', ...onSubscriber, noteText: '  ' },
			credentials: fx.credentials,
		});
		expect(error?.message).toMatch(/^Note is required/);
		expect(fx.sim.requests).toHaveLength(0);
	});
});

describe('Custom Field and Sequence', () => {
	it('lists custom fields from data', async () => {
		const { items } = await runNode({
			parameters: { resource: 'customField', operation: 'getMany' },
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/subscriber/custom-fields/list',
			body: {},
		});
		expect(items.map((item) => item.json.name)).toEqual(['city', 'order_count', 'birthday']);
	});

	it('lists sequences of a number', async () => {
		const { items } = await runNode({
			parameters: validParameters('sequence', 'getMany'),
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/subscriber/sequence/list',
			body: { phone_number_id: NUMBER },
		});
		expect(items.map((item) => item.json.name)).toEqual(['Welcome drip', 'Abandoned cart']);
	});
});

describe('Label', () => {
	it('lists and creates labels on the current paths without a number', async () => {
		const created = await runNode({
			parameters: validParameters('label', 'create'),
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/label/create',
			body: { label_name: 'Birthday club' },
		});
		expect(created.items[0].json).toEqual({
			success: true,
			message: 'Label has been created successfully.',
		});
		const listed = await runNode({
			parameters: { resource: 'label', operation: 'getMany' },
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[1]).toMatchObject({ path: '/label/list', body: {} });
		expect(listed.items.map((item) => item.json.label_name)).toContain('Birthday club');
		expect(Object.keys(listed.items[0].json).sort()).toEqual(['id', 'label_name', 'status']);
	});

	it('uses the earlier paths with phone_number_id under the earlier API form', async () => {
		const earlier = { ...fx.credentials, apiForm: 'earlier' as const };
		const created = await runNode({
			parameters: validParameters('label', 'create'),
			credentials: earlier,
		});
		expect(created.error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/label/create',
			body: { phone_number_id: NUMBER, label_name: 'Birthday club' },
		});
		const listed = await runNode({
			parameters: { resource: 'label', operation: 'getMany', phoneNumberId: numberFromList },
			credentials: earlier,
		});
		expect(fx.sim.requests[1]).toMatchObject({
			path: '/whatsapp/label/list',
			body: { phone_number_id: NUMBER },
		});
		expect(listed.items).toHaveLength(5);
	});

	it('asks for the WhatsApp number under the earlier API form', async () => {
		const { error } = await runNode({
			parameters: { resource: 'label', operation: 'getMany' },
			credentials: { ...fx.credentials, apiForm: 'earlier' },
		});
		expect(error?.message).toMatch(/^WhatsApp Number is required/);
		expect(fx.sim.requests).toHaveLength(0);
	});
});
