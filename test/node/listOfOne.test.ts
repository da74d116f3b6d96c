/**
 * Some deployments answer a list endpoint with `message` as one object when there is one record.
 * Every reader (outputs, dropdowns, the template variable mapper, the trigger) treats it as a list of one.
 */
import { callMethod, runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { decideTemplate } from '../simulator/control';
import { numberParam, triggerPoller } from '../trigger/helpers';
import { NUMBER, byId } from '../harness/params';

const fx = useSimulator();

/** One template left on the number, and the simulator answering a list of one as the record itself. */
function oneTemplate() {
	const keep = fx.sim.state.templates.find(
		(entry) => entry.phone_number_id === NUMBER && entry.template_name === 'order_update',
	)!;
	fx.sim.state.templates = fx.sim.state.templates.filter(
		(entry) => entry.phone_number_id !== NUMBER || entry === keep,
	);
	fx.sim.state.listOfOneAsObject = true;
	return keep;
}

describe('a list answered as a single object', () => {
	it('is what the simulator sends in this mode (the premise of the tests below)', async () => {
		const template = oneTemplate();
		const response = await fetch(`${fx.sim.url}/api/v1/whatsapp/template/list`, {
			method: 'POST',
			body: new URLSearchParams({ apiToken: fx.sim.token, phone_number_id: NUMBER }),
		});
		const body = (await response.json()) as { message: unknown };
		expect(body.message).toMatchObject({ template_id: template.template_id });
	});

	it('Template → Get Many outputs one item', async () => {
		const template = oneTemplate();
		const { items, error } = await runNode({
			parameters: { resource: 'template', operation: 'getMany', phoneNumberId: numberParam() },
			credentials: fx.credentials,
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.template_id)).toEqual([template.template_id]);
	});

	it('the template dropdown and the variable mapper show it', async () => {
		const template = oneTemplate();
		const list = (await callMethod('listSearch', 'searchTemplates', {
			credentials: fx.credentials,
			parameters: { phoneNumberId: numberParam() },
		})) as { results: Array<{ value: string }> };
		expect(list.results.map((entry) => entry.value)).toEqual([String(template.template_id)]);
		const fields = (await callMethod('resourceMapping', 'getTemplateVariables', {
			credentials: fx.credentials,
			parameters: {
				resource: 'message',
				operation: 'sendTemplate',
				phoneNumberId: numberParam(),
				templateId: byId(String(template.template_id)),
			},
		})) as { fields: Array<{ id: string }> };
		expect(fields.fields.map((field) => field.id)).toEqual([
			'templateVariable-order_id-1',
			'templateVariable-status-1',
		]);
	});

	it('the trigger reads it (Template Status Changed)', async () => {
		const template = oneTemplate();
		const poller = triggerPoller(fx, {
			event: 'templateStatusChanged',
			phoneNumberId: numberParam(),
		});
		expect(await poller.poll()).toEqual([]);
		decideTemplate(fx.sim.state, {
			template_id: String(template.template_id),
			status: 'Rejected',
			reason: 'Policy',
		});
		const items = await poller.poll();
		expect(items.map((item) => [item.json.template_id, item.json.status])).toEqual([
			[template.template_id, 'Rejected'],
		]);
	});
});
