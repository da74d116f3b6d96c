/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- drives a real n8n from plain Node.js, not node code */
/**
 * The AI Agent example (examples/ai-agent-tool.json) run for real in n8n 2.41.1, under both of n8n's
 * tool paths: AI Agent 3.1 (n8n's default; the tool node runs through the engine, so the BotSailor
 * node's customOperations) and AI Agent 2.2 (the newest 2.x; tools go through `nodeType.execute`,
 * for this declarative node n8n's RoutingNode). The chat model is n8n's OpenAI Chat Model talking to
 * an OpenAI-compatible stand-in (./openaiStandIn.ts) that calls the BotSailor tools from a script and
 * records what the model got back; BotSailor is the simulator, both in this process.
 *
 * How it runs: the example is imported twice, as it is (Agent 3.1) and with the agent's typeVersion
 * set to 2.2, both with the OpenAI credential set on the chat model and the Chat Trigger made public
 * (the example keeps it private: a public chat that can message customers is not a default to ship).
 * `n8n start` serves them; both are activated and each scenario POSTs a message to a Chat Trigger's
 * production webhook, as n8n's chat widget does, then waits for the agent's answer (response mode
 * "last node").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Simulator } from '../simulator/server';
import {
	EXAMPLES_DIR,
	Session,
	activateWorkflow,
	installedN8nVersion,
	latestExecution,
	sendChatMessage,
	sinceN8n,
	versionAtLeast,
	waitForWebhook,
	type N8nInstance,
	type Server,
	type Workflow,
} from './n8n';
import { type OpenAiStandIn } from './openaiStandIn';
import { startAiWorld, type AiWorld } from './aiWorld';
import { AVA, NUMBER } from '../harness/params';

const PHONE = AVA;
const TEXT = 'Hi Ava, your cake is ready for pickup at Sunrise Bakery.';
const FINAL = 'Done: I sent the WhatsApp message.';
const SEND_NODE = 'Send WhatsApp Text';
/** The name the model sees: the node's name, spaces turned into `_`. */
const SEND_TOOL = 'Send_WhatsApp_Text';
const OPENAI_CREDENTIAL = { id: 'OpenAiStandIn001', name: 'OpenAI stand-in' };

const CHAT_TRIGGER = '@n8n/n8n-nodes-langchain.chatTrigger';
const EXAMPLE = JSON.parse(
	readFileSync(join(EXAMPLES_DIR, 'ai-agent-tool.json'), 'utf8'),
) as Workflow;
/**
 * The agent versions the n8n under test has, with their Chat Trigger webhooks: its newest 3.x (3.1 on
 * n8n 2.x, the example as shipped; 3 on 1.123) and the newest 2.x (2.2), or on n8n before AI Agent 2
 * (the floor, 1.85) its newest 1.x (1.8). The example's own agent version is checked in its own test.
 */
const N8N_VERSION = installedN8nVersion();
const NEWEST_AGENT = versionAtLeast(N8N_VERSION, '2.0.0')
	? 3.1
	: versionAtLeast(N8N_VERSION, '1.123.0')
		? 3
		: 1.8;
const AGENTS = [
	{
		label: `AI Agent ${NEWEST_AGENT} on n8n ${N8N_VERSION}`,
		typeVersion: NEWEST_AGENT,
		workflowId: EXAMPLE.id,
		webhookId: String(EXAMPLE.nodes.find((node) => node.type === CHAT_TRIGGER)?.webhookId),
	},
	...(NEWEST_AGENT >= 3
		? [
				{
					label: `AI Agent 2.2 on n8n ${N8N_VERSION} (nodeType.execute: RoutingNode)`,
					typeVersion: 2.2,
					workflowId: 'bsE2eAiAgentV2',
					webhookId: 'e2e0a12e-2b2d-4c8e-a3f6-b07541a00022',
				},
			]
		: []),
];

let sim: Simulator;
let standIn: OpenAiStandIn;
let n8n: N8nInstance;
let server: Server;
let session: Session;
let world: AiWorld | undefined;

/** The example as the test runs it: public Chat Trigger, the stand-in's credential on the chat model, the agent at `typeVersion`. */
function runnable(agent: (typeof AGENTS)[number]): Workflow {
	const workflow = JSON.parse(JSON.stringify(EXAMPLE)) as Workflow;
	workflow.id = agent.workflowId;
	workflow.name = `${EXAMPLE.name} (Agent ${agent.typeVersion})`;
	for (const node of workflow.nodes) {
		if (node.type === CHAT_TRIGGER) {
			node.parameters.public = true;
			node.webhookId = agent.webhookId;
		}
		if (node.type === '@n8n/n8n-nodes-langchain.agent') node.typeVersion = agent.typeVersion;
		if (node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi')
			node.credentials = { openAiApi: OPENAI_CREDENTIAL };
	}
	return workflow;
}

/** Sends `chatInput` to the agent's chat; on a failed run, throws with the execution's error. */
async function chat(agent: (typeof AGENTS)[number], chatInput: string): Promise<unknown> {
	const reply = await sendChatMessage(n8n, agent.webhookId, `e2e-${Date.now()}`, chatInput);
	if (reply.status !== 200) {
		const execution = await latestExecution(n8n, session, agent.workflowId).catch(() => undefined);
		throw new Error(
			`chat answered HTTP ${reply.status}: ${JSON.stringify(reply.body)}\nexecution: ${JSON.stringify(execution?.data.resultData.error ?? null)}\n--- n8n output ---\n${server.output().slice(-4000)}`,
		);
	}
	return reply.body;
}

/** The one tool message the model got in its second request (the answer to the scripted tool call). */
function toolResultText(): string {
	expect(standIn.requests).toHaveLength(2);
	const results = standIn.toolResults(standIn.requests[1]);
	expect(results).toHaveLength(1);
	return results[0].content;
}

function sendsTo(phone: string) {
	return sim.requests.filter(
		(request) => request.path === '/whatsapp/send' && request.body.phone_number === phone,
	);
}

function botMessagesTo(phone: string): number {
	return sim.state.messages.filter(
		(message) =>
			message.phone_number_id === NUMBER &&
			message.whatsapp_bot_subscriber_subscriber_id === phone &&
			message.sender === 'bot',
	).length;
}

function scriptSend(): void {
	standIn.script([
		{ toolCalls: [{ name: SEND_TOOL, arguments: { phone_number: PHONE, message: TEXT } }] },
		{ text: FINAL },
	]);
}

/** What the model received for each scenario and path, printed once at the end (the report's evidence). */
const observed: string[] = [];

beforeAll(async () => {
	world = await startAiWorld(
		'agent',
		OPENAI_CREDENTIAL,
		Object.fromEntries(AGENTS.map((agent) => [`${agent.workflowId}.json`, runnable(agent)])),
	);
	({ sim, standIn, n8n, server, session } = world);
	for (const agent of AGENTS) {
		await activateWorkflow(session, agent.workflowId);
		await waitForWebhook(n8n, `${agent.webhookId}/chat`);
	}
}, 600_000);

afterAll(async () => {
	if (observed.length)
		process.stdout.write(
			`\nWhat the model got back from the BotSailor tool:\n${observed.join('\n')}\n`,
		);
	await world?.close();
}, 60_000);

beforeEach(() => {
	sim.reset();
	standIn.reset();
});

test('the example keeps a private Chat Trigger with a fixed webhook id, and Agent 3.1', () => {
	const trigger = EXAMPLE.nodes.find((node) => node.type === CHAT_TRIGGER);
	expect(trigger?.webhookId).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
	expect(trigger?.parameters.public).toBeUndefined();
	expect(
		EXAMPLE.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.agent')?.typeVersion,
	).toBe(3.1);
});

/**
 * n8n before 1.109 gives a declarative node that has load-options methods (this one) no `execute` for
 * tool calls (its `shouldAssignExecuteMethod`): the tool answers empty and sends nothing. Measured on
 * 1.85.4; 1.105.4 has the same code, 1.109.0 the fix. README → Compatibility says so.
 */
const toolTest = sinceN8n(
	'1.109.0',
	'the BotSailor node as an AI Agent tool (older n8n runs no declarative tool node that has load-options methods)',
);

describe.each(AGENTS)('$label', (agent) => {
	toolTest(
		'the model sends a WhatsApp text through the Send WhatsApp Text tool and gets the send result back',
		async () => {
			scriptSend();
			const reply = await chat(agent, `Tell ${PHONE} that the cake is ready.`);
			expect(reply).toEqual({ output: FINAL });

			// The tools the model was offered: each BotSailor tool node, with only its $fromAI() keys as parameters.
			const tools = standIn.requests[0].body.tools ?? [];
			expect(tools.map((tool) => tool.function.name).sort()).toEqual([
				'Get_Subscriber',
				'Read_Conversation',
				'Send_WhatsApp_Text',
			]);
			const sendTool = tools.find((tool) => tool.function.name === SEND_TOOL);
			expect(
				Object.keys((sendTool?.function.parameters as { properties: object }).properties).sort(),
			).toEqual(['message', 'phone_number']);

			const sends = sim.requests.filter((request) => request.path === '/whatsapp/send');
			if (sends.length !== 1) {
				const execution = await latestExecution(n8n, session, agent.workflowId).catch(
					() => undefined,
				);
				const toolMessages = standIn.requests[1] ? standIn.toolResults(standIn.requests[1]) : [];
				throw new Error(
					`${sends.length} sends instead of 1; the model got back ${JSON.stringify(toolMessages)}; run data: ${JSON.stringify(execution?.data.resultData ?? null).slice(0, 3000)}\n--- n8n output ---\n${server.output().slice(-3000)}`,
				);
			}
			expect(sends[0].body).toEqual({
				phone_number_id: NUMBER,
				phone_number: PHONE,
				message: TEXT,
			});
			const wamid = sim.state.messages.find(
				(message) =>
					message.sender === 'bot' &&
					message.whatsapp_bot_subscriber_subscriber_id === PHONE &&
					message.message_content.includes('cake is ready'),
			)?.wa_message_id;
			expect(wamid).toEqual(expect.stringMatching(/^wamid\./));

			const result = toolResultText();
			observed.push(
				`  [${agent.typeVersion}] send text: ${result} (model requests: ${standIn.requests.map((request) => (request.body.stream ? 'streamed' : 'plain JSON')).join(', ')})`,
			);
			expect(result).toContain(String(wamid));
			expect(standIn.remaining()).toBe(0);
			// Which tool path ran, from n8n's own run data: 3.x resumes the agent after an engine request that ran
			// the tool node; 2.x calls the tool inside the agent (makeHandleToolInvocation wraps its items in `response`).
			const execution = await latestExecution(n8n, session, agent.workflowId);
			const runData = execution?.data.resultData.runData ?? {};
			const agentRun = (runData['AI Agent'] ?? [])[0] as {
				metadata?: {
					tracing?: Record<string, unknown>;
					subNodeExecutionData?: { actions: Array<{ nodeName: string }> };
				};
			};
			const toolOutput = (
				(runData[SEND_NODE] ?? [])[0]?.data as
					| Record<string, Array<Array<{ json: Record<string, unknown> }>>>
					| undefined
			)?.ai_tool?.[0]?.[0]?.json;
			if (agent.typeVersion >= 3) {
				// n8n 1.x records no tracing metadata; the tool node's own output tells the path there.
				if (versionAtLeast(N8N_VERSION, '2.0.0'))
					expect(agentRun.metadata?.tracing?.['ai.agent.version']).toBe('v3');
				expect(
					agentRun.metadata?.subNodeExecutionData?.actions.map((action) => action.nodeName),
				).toEqual([SEND_NODE]);
				expect(toolOutput).toEqual(
					expect.objectContaining({ success: true, wa_message_id: wamid }),
				);
			} else {
				if (versionAtLeast(N8N_VERSION, '2.0.0'))
					expect(agentRun.metadata?.tracing?.['ai.agent.version']).toBe('v2');
				expect(toolOutput).toEqual({
					response: [expect.objectContaining({ success: true, wa_message_id: wamid })],
				});
			}
		},
	);

	toolTest(
		'a send the platform refuses (status "0") is sent once, and what the model gets back',
		async () => {
			sim.faults.add('/whatsapp/send', {
				kind: 'status0',
				message: 'Subscriber has opted out.',
				times: 1,
			});
			const before = botMessagesTo(PHONE);
			scriptSend();
			if (agent.typeVersion >= 3 && !versionAtLeast(N8N_VERSION, '2.0.0')) {
				// n8n 1.123's Agent 3 does not hand a tool node's error to the model: the run stops with it.
				await expect(chat(agent, `Tell ${PHONE} that the cake is ready.`)).rejects.toThrow(
					/HTTP 500[\s\S]*Subscriber has opted out\./,
				);
				expect(sendsTo(PHONE)).toHaveLength(1); // no retry of a refusal
				expect(botMessagesTo(PHONE)).toBe(before); // nothing delivered
				observed.push(
					`  [${agent.typeVersion}] status "0": the run stopped with the platform's message (n8n ${N8N_VERSION})`,
				);
				return;
			}
			const reply = await chat(agent, `Tell ${PHONE} that the cake is ready.`);
			expect(reply).toEqual({ output: FINAL });
			expect(sendsTo(PHONE)).toHaveLength(1); // no retry of a refusal
			expect(botMessagesTo(PHONE)).toBe(before); // nothing delivered

			const result = toolResultText();
			observed.push(`  [${agent.typeVersion}] status "0": ${JSON.stringify(result)}`);
			// 3.x: the engine runs the tool node (customOperations); n8n gives its thrown error to the model as
			// [{"error":"Subscriber has opted out."}]. 2.x: n8n calls the node's execute (its declarative engine),
			// where langchain's AgentExecutor would turn a thrown error into "" (measured before the fix); the node,
			// running as a tool there, answers with the same [{"error": …}] as data, so the text reaches the model.
			expect(result).toContain('Subscriber has opted out.');
		},
	);

	toolTest('a 429 then success delivers the message exactly once', async () => {
		sim.faults.add('/whatsapp/send', { kind: 'rate429', times: 1 });
		const before = botMessagesTo(PHONE);
		scriptSend();
		const reply = await chat(agent, `Tell ${PHONE} that the cake is ready.`);
		expect(reply).toEqual({ output: FINAL });
		const result = toolResultText();
		observed.push(
			`  [${agent.typeVersion}] 429 then success: ${JSON.stringify(result)} (requests to /whatsapp/send: ${sendsTo(PHONE).length})`,
		);
		expect(botMessagesTo(PHONE) - before).toBe(1);
		expect(result).toMatch(/wamid\./);
	});
});
