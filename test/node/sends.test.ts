/**
 * The sends (every operation with a `send` definition: SENDS, nodes/BotSailor/resources/sends.ts), each run both ways
 * n8n runs the node: in a workflow (the bulk path, customOperations) and through the node type's `execute` (n8n's
 * declarative engine, as AI Agent 2.x and other tool consumers call it). Both must send the same request, output the
 * same item and fail the same way.
 */
import type { INodePropertyOptions } from 'n8n-workflow';
import { sendTextNode } from '../../bench/sendTextNode';
import { BotSailor } from '../../nodes/BotSailor/BotSailor.node';
import { SENDS } from '../../nodes/BotSailor/resources/sends';
import { runNode, type InputItem, type RunResult } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { validParameters } from '../harness/operations';
import { NUMBER, PHONE, fromList, numberFromList } from '../harness/params';

const fx = useSimulator({ seed: { subscribersPerNumber: 5 } });
const PATHS = ['workflow', 'execute'] as const;
type Path = (typeof PATHS)[number];

interface SendCase {
	name: string;
	endpoint: string;
	parameters: () => Record<string, unknown>;
	/** Parameters that make the input bad, and the start of the error message that names the field. */
	bad: Record<string, unknown>;
	badMessage: RegExp;
}

const orderUpdateId = () =>
	String(
		fx.sim.state.templates.find(
			(entry) => entry.template_name === 'order_update' && entry.phone_number_id === NUMBER,
		)!.template_id,
	);

const CASES: SendCase[] = [
	{
		name: 'Message → Send Text',
		endpoint: '/whatsapp/send',
		parameters: () => ({
			...validParameters('message', 'sendText'),
			phoneNumber: '+1 555 010 0000',
		}),
		bad: { phoneNumber: 'call me' },
		badMessage: /^Subscriber /,
	},
	{
		name: 'Message → Send Template',
		endpoint: '/whatsapp/send/template',
		parameters: () => ({
			resource: 'message',
			operation: 'sendTemplate',
			phoneNumberId: numberFromList,
			phoneNumber: PHONE,
			templateId: fromList(orderUpdateId()),
			templateVariables: {
				mappingMode: 'defineBelow',
				value: { 'templateVariable-order_id-1': 'A-1001', 'templateVariable-status-1': 'shipped' },
			},
		}),
		bad: {
			templateVariables: {
				mappingMode: 'defineBelow',
				value: { 'templateVariable-order_id-1': 'A-1001', 'templateVariable-status-1': '' },
			},
		},
		badMessage: /^Template variable templateVariable-status-1 is empty/,
	},
	{
		name: 'Message → Send Buttons',
		endpoint: '/whatsapp/send/interactive-buttons',
		parameters: () => ({
			resource: 'message',
			operation: 'sendButtons',
			phoneNumberId: numberFromList,
			phoneNumber: PHONE,
			message: 'Pick one',
			buttons: { button: [{ title: 'Yes' }, { title: 'No', id: 'no' }] },
		}),
		bad: { buttons: { button: [] } },
		badMessage: /^You can send between 1 and 3 reply buttons/,
	},
	{
		name: 'Message → Send Media',
		endpoint: '/whatsapp/send/file',
		parameters: () => ({
			resource: 'message',
			operation: 'sendMedia',
			phoneNumberId: numberFromList,
			phoneNumber: PHONE,
			source: 'url',
			mediaUrl: 'https://example.com/menu.pdf',
		}),
		bad: { mediaUrl: 'menu.pdf' },
		badMessage: /^Media URL must be a URL/,
	},
	{
		name: 'Template → Send Broadcast',
		endpoint: '/whatsapp/broadcast/template/send',
		parameters: () => validParameters('template', 'sendBroadcast'),
		bad: { flowData: '{}' },
		badMessage: /^Flow Data must describe the campaign/,
	},
	{
		name: 'Bot Flow → Trigger',
		endpoint: '/whatsapp/trigger-bot',
		parameters: () => validParameters('botFlow', 'trigger'),
		bad: { phoneNumber: '+1 555 CALL NOW' },
		badMessage: /^Subscriber must contain only digits/,
	},
];

function run(
	path: Path,
	parameters: Record<string, unknown>,
	extra: { continueOnFail?: boolean; items?: InputItem[] } = {},
): Promise<RunResult> {
	return runNode({ path, parameters: parameters as never, credentials: fx.credentials, ...extra });
}

/** The requests' paths, but the template list a run reads after a template went out, for its category (messageKind.ts). */
const sendPaths = () =>
	fx.sim.requests
		.map((request) => request.path)
		.filter((path) => path !== '/whatsapp/template/list');

/** The output's JSON with the ids the platform makes up per request replaced, so two runs compare. */
const comparable = (result: RunResult) =>
	result.items.map((item) => ({
		...item.json,
		...(item.json.wa_message_id ? { wa_message_id: 'id' } : {}),
		...(item.json.visual_flow_campaign_id
			? { visual_flow_campaign_id: 'id', redirect_on_success_url: 'url' }
			: {}),
		pairedItem: item.pairedItem,
	}));

describe('the sends are one definition each, registered for both drivers', () => {
	it(`customOperations hold exactly the ${SENDS.length} sends and Send and Wait, and each operation routes through its definition`, () => {
		const node = new BotSailor();
		const registered = Object.entries(node.customOperations ?? {}).flatMap(
			([resource, operations]) =>
				Object.keys(operations).map((operation) => `${resource}.${operation}`),
		);
		// Besides the sends: Message → Send and Wait for Response (sendAndWait/), which pauses the run.
		expect(registered.sort()).toEqual(
			[...SENDS.map((send) => `${send.resource}.${send.operation}`), 'message.sendAndWait'].sort(),
		);
		for (const send of SENDS) {
			const property = node.description.properties.find(
				(entry) =>
					entry.name === 'operation' &&
					entry.displayOptions?.show?.resource?.includes(send.resource),
			)!;
			const option = (property.options as INodePropertyOptions[]).find(
				(entry) => entry.value === send.operation,
			)!;
			expect(option.routing?.request?.url).toBe(send.url);
			expect(typeof option.routing?.operations?.pagination).toBe('function');
		}
	});
});

describe.each(CASES)(
	'$name, in a workflow and through execute',
	({ endpoint, parameters, bad, badMessage }) => {
		it('sends the same request and outputs the same item', async () => {
			const outputs: RunResult[] = [];
			const bodies: unknown[] = [];
			for (const path of PATHS) {
				fx.sim.reset({ subscribersPerNumber: 5 });
				const result = await run(path, parameters());
				expect(result.error).toBeUndefined();
				expect(sendPaths()).toEqual([endpoint]);
				expect(fx.sim.requests[0].tokenIn).toEqual(['body']);
				outputs.push(result);
				bodies.push(fx.sim.requests[0].body);
			}
			expect(bodies[1]).toEqual(bodies[0]);
			expect(outputs[0].items).toHaveLength(1);
			expect(outputs[0].items[0].json).toMatchObject({ success: true });
			expect(comparable(outputs[1])).toEqual(comparable(outputs[0]));
		});

		it('refuses a bad input with the same error before sending anything, with and without Continue On Fail', async () => {
			const messages: string[] = [];
			for (const path of PATHS) {
				const { error } = await run(path, { ...parameters(), ...bad });
				expect(error?.message).toMatch(badMessage);
				expect(error?.description).toMatch(/Nothing was sent to the platform\./);
				messages.push(error!.message);
				const { items, error: none } = await run(
					path,
					{ ...parameters(), ...bad },
					{ continueOnFail: true },
				);
				expect(none).toBeUndefined();
				expect(items).toEqual([
					expect.objectContaining({ json: { error: messages[0] }, pairedItem: { item: 0 } }),
				]);
			}
			expect(messages[1]).toBe(messages[0]);
			expect(fx.sim.requests).toHaveLength(0);
		});

		it('fails with the API\'s own text on status "0", sent once, the same way on both paths', async () => {
			for (const path of PATHS) {
				fx.sim.reset({ subscribersPerNumber: 5 });
				fx.sim.faults.add(endpoint, {
					kind: 'status0',
					message: 'Subscriber has opted out.',
					times: 1,
				});
				const { error } = await run(path, parameters());
				expect(error?.name).toBe('NodeApiError');
				expect(error?.message).toBe('Subscriber has opted out.');
				expect(fx.sim.requests).toHaveLength(1);
			}
		});

		it('retries a 429 and delivers once, on both paths', async () => {
			for (const path of PATHS) {
				fx.sim.reset({ subscribersPerNumber: 5 });
				fx.sim.faults.add(endpoint, { kind: 'rate429', times: 1 });
				const { items, error } = await run(path, parameters());
				expect(error).toBeUndefined();
				expect(items[0].json).toMatchObject({ success: true });
				expect(sendPaths()).toEqual([endpoint, endpoint]);
			}
		});
	},
);

describe('a failed run says what was delivered', () => {
	const sendText = {
		resource: 'message',
		operation: 'sendText',
		phoneNumberId: numberFromList,
		phoneNumber: '={{ $json.phone }}',
		message: '={{ $json.text }}',
	};
	const phones = ['15550100000', '15550100001', '15550100002', '15550100003', '15550100004'];
	const items = phones.map((phone, index) => ({ json: { phone, text: `Hello ${index}` } }));
	/** The third request fails with the API's refusal, the others pass. */
	const failThird = () => {
		fx.sim.faults.add('/whatsapp/send', { kind: 'none', times: 2 });
		fx.sim.faults.add('/whatsapp/send', {
			kind: 'status0',
			message: 'Subscriber has opted out.',
			times: 1,
		});
	};
	/** The seed holds earlier conversations: count only what this test sent. */
	let seeded = 0;
	beforeEach(() => (seeded = fx.sim.state.messages.length));
	const sent = () => fx.sim.state.messages.slice(seeded).filter((entry) => entry.sender === 'bot');
	const botMessagesTo = (phone: string) =>
		sent().filter((entry) => entry.whatsapp_bot_subscriber_subscriber_id === phone).length;

	it('at concurrency 1, stops at the first failure and names delivered items, their ids and the items not attempted (the shipped defaults: stopRun.test.ts)', async () => {
		failThird();
		const { error, items: output } = await runNode({
			nodeType: sendTextNode({ concurrency: 1 }),
			parameters: sendText as never,
			credentials: fx.credentials,
			items,
		});
		expect(output).toHaveLength(0);
		expect(error?.message).toBe('Subscriber has opted out.');
		const [first, second] = sent().map((entry) => entry.wa_message_id);
		expect(error?.description).toContain(`Delivered: 2 of 5 items (0: ${first}; 1: ${second}).`);
		// Issue 34: the report separates delivered, may have been delivered and not sent (format changed on purpose).
		expect(error?.description).toContain('Not sent: item 2 (failed), items 3–4 (not attempted).');
		expect(error?.description).not.toContain('May have been delivered');
		expect(fx.sim.requests).toHaveLength(3);
	});

	it('with Continue On Fail outputs every item: its result or its error item, paired', async () => {
		failThird();
		const { error, items: output } = await runNode({
			nodeType: sendTextNode({ concurrency: 1 }),
			parameters: sendText as never,
			credentials: fx.credentials,
			items,
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(output.map((item) => item.pairedItem)).toEqual(phones.map((_, item) => ({ item })));
		expect(output.map((item) => (item.json.error ? 'error' : 'sent'))).toEqual([
			'sent',
			'sent',
			'error',
			'sent',
			'sent',
		]);
	});

	it('under Retry On Fail sends only what was not delivered: every message once, earlier results output again', async () => {
		failThird();
		const { error, items: output } = await runNode({
			nodeType: sendTextNode({ concurrency: 1 }),
			parameters: sendText as never,
			credentials: fx.credentials,
			items,
			retryOnFail: { maxTries: 2 },
		});
		expect(error).toBeUndefined();
		expect(output).toHaveLength(5);
		expect(phones.map(botMessagesTo)).toEqual([1, 1, 1, 1, 1]);
		const ids = sent().map((entry) => entry.wa_message_id);
		expect(new Set(output.map((item) => item.json.wa_message_id))).toEqual(new Set(ids));
		// First attempt: items 0, 1, 2 (refused); second attempt: 2, 3, 4.
		expect(fx.sim.requests.map((request) => request.body.phone_number)).toEqual([
			phones[0],
			phones[1],
			phones[2],
			phones[2],
			phones[3],
			phones[4],
		]);
	});

	it('two runs of the same items in different executions both send (the record is per execution)', async () => {
		await runNode({
			parameters: sendText as never,
			credentials: fx.credentials,
			items: items.slice(0, 1),
		});
		await runNode({
			parameters: sendText as never,
			credentials: fx.credentials,
			items: items.slice(0, 1),
		});
		expect(botMessagesTo(phones[0])).toBe(2);
	});
});

describe('faults around a send: duplicates 0 on both paths', () => {
	const sendText = () => CASES[0].parameters();
	const delivered = (before: number) =>
		fx.sim.state.messages.slice(before).filter((entry) => entry.sender === 'bot').length;

	it.each([
		[
			'processed, then answered 504',
			'processThen504' as const,
			/^The message may have been delivered: The platform answered with a web page/,
		],
		[
			'processed, then answered 502',
			'processThen502' as const,
			/^The message may have been delivered: The platform answered with a web page/,
		],
		[
			'processed, then the connection dropped',
			'processThenDrop' as const,
			/^The message may have been delivered: The connection to the platform failed/,
		],
	])(
		'%s: one request, one message, reported as "may have been delivered" (not retried, not success)',
		async (_name, kind, message) => {
			for (const path of PATHS) {
				fx.sim.reset({ subscribersPerNumber: 5 });
				const before = fx.sim.state.messages.length;
				fx.sim.faults.add('/whatsapp/send', { kind, times: 1 });
				const { error } = await run(path, sendText());
				expect(fx.sim.requests).toHaveLength(1);
				expect(delivered(before)).toBe(1);
				expect(error?.name).toBe('NodeApiError');
				expect(error?.message).toMatch(message);
				expect(error?.description).toMatch(
					/did not send it again\. Check the conversation \(Message → Get Many\)/,
				);
				fx.sim.faults.add('/whatsapp/send', { kind, times: 1 });
				const { items } = await run(path, sendText(), { continueOnFail: true });
				// Under Continue On Fail: an error item, never a success.
				expect(items).toEqual([
					expect.objectContaining({
						json: { error: expect.stringMatching(message) },
						pairedItem: { item: 0 },
					}),
				]);
				expect(fx.sim.requests).toHaveLength(2);
			}
		},
	);

	it('Retry On Fail does not resend an item whose outcome is unknown', async () => {
		const before = fx.sim.state.messages.length;
		fx.sim.faults.add('/whatsapp/send', { kind: 'processThen504', times: 1 });
		const { error } = await runNode({
			parameters: sendText() as never,
			credentials: fx.credentials,
			retryOnFail: { maxTries: 3 },
		});
		expect(error?.message).toMatch(/^The message may have been delivered/);
		expect(fx.sim.requests).toHaveLength(1);
		expect(delivered(before)).toBe(1);
	});

	it('a 503 with Retry-After is retried after that delay and delivered once', async () => {
		for (const path of PATHS) {
			fx.sim.reset({ subscribersPerNumber: 5 });
			const before = fx.sim.state.messages.length;
			fx.sim.faults.add('/whatsapp/send', {
				kind: 'unavailable503',
				retryAfterSeconds: 1,
				times: 1,
			});
			const started = Date.now();
			const { error } = await run(path, sendText());
			expect(error).toBeUndefined();
			expect(Date.now() - started).toBeGreaterThanOrEqual(950);
			expect(fx.sim.requests).toHaveLength(2);
			expect(delivered(before)).toBe(1);
		}
	});

	it('refused connections (the request never left) are retried and delivered once', async () => {
		for (const path of PATHS) {
			fx.sim.reset({ subscribersPerNumber: 5 });
			const before = fx.sim.state.messages.length;
			fx.sim.refuseConnections(400);
			const { error } = await run(path, sendText());
			expect(error).toBeUndefined();
			expect(fx.sim.requests).toHaveLength(1);
			expect(delivered(before)).toBe(1);
		}
	});
});
