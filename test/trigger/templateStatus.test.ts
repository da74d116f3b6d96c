import { decideTemplate } from '../simulator/control';
import { useSimulator } from '../harness/simulatorFixture';
import { numberParam, pollCounting, snapshot, triggerPoller } from './helpers';
import { NUMBER } from '../harness/params';

const fx = useSimulator();
const params = { event: 'templateStatusChanged', phoneNumberId: numberParam() };

describe('BotSailor Trigger → Template Status Changed', () => {
	it('emits a decision once, with the previous status, for templates of the chosen number only', async () => {
		const poller = triggerPoller(fx, params);
		expect(await poller.poll()).toEqual([]);
		const mine = fx.sim.state.templates.filter((entry) => entry.phone_number_id === NUMBER);
		const other = fx.sim.state.templates.find((entry) => entry.phone_number_id !== NUMBER)!;
		const pending = mine.find((entry) => entry.status === 'Submitted')!;
		decideTemplate(fx.sim.state, { template_id: String(pending.template_id), status: 'APPROVED' });
		decideTemplate(fx.sim.state, { template_id: String(other.template_id), status: 'Rejected' });
		const { json, requests } = await pollCounting(fx, poller);
		expect(requests).toBe(1);
		expect(json).toHaveLength(1);
		expect(json[0]).toMatchObject({
			template_id: pending.template_id,
			template_name: 'promo_es',
			status: 'APPROVED',
			previous_status: 'Submitted',
			phone_number_id: NUMBER,
		});
		expect(typeof json[0].template_json).toBe('object');
		expect(JSON.stringify(json[0])).not.toContain('access_token');
		expect(fx.sim.requests.at(-1)?.body).toEqual({ phone_number_id: NUMBER });
		expect(await poller.poll()).toEqual([]);
		decideTemplate(fx.sim.state, {
			template_id: String(pending.template_id),
			status: 'Rejected',
			reason: 'Policy',
		});
		expect(
			(await poller.poll()).map((item) => [item.json.previous_status, item.json.status]),
		).toEqual([['APPROVED', 'Rejected']]);
	});

	it('a failing poll moves nothing; a manual run returns ONE template, the most recently updated, and keeps the state', async () => {
		const poller = triggerPoller(fx, params);
		await poller.poll();
		const pending = fx.sim.state.templates.find(
			(entry) => entry.phone_number_id === NUMBER && entry.status === 'Submitted',
		)!;
		decideTemplate(fx.sim.state, { template_id: String(pending.template_id), status: 'APPROVED' });
		const before = snapshot(poller);
		fx.sim.faults.add('/whatsapp/template/list', { kind: 'html500', times: 1 }); // not repeated (readRetry.test.ts: what is)
		await expect(poller.poll()).rejects.toThrow();
		expect(snapshot(poller)).toEqual(before);
		const { json } = await pollCounting(fx, poller, 'manual');
		expect(json).toEqual([
			expect.objectContaining({ template_id: pending.template_id, previous_status: null }),
		]);
		expect(snapshot(poller)).toEqual(before);
		expect((await poller.poll()).map((item) => item.json.template_id)).toEqual([
			pending.template_id,
		]);
	});
});
