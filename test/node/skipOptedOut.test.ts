/**
 * Skip Opted-Out Subscribers on the sends (Send Text, Template, Buttons, Media) and the broadcast: a subscriber
 * carrying the opt-out label (Subscriber → Opt Out) gets nothing and the item says so; everyone else is sent to as
 * before. Both ways n8n runs the node (the workflow's bulk path and `execute`, the tool path).
 */
import { runNode, type InputItem, type RunResult } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { AVA, BEN, byId, NUMBER, numberFromList } from '../harness/params';

const fx = useSimulator({ seed: { subscribersPerNumber: 5 } });
const OPTED_OUT = AVA;
const SUBSCRIBED = BEN;
const PATHS = ['workflow', 'execute'] as const;

/** The number's subscriber OPTED_OUT carries `name`, a label of the account (created here). */
function optOut(name = 'opted-out'): number {
	const id = 9_000 + fx.sim.state.labels.length;
	fx.sim.state.labels.push({ id, label_name: name, phone_number_id: NUMBER });
	fx.sim.state.subscriber(NUMBER, OPTED_OUT)!.label_ids.push(id);
	return id;
}

const paths = () => fx.sim.requests.map((request) => request.path);

const SENDS = [
	{ operation: 'sendText', endpoint: '/whatsapp/send', extra: { message: 'Sale today' } },
	{
		operation: 'sendTemplate',
		endpoint: '/whatsapp/send/template',
		extra: {
			templateId: byId('900000'),
			variableSource: 'manual',
			manualVariables: {
				variable: [
					{ label: 'first_name', position: 1, value: 'Ava' },
					{ label: 'discount', position: 2, value: '10%' },
				],
			},
		},
	},
	{
		operation: 'sendButtons',
		endpoint: '/whatsapp/send/interactive-buttons',
		extra: { message: 'Pick one', buttons: { button: [{ title: 'Yes' }] } },
	},
	{
		operation: 'sendMedia',
		endpoint: '/whatsapp/send/file',
		extra: { source: 'url', mediaUrl: 'https://example.com/menu.pdf' },
	},
] as const;

function send(
	path: (typeof PATHS)[number],
	operation: string,
	extra: object,
	items: InputItem[],
	parameters: object = { skipOptedOut: true },
): Promise<RunResult> {
	return runNode({
		path,
		credentials: fx.credentials,
		items,
		parameters: {
			resource: 'message',
			operation,
			phoneNumberId: numberFromList,
			phoneNumber: '={{ $json.phone }}',
			...extra,
			...parameters,
		} as never,
	});
}

describe.each(SENDS)(
	'Message → $operation: Skip Opted-Out Subscribers',
	({ operation, endpoint, extra }) => {
		it.each(PATHS)(
			'the opted-out subscriber is skipped, the other sent to, one Get each (%s)',
			async (path) => {
				optOut();
				const result = await send(path, operation, extra, [
					{ json: { phone: OPTED_OUT } },
					{ json: { phone: SUBSCRIBED } },
				]);
				expect(result.error).toBeUndefined();
				expect(result.items.map((item) => [item.pairedItem, item.json.skipped ?? false])).toEqual([
					[{ item: 0 }, true],
					[{ item: 1 }, false],
				]);
				expect(result.items[0].json).toEqual({
					skipped: true,
					reason: 'Opted out: the subscriber carries the label "opted-out"',
					phone_number: OPTED_OUT,
				});
				expect(result.items[1].json.wa_message_id).toMatch(/^wamid\./);
				const sends = fx.sim.requests.filter((request) => request.path === endpoint);
				expect(sends.map((request) => request.body.phone_number)).toEqual([SUBSCRIBED]);
				expect(paths().filter((entry) => entry === '/whatsapp/subscriber/get')).toHaveLength(2);
			},
		);
	},
);

describe('Skip Opted-Out Subscribers: the rules', () => {
	it('off (the default): no Get, the opted-out subscriber is sent to as before', async () => {
		optOut();
		const result = await send(
			'workflow',
			'sendText',
			{ message: 'Hi' },
			[{ json: { phone: OPTED_OUT } }],
			{},
		);
		expect(result.items[0].json.wa_message_id).toMatch(/^wamid\./);
		expect(paths()).toEqual(['/whatsapp/send']);
	});

	it('a label of the user’s choosing; a number that is no subscriber yet is sent to', async () => {
		optOut('STOP received');
		const result = await send(
			'workflow',
			'sendText',
			{ message: 'Hi' },
			[{ json: { phone: OPTED_OUT } }, { json: { phone: '15550199998' } }],
			{ skipOptedOut: true, optOutLabel: 'stop received' },
		);
		expect(result.items.map((item) => item.json.skipped ?? false)).toEqual([true, false]);
		expect(result.items[0].json.reason).toBe(
			'Opted out: the subscriber carries the label "stop received"',
		);
	});

	it('an empty Opt-Out Label is refused before any request', async () => {
		const result = await send(
			'workflow',
			'sendText',
			{ message: 'Hi' },
			[{ json: { phone: OPTED_OUT } }],
			{
				skipOptedOut: true,
				optOutLabel: '={{ "" }}',
			},
		);
		expect(result.error?.message).toBe('Opt-Out Label is empty');
		expect(paths()).toEqual([]);
	});

	it('with the 24-hour fallback: an opted-out subscriber gets no template either', async () => {
		optOut();
		const result = await send(
			'workflow',
			'sendText',
			{ message: 'Hi' },
			[{ json: { phone: OPTED_OUT } }],
			{
				skipOptedOut: true,
				outsideWindow: 'template',
				templateId: byId('900000'),
				variableSource: 'manual',
				manualVariables: { variable: [{ label: 'first_name', position: 1, value: 'Ava' }] },
			},
		);
		expect(result.items[0].json.skipped).toBe(true);
		expect(paths()).toEqual(['/whatsapp/subscriber/get']);
	});

	it.each(PATHS)(
		'Template → Send Broadcast: the opt-out label joins the campaign’s exclude_label_ids (%s)',
		async (path) => {
			const id = optOut();
			const result = await runNode({
				path,
				credentials: fx.credentials,
				parameters: {
					resource: 'template',
					operation: 'sendBroadcast',
					phoneNumberId: numberFromList,
					flowData: '{"template_id":"900000","labels":[31],"exclude_label_ids":[7]}',
					skipOptedOut: true,
				} as never,
			});
			expect(result.error).toBeUndefined();
			const sent = fx.sim.requests.find(
				(request) => request.path === '/whatsapp/broadcast/template/send',
			);
			expect(JSON.parse(String(sent?.body.flow_data))).toEqual({
				template_id: '900000',
				labels: [31],
				exclude_label_ids: [7, id],
			});
		},
	);

	it('Template → Send Broadcast without such a label: the campaign goes as given', async () => {
		const result = await runNode({
			credentials: fx.credentials,
			parameters: {
				resource: 'template',
				operation: 'sendBroadcast',
				phoneNumberId: numberFromList,
				flowData: '{"template_id":"900000","labels":[31]}',
				skipOptedOut: true,
			} as never,
		});
		expect(result.error).toBeUndefined();
		const sent = fx.sim.requests.find(
			(request) => request.path === '/whatsapp/broadcast/template/send',
		);
		expect(JSON.parse(String(sent?.body.flow_data))).toEqual({
			template_id: '900000',
			labels: [31],
		});
	});
});
