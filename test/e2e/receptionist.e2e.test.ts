/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- drives a real n8n from plain Node.js, not node code */
/**
 * The AI receptionist example (examples/ai-receptionist.json) run for real in n8n 2.41.1: published, the simulator
 * posting the platform's webhooks (incoming and outgoing messages, status changes) to the BotSailor Webhook
 * Trigger's production URLs, n8n's OpenAI Chat Model talking to the project's chat-completions stand-in
 * (./openaiStandIn.ts), which calls the BotSailor tools from a script and records every prompt it received.
 *
 * Changed from the example for the test only: the chat model gets the stand-in's credential, the Wait is
 * 4 s instead of 10 s (a burst here arrives within one second), and the model's timeout is 3 s instead of 60 s.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { TOOL_DESCRIPTIONS } from '../harness/toolDescriptions';
import { addMessage, setMessageStatus } from '../simulator/control';
import { type Simulator } from '../simulator/server';
import {
	executionsOf,
	productionUrl,
	runOf,
	waitForExecutions,
	waitForProductionWebhook,
} from '../webhookTrigger/realN8n';
import {
	EXAMPLES_DIR,
	ROOT,
	Session,
	activateWorkflow,
	installedN8nVersion,
	sinceN8n,
	versionAtLeast,
	type N8nInstance,
	type Workflow,
} from './n8n';
import { signedInEditor, withChromium } from './editor';
import { type OpenAiStandIn } from './openaiStandIn';
import { startAiWorld, type AiWorld } from './aiWorld';
import { CHLOE, NUMBER, seededPhone } from '../harness/params';

/** The example's AI Agent 3.1 is n8n 2.0's: an older n8n cannot activate the workflow (1.123.81: "reading 'execute'"). */
const AGENT_3 =
	"the example's AI Agent 3.1 exists from n8n 2.0; on 1.x this file is not run (test/e2e/versions.js): the operations as AI tools are run on 1.123.81 by aiAgent.e2e.test.ts under AI Agent 3 and 2.2, and on n8n before 1.109 no declarative tool node runs";
const SUPPORTED = versionAtLeast(installedN8nVersion(), '2.0.0');

const PHONE = CHLOE;
const STOPPING = seededPhone(4);
const HANDED = seededPhone(5);
const FAILING = seededPhone(6);
const SILENT = seededPhone(7);
const SLOW = seededPhone(8);
const OPENAI_CREDENTIAL = { id: 'OpenAiStandIn002', name: 'OpenAI stand-in' };
const EXAMPLE = JSON.parse(
	readFileSync(join(EXAMPLES_DIR, 'ai-receptionist.json'), 'utf8'),
) as Workflow;
const TRIGGER = EXAMPLE.nodes.find((node) => node.name === 'On Incoming Message')!;
const WEBHOOK_ID = String(TRIGGER.webhookId);
const FALLBACK = String(
	EXAMPLE.nodes.find((node) => node.name === 'Send Fallback Text')!.parameters.message,
);

let sim: Simulator;
let standIn: OpenAiStandIn;
let n8n: N8nInstance;
let session: Session;
let world: AiWorld | undefined;

function runnable(): Workflow {
	const workflow = JSON.parse(JSON.stringify(EXAMPLE)) as Workflow;
	for (const node of workflow.nodes) {
		if (node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi')
			node.credentials = { openAiApi: OPENAI_CREDENTIAL };
		if (node.type === 'n8n-nodes-base.wait') node.parameters.amount = 4;
		if (node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi')
			(node.parameters.options as Record<string, unknown>).timeout = 3000;
	}
	return workflow;
}

/** The platform posts every kind of event to this workflow: only customer messages may start it. */
function postEverything(): void {
	sim.state.webhooks.configure(NUMBER, {
		urls: {
			incoming_message: productionUrl(n8n, WEBHOOK_ID),
			outgoing_message: productionUrl(n8n, WEBHOOK_ID, undefined, 'outgoing'),
			message_status: productionUrl(n8n, WEBHOOK_ID),
		},
	});
}

const customer = (text: string, phone = PHONE) =>
	addMessage(sim.state, { phone_number_id: NUMBER, phone_number: phone, text });
const sendsTo = (phone: string) =>
	sim.requests.filter(
		(request) => request.path === '/whatsapp/send' && request.body.phone_number === phone,
	);

/** Waits for `count` executions in all (earlier tests' included), then lets the platform's webhooks settle. */
async function settled(count: number) {
	await sim.state.webhooks.idle();
	const executions = await waitForExecutions(session, EXAMPLE.id, count, {
		timeoutMs: 120_000,
		settleMs: 3000,
	});
	await sim.state.webhooks.idle();
	return executions;
}

/** Which nodes each of the newest `count` executions ran, oldest first. */
async function nodesRun(count: number): Promise<string[][]> {
	const executions = (await executionsOf(session, EXAMPLE.id))
		.sort((a, b) => Number(a.id) - Number(b.id))
		.slice(-count);
	const runs = [];
	for (const execution of executions) {
		const run = await runOf(n8n, session, execution.id);
		expect({ execution: execution.id, status: run.status }).toEqual({
			execution: execution.id,
			status: 'success',
		});
		runs.push(Object.keys(run.data.resultData.runData));
	}
	return runs;
}

beforeAll(async () => {
	if (!SUPPORTED) return;
	world = await startAiWorld('receptionist', OPENAI_CREDENTIAL, {
		'receptionist.json': runnable(),
	});
	({ sim, standIn, n8n, session } = world);
	await activateWorkflow(session, EXAMPLE.id);
	await waitForProductionWebhook(n8n, WEBHOOK_ID);
}, 600_000);

afterAll(async () => {
	await world?.close();
}, 60_000);

let executionsSoFar = 0;

// The simulator is not reset between tests: its message ids would start again, and the trigger rightly drops a
// message id it has seen (a repeated delivery). Each test has its own customer instead.
beforeEach(() => {
	if (!SUPPORTED) return;
	sim.clearRequests();
	standIn.reset();
});

sinceN8n('2.0.0', AGENT_3)(
	'a burst of five messages is answered exactly once, with the earlier turns (a human agent’s too) in the model’s prompt; its own reply and status events start nothing',
	async () => {
		// Earlier turns, before the platform posts anything to n8n.
		customer('Do you make gluten-free cakes?');
		addMessage(sim.state, {
			phone_number_id: NUMBER,
			phone_number: PHONE,
			sender: 'agent',
			agent_name: 'Sam Support',
			text: 'Yes, we bake a gluten-free sponge every Friday.',
		});
		postEverything();
		standIn.script([
			{ toolCalls: [{ name: 'Get_Transcript', arguments: { phone_number: PHONE } }] },
			{
				toolCalls: [
					{
						name: 'Send_Text',
						arguments: {
							phone_number: PHONE,
							message: 'Yes! A gluten-free sponge for Saturday is possible. Shall I note it?',
						},
					},
				],
			},
			{ text: 'Answered.' },
		]);
		const burst = [
			customer('Hi again'),
			customer('I would like the gluten-free one'),
			customer('for Saturday?'),
			customer('12 people'),
			customer('and with candles please'),
		];
		executionsSoFar += 5;
		await settled(executionsSoFar);

		// The tools the model was offered, each with its description for a model and only its $fromAI() keys.
		const tools = standIn.requests[0].body.tools ?? [];
		const offered = Object.fromEntries(tools.map((tool) => [tool.function.name, tool.function]));
		expect(Object.keys(offered).sort()).toEqual([
			'Get_Subscriber',
			'Get_Transcript',
			'Hand_Over_to_a_Person',
			'Send_Text',
			'Update_CRM_Deal',
		]);
		for (const [name, key] of [
			['Get_Transcript', 'message.getTranscript'],
			['Hand_Over_to_a_Person', 'subscriber.handOver'],
			['Send_Text', 'message.sendText'],
		])
			expect(offered[name].description).toContain(TOOL_DESCRIPTIONS[key]);
		expect(offered.Get_Transcript.description).toContain(`WhatsApp number ${NUMBER}`);
		const keys = (name: string) =>
			Object.keys((offered[name].parameters as { properties: object }).properties).sort();
		expect(keys('Hand_Over_to_a_Person')).toEqual(['phone_number', 'reason']);
		expect(keys('Get_Transcript')).toEqual(['phone_number']);

		// One reply to five messages.
		expect(sendsTo(PHONE)).toHaveLength(1);
		expect(standIn.remaining()).toBe(0);
		expect(standIn.requests).toHaveLength(3);
		// The model got all five messages at once …
		const prompt = JSON.stringify(standIn.requests[0].body.messages);
		for (const message of burst)
			expect(prompt).toContain(JSON.parse(message.message_content).text.body);
		// … and, from Get Transcript, the conversation before them, the human agent's answer included.
		const transcript = standIn.toolResults(standIn.requests[1])[0].content;
		expect(transcript).toContain('customer: Do you make gluten-free cakes?');
		expect(transcript).toContain(
			'agent Sam Support: Yes, we bake a gluten-free sponge every Friday.',
		);
		expect(transcript).toContain('customer: and with candles please');

		// The bot's reply was posted to the Outgoing Message URL; its status changes to the /webhook URL: no run.
		const reply = sim.state.messages.find(
			(message) =>
				message.sender === 'bot' && message.whatsapp_bot_subscriber_subscriber_id === PHONE,
		)!;
		setMessageStatus(sim.state, { wa_message_id: reply.wa_message_id, status: 'delivered' });
		setMessageStatus(sim.state, { wa_message_id: reply.wa_message_id, status: 'read' });
		const executions = await settled(executionsSoFar);
		expect(executions).toHaveLength(executionsSoFar);
		expect(sim.state.webhooks.deliveries.map((delivery) => delivery.event).sort()).toEqual(
			expect.arrayContaining(['incoming_message', 'message_status', 'outgoing_message']),
		);
		// Four runs stopped at Is Newest?; one went on to the agent, whose reply left nothing for the fallback.
		const runs = await nodesRun(5);
		expect(runs.filter((nodes) => nodes.includes('AI Agent'))).toHaveLength(1);
		expect(runs.filter((nodes) => !nodes.includes('Wants to Stop?'))).toHaveLength(4);
		expect(runs.filter((nodes) => nodes.includes('Send Fallback Text'))).toHaveLength(0);
	},
	240_000,
);

sinceN8n('2.0.0', AGENT_3)(
	'STOP: Opt Out, no answer and no model call',
	async () => {
		postEverything();
		standIn.script([{ text: 'must not be asked' }]);
		customer('STOP', STOPPING);
		executionsSoFar += 1;
		await settled(executionsSoFar);
		expect(sendsTo(STOPPING)).toHaveLength(0);
		expect(standIn.requests).toHaveLength(0);
		const label = sim.state.labels.find((entry) => entry.label_name === 'opted-out');
		expect(label).toBeDefined();
		expect(sim.state.subscriber(NUMBER, STOPPING)!.label_ids).toContain(label!.id);
		const [nodes] = await nodesRun(1);
		expect(nodes).toContain('Opt Out');
		expect(nodes).not.toContain('AI Agent');
	},
	180_000,
);

sinceN8n('2.0.0', AGENT_3)(
	'a handoff request assigns the conversation to a person, opens it and leaves the reason',
	async () => {
		// A seeded customer whose conversation was resolved.
		sim.state.subscriber(NUMBER, HANDED)!.conversation_status = 1;
		postEverything();
		const reason = 'Customer asks to speak to a person about a wedding cake order';
		standIn.script([
			{
				toolCalls: [
					{
						name: 'Send_Text',
						arguments: { phone_number: HANDED, message: 'A person of our team will reply soon.' },
					},
				],
			},
			{
				toolCalls: [{ name: 'Hand_Over_to_a_Person', arguments: { phone_number: HANDED, reason } }],
			},
			{ text: 'Handed over.' },
		]);
		customer('Can I talk to a real person please?', HANDED);
		executionsSoFar += 1;
		await settled(executionsSoFar);
		const subscriber = sim.state.subscriber(NUMBER, HANDED)!;
		expect([501, 502]).toContain(subscriber.assigned_agent_id);
		expect(subscriber.conversation_status).toBe(0);
		expect(sim.state.notes.find((note) => note.chat_id === HANDED)?.note_text).toContain(reason);
		const results = standIn.toolResults(standIn.requests[2]).map((result) => result.content);
		expect(results).toEqual([
			expect.stringContaining('"sent_as":"text"'),
			expect.stringContaining('"handed_over":true'),
		]);
		expect(sendsTo(HANDED)).toHaveLength(1);
		// The customer was answered: no fallback, no second hand-over.
		const [nodes] = await nodesRun(1);
		expect(nodes).toContain('Check the Reply');
		expect(nodes).not.toContain('Send Fallback Text');
		expect(sim.state.notes.filter((note) => note.chat_id === HANDED)).toHaveLength(1);
	},
	180_000,
);

/** The fallback went to `phone` once, and the conversation was handed over once with a note saying why. */
async function fellBack(phone: string, why: RegExp) {
	const sent = sendsTo(phone);
	expect(sent.map((request) => request.body.message)).toEqual([FALLBACK]);
	expect([501, 502]).toContain(sim.state.subscriber(NUMBER, phone)!.assigned_agent_id);
	const notes = sim.state.notes.filter((note) => note.chat_id === phone);
	expect(notes).toHaveLength(1);
	expect(notes[0].note_text).toMatch(why);
}

sinceN8n('2.0.0', AGENT_3)(
	'the model failing (HTTP 500) on a burst of five messages: the fallback text goes once, the conversation is handed over with the reason',
	async () => {
		postEverything();
		standIn.fail({ status: 500, message: 'The model is overloaded (stand-in)' });
		for (const text of ['Hello', 'are you there?', 'I need a cake', 'for 12 people', 'on Sunday'])
			customer(text, FAILING);
		executionsSoFar += 5;
		await settled(executionsSoFar);
		// The model was asked (and failed) in one run only: the four others stopped at Is Newest?.
		expect(standIn.requests.length).toBeGreaterThanOrEqual(1);
		expect(standIn.requests.every((request) => 'error' in request.answer)).toBe(true);
		// n8n words a provider's 500 itself ("The service was not able to process your request").
		await fellBack(FAILING, /The AI model failed, so the customer got the fallback text: \S/);
		const runs = await nodesRun(5);
		expect(runs.filter((nodes) => nodes.includes('AI Agent'))).toHaveLength(1);
		expect(runs.filter((nodes) => nodes.includes('Hand Over (No AI Answer)'))).toHaveLength(1);
		expect(runs.filter((nodes) => !nodes.includes('Wants to Stop?'))).toHaveLength(4);
	},
	240_000,
);

sinceN8n('2.0.0', AGENT_3)(
	'handed over: the next message gets no AI reply and no second fallback (the reply guards: assigned to a person)',
	async () => {
		postEverything();
		standIn.script([
			{
				toolCalls: [
					{ name: 'Send_Text', arguments: { phone_number: FAILING, message: 'Sunday works!' } },
				],
			},
			{ text: 'Done.' },
		]);
		customer('Hello? Anyone?', FAILING);
		executionsSoFar += 1;
		await settled(executionsSoFar);
		// The model's Send_Text was skipped: the conversation is assigned to a person.
		expect(standIn.toolResults(standIn.requests[1])[0].content).toContain(
			'assigned_to_team_member',
		);
		expect(sendsTo(FAILING)).toHaveLength(0);
		const [nodes] = await nodesRun(1);
		expect(nodes).toContain('Send Fallback Text');
		expect(nodes).not.toContain('Hand Over (No AI Answer)');
		expect(sim.state.notes.filter((note) => note.chat_id === FAILING)).toHaveLength(1);
	},
	180_000,
);

sinceN8n('2.0.0', AGENT_3)(
	'an empty answer from the model (no reply sent): the fallback text goes once, handed over with the reason',
	async () => {
		postEverything();
		standIn.script([{ text: '' }, { text: '' }, { text: '' }]);
		customer('What time do you open tomorrow?', SILENT);
		executionsSoFar += 1;
		await settled(executionsSoFar);
		await fellBack(SILENT, /The AI model gave no answer/);
	},
	180_000,
);

sinceN8n('2.0.0', AGENT_3)(
	'a model that does not answer in time: the fallback text goes once, handed over with the reason',
	async () => {
		postEverything();
		standIn.fail('hang');
		customer('Do you deliver?', SLOW);
		executionsSoFar += 1;
		await settled(executionsSoFar);
		await fellBack(SLOW, /The AI model failed/);
	},
	180_000,
);

(SUPPORTED ? withChromium('the receptionist example in the editor') : sinceN8n('2.0.0', AGENT_3))(
	'the editor shows the example: every node with its subtitle, the tools under the agent (docs/ai-receptionist.png)',
	async () => {
		const { browser, page } = await signedInEditor(n8n.url, { width: 1600, height: 900 });
		try {
			await page.goto(`${n8n.url}/workflow/${EXAMPLE.id}`);
			const node = (name: string) =>
				page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`).first();
			await node('Get Unanswered').waitFor({ timeout: 30_000 });
			for (const name of [
				'On Incoming Message',
				'Wait for More Messages',
				'Is Newest?',
				'Wants to Stop?',
				'Opt Out',
				'AI Agent',
				'Get Transcript',
				'Hand Over to a Person',
				'Send Text',
			])
				await node(name).waitFor({ timeout: 10_000 });
			const subtitle = (await node('Get Unanswered').innerText()).replace(/\s+/g, ' ');
			expect(subtitle).toContain('Get Unanswered: Message');
			// n8n's "Production Checklist" pop-up of a published workflow would cover the sticky note.
			await page
				.getByText('Production Checklist')
				.locator('xpath=..')
				.locator('button, [role=button], svg')
				.last()
				.click({ timeout: 3000 })
				.catch(() => undefined);
			await page.keyboard.press('Escape');
			await page
				.locator('[data-test-id="zoom-to-fit"]')
				.click({ timeout: 3000 })
				.catch(() => undefined);
			await page.waitForTimeout(1000);
			// The README's picture only when asked (UPDATE_SCREENSHOTS=1): no test run writes into the repository.
			const shot = process.env.UPDATE_SCREENSHOTS
				? join(ROOT, 'docs', 'ai-receptionist.png')
				: join(world!.work, 'ai-receptionist.png');
			await page.screenshot({ path: shot });
			expect(statSync(shot).size).toBeGreaterThan(5000);
		} finally {
			await browser.close();
		}
	},
	120_000,
);
