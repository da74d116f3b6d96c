/**
 * Third-party secrets in API data: the spec says template_json's access token is hidden, yet
 * deployments have been seen returning the business account's Meta access token there. No output,
 * dropdown, trigger item or error of this package may carry it.
 */
import { callMethod, runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { decideTemplate } from '../simulator/control';
import { numberParam, triggerPoller } from '../trigger/helpers';
import { NUMBER } from '../harness/params';

const fx = useSimulator();
const LEAKED = 'EAAGm0PX4ZCpsBAKZBZCtestMetaAccessToken0123456789';

/** The simulator as such a deployment: every template of the number returns the token inside template_json. */
function leakTokens() {
	for (const template of fx.sim.state.templates) {
		const json = JSON.parse(String(template.template_json)) as Record<string, unknown>;
		template.template_json = JSON.stringify({
			...json,
			access_token: LEAKED,
			nested: { accessToken: LEAKED, keep: 'this' },
		});
	}
	// SPEC-GAP: the simulator hides the token as the spec says; this models deployments that do not.
	fx.sim.state.hidesTemplateTokens = false;
}

describe('a Meta access token inside template_json never reaches an output', () => {
	it.each([[true], [false]])('Template → Get Many (Decode JSON Fields %s)', async (decode) => {
		leakTokens();
		const { items, error } = await runNode({
			parameters: {
				resource: 'template',
				operation: 'getMany',
				phoneNumberId: numberParam(),
				options: { decodeJsonFields: decode },
			},
			credentials: fx.credentials,
		});
		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThan(0);
		const text = JSON.stringify(items.map((item) => item.json));
		expect(text).not.toContain(LEAKED);
		expect(text).not.toMatch(/access_?token/i);
		// The rest of template_json is kept.
		expect(text).toContain('this');
	});

	it('the template dropdown and the Template Status Changed event', async () => {
		leakTokens();
		const list = await callMethod('listSearch', 'searchTemplates', {
			credentials: fx.credentials,
			parameters: { phoneNumberId: numberParam() },
		});
		expect(JSON.stringify(list)).not.toContain(LEAKED);
		const poller = triggerPoller(fx, {
			event: 'templateStatusChanged',
			phoneNumberId: numberParam(),
		});
		await poller.poll();
		const pending = fx.sim.state.templates.find(
			(entry) => entry.phone_number_id === NUMBER && entry.status === 'Submitted',
		)!;
		decideTemplate(fx.sim.state, { template_id: String(pending.template_id), status: 'APPROVED' });
		const items = await poller.poll();
		expect(items).toHaveLength(1);
		expect(JSON.stringify(items)).not.toContain(LEAKED);
		expect(JSON.stringify(poller.staticData())).not.toContain(LEAKED);
	});

	it('an API error text that carries a token in JSON is cleaned too', async () => {
		fx.sim.faults.add('/whatsapp/template/list', {
			kind: 'status0',
			message: JSON.stringify({ error: 'Meta refused', access_token: LEAKED }),
			times: 1,
		});
		const { error } = await runNode({
			parameters: { resource: 'template', operation: 'getMany', phoneNumberId: numberParam() },
			credentials: fx.credentials,
		});
		expect(error?.message).toContain('Meta refused');
		expect(JSON.stringify(error)).not.toContain(LEAKED);
	});
});
