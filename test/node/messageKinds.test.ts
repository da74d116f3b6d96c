/**
 * What each send put out, in Meta's terms (issue 55, point 5; nodes/BotSailor/sending/messageKind.ts, docs/message-kinds.md):
 * `message_kind` free-form or template, a template's `template_category` from the platform's template list (the
 * `category` in `template_json`, spec "Message template"), the list read once per run, and the run's count.
 */
import type { IDataObject } from 'n8n-workflow';
import { runNode, type RunResult } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { AVA, fromList, NUMBER, numberFromList } from '../harness/params';
import { callControl } from '../simulator/control';
import { categoryOf, kindCounts } from '../../nodes/BotSailor/sending/messageKind';

const fx = useSimulator({ seed: { subscribersPerNumber: 5 } });
const PATHS = ['workflow', 'execute'] as const;
const LIST = '/whatsapp/template/list';

const templateOf = (name: string) =>
	fx.sim.state.templates.find(
		(entry) => entry.template_name === name && entry.phone_number_id === NUMBER,
	)!;
/** order_update made a utility template (the seed's are marketing ones). */
function utilityOrderUpdate(): string {
	const template = templateOf('order_update');
	const json = JSON.parse(String(template.template_json)) as IDataObject;
	template.template_json = JSON.stringify({ ...json, category: 'UTILITY' });
	return String(template.template_id);
}
/** A utility copy of welcome_offer (same variables), so one run can send both categories. */
function utilityWelcome(): string {
	const template = templateOf('welcome_offer');
	const json = JSON.parse(String(template.template_json)) as IDataObject;
	const copy = {
		...template,
		id: 9901,
		template_id: '990001',
		template_name: 'welcome_utility',
		template_json: JSON.stringify({ ...json, category: 'UTILITY' }),
	};
	fx.sim.state.templates.push(copy);
	return copy.template_id;
}
const sendTemplate = (templateId: string, variables: Record<string, string>) => ({
	resource: 'message',
	operation: 'sendTemplate',
	phoneNumberId: numberFromList,
	phoneNumber: '={{ $json.phone }}',
	templateId: { __rl: true, mode: 'id', value: templateId },
	templateVariables: { mappingMode: 'defineBelow', value: variables },
});
const WELCOME = { 'templateVariable-first_name-1': 'Ava', 'templateVariable-discount-2': '10%' };
const ORDER = { 'templateVariable-order_id-1': 'A-1001', 'templateVariable-status-1': 'shipped' };
const listReads = () => fx.sim.requests.filter((request) => request.path === LIST).length;
const hintsOf = (result: RunResult) =>
	(result.run.data.resultData.runData.BotSailor?.[0]?.hints ?? []).map((hint) => hint.message);
const phones = (count: number) =>
	Array.from({ length: count }, (_, index) => ({
		json: { phone: `1555020${String(index).padStart(4, '0')}` },
	}));

describe('message_kind and template_category on every send', () => {
	it('a bulk run of templates: each item says template and its category, the template list read once, the run counted', async () => {
		const welcome = String(templateOf('welcome_offer').template_id);
		const utility = utilityWelcome();
		const result = await runNode({
			credentials: fx.credentials,
			items: [
				...phones(3).map((item) => ({ json: { ...item.json, template: welcome } })),
				...phones(2).map((item) => ({ json: { ...item.json, template: utility } })),
			],
			parameters: sendTemplate('={{ $json.template }}', WELCOME) as never,
		});
		expect(result.error).toBeUndefined();
		expect(
			result.items.map((item) => [item.json.message_kind, item.json.template_category]),
		).toEqual([
			['template', 'marketing'],
			['template', 'marketing'],
			['template', 'marketing'],
			['template', 'utility'],
			['template', 'utility'],
		]);
		expect(listReads()).toBe(1);
		expect(hintsOf(result)).toEqual(['Sent: 3 templates (marketing), 2 templates (utility)']);
	});

	it.each(PATHS)('free-form sends say free-form and read no template list (%s)', async (path) => {
		const result = await runNode({
			path,
			credentials: fx.credentials,
			items: phones(2),
			parameters: {
				resource: 'message',
				operation: 'sendText',
				phoneNumberId: numberFromList,
				phoneNumber: '={{ $json.phone }}',
				message: 'Your order is ready',
			} as never,
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.message_kind)).toEqual(['free-form', 'free-form']);
		expect(result.items[0].json).not.toHaveProperty('template_category');
		expect(listReads()).toBe(0);
		if (path === 'workflow') expect(hintsOf(result)).toEqual(['Sent: 2 free-form']);
	});

	it.each(PATHS)(
		'a template sent instead of a free-form message outside the window is a template, with its category (%s)',
		async (path) => {
			const order = utilityOrderUpdate();
			await callControl(fx.sim, 'deployment', { sessionWindow: 'enforced' });
			await callControl(fx.sim, 'window', {
				phone_number_id: NUMBER,
				phone_number: AVA,
				hours_ago: 30,
			});
			fx.sim.clearRequests();
			const result = await runNode({
				path,
				credentials: fx.credentials,
				parameters: {
					resource: 'message',
					operation: 'sendText',
					phoneNumberId: numberFromList,
					phoneNumber: AVA,
					message: 'Your order is ready',
					outsideWindow: 'template',
					templateId: fromList(order),
					templateVariables: { mappingMode: 'defineBelow', value: ORDER },
				} as never,
			});
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({
				sent_as: 'template',
				message_kind: 'template',
				template_category: 'utility',
			});
			expect(listReads()).toBe(1);
		},
	);

	it('a template list that cannot be read leaves the category null; the send stands, sent once', async () => {
		fx.sim.faults.add(LIST, { kind: 'status0', message: 'Something went wrong.' });
		const welcome = String(templateOf('welcome_offer').template_id);
		const result = await runNode({
			credentials: fx.credentials,
			items: phones(2),
			parameters: sendTemplate(welcome, WELCOME) as never,
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.template_category)).toEqual([null, null]);
		expect(result.items.map((item) => item.json.message_kind)).toEqual(['template', 'template']);
		expect(
			fx.sim.requests.filter((request) => request.path === '/whatsapp/send/template'),
		).toHaveLength(2);
		expect(hintsOf(result)).toEqual(['Sent: 2 templates (category unknown)']);
	});

	it('a failed run counts what went out by kind in its report', async () => {
		const welcome = String(templateOf('welcome_offer').template_id);
		fx.sim.faults.add('/whatsapp/send/template', {
			kind: 'status0',
			message: 'Subscriber has opted out.',
			times: 1,
			everyNth: 2,
		});
		const result = await runNode({
			credentials: fx.credentials,
			items: phones(2),
			parameters: {
				...sendTemplate(welcome, WELCOME),
				phoneNumber: '={{ $json.phone }}',
			} as never,
		});
		expect(result.error?.message).toBe('Subscriber has opted out.');
		expect(String(result.error?.description)).toContain('Delivered: 1 of 2 items');
		expect(String(result.error?.description)).toContain('Sent: 1 template (marketing).');
	});

	it('reads the category where the template list puts it, and counts as the summary says', () => {
		expect(categoryOf({ template_json: '{"name":"a","category":"MARKETING"}' })).toBe('marketing');
		expect(categoryOf({ category: 'AUTHENTICATION', template_json: '{}' })).toBe('authentication');
		expect(categoryOf({ template_json: 'not json' })).toBeNull();
		const records = [
			...Array.from({ length: 812 }, () => ({
				message_kind: 'template',
				template_category: 'marketing',
			})),
			...Array.from({ length: 40 }, () => ({ message_kind: 'free-form' })),
		];
		expect(kindCounts(records)).toBe('Sent: 812 templates (marketing), 40 free-form');
	});
});
