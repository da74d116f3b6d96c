/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, import-x/no-unresolved -- drives a real n8n from plain Node.js, not node code; the MCP SDK's subpaths resolve through its package exports, which the lint's resolver does not read */
/**
 * The MCP example (examples/mcp-server.json) served by a real n8n and used by the official MCP client
 * (`@modelcontextprotocol/sdk`), over both transports n8n's MCP Server Trigger offers (Streamable HTTP
 * and SSE): the tools a client lists (descriptions, schemas), a send, a platform refusal and a bad phone
 * number as failures (`isError`), the Bearer token, and concurrent calls from several sessions. BotSailor
 * is the simulator in this process.
 *
 * The workflow is the example with the Bearer credential and a second Send Text tool for the account's
 * other WhatsApp number (two tools that differ only by number must not be described alike).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { startSimulator, type Simulator } from '../simulator/server';
import {
	EXAMPLES_DIR,
	Session,
	activateWorkflow,
	cliOk,
	findFreePortPair,
	importCredential,
	importWorkflows,
	installCommunityPackage,
	installedN8nVersion,
	instance,
	latestExecution,
	pack,
	provision,
	sinceN8n,
	versionAtLeast,
	type N8nInstance,
	type Server,
	type Workflow,
	startWithOwner,
} from './n8n';
import { AVA, NUMBER, OTHER_NUMBER } from '../harness/params';

const PHONE = AVA;
/** The Bearer token the MCP Server Trigger asks for, new for each run. */
const TOKEN = randomBytes(16).toString('hex');
const BEARER = { id: 'McpBearerDemo001', name: 'MCP Bearer token' };
const EXAMPLE = JSON.parse(readFileSync(join(EXAMPLES_DIR, 'mcp-server.json'), 'utf8')) as Workflow;
const N8N_VERSION = installedN8nVersion();
/** n8n evaluates an expression in a tool description from 2.x (checked on 2.41.1); 1.123 shows it as text. */
const NAMES_THE_NUMBER = versionAtLeast(N8N_VERSION, '2.41.0');

let sim: Simulator;
let n8n: N8nInstance;
let server: Server;
let work: string;
let mcpUrl: string;
let session: Session;

/** The example as the test serves it: the second number's Send Text tool added. */
function runnable(): Workflow {
	const workflow = JSON.parse(JSON.stringify(EXAMPLE)) as Workflow;
	const sendText = workflow.nodes.find((node) => node.name === 'Send Text')!;
	const other = JSON.parse(JSON.stringify(sendText)) as typeof sendText;
	other.name = 'Send Text UK';
	(other as { id?: string }).id = 'send-text-uk';
	other.parameters.phoneNumberId = { __rl: true, mode: 'id', value: OTHER_NUMBER };
	// And one whose number the model chooses: its description is read before any call, without that number.
	const anyNumber = JSON.parse(JSON.stringify(sendText)) as typeof sendText;
	anyNumber.name = 'Send Text From Any Number';
	(anyNumber as { id?: string }).id = 'send-text-any';
	anyNumber.parameters.phoneNumberId = {
		__rl: true,
		mode: 'id',
		value:
			"={{ $fromAI('whatsapp_number_id', 'The phone_number_id of the WhatsApp number to send from', 'string') }}",
	};
	workflow.nodes.push(other, anyNumber);
	for (const tool of [other, anyNumber])
		(workflow.connections as Record<string, unknown>)[tool.name] = {
			ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]],
		};
	return workflow;
}

const TRANSPORTS = [
	{
		label: 'Streamable HTTP',
		make: (headers: Record<string, string>): Transport =>
			new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers } }),
	},
	{
		label: 'SSE',
		make: (headers: Record<string, string>): Transport =>
			new SSEClientTransport(new URL(mcpUrl), {
				requestInit: { headers },
				eventSourceInit: {
					fetch: async (url, init) =>
						await fetch(url, { ...init, headers: { ...(init?.headers ?? {}), ...headers } }),
				},
			}),
	},
];

async function connect(
	transport: (typeof TRANSPORTS)[number],
	headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` },
): Promise<Client> {
	const client = new Client({ name: 'botsailor-e2e', version: '1.0.0' });
	await client.connect(transport.make(headers));
	return client;
}

interface ToolResult {
	isError?: boolean;
	content: Array<{ type: string; text?: string }>;
}

function text(result: ToolResult): string {
	return result.content.map((part) => part.text ?? '').join('\n');
}

function sendsTo(phone: string) {
	return sim.requests.filter(
		(request) => request.path === '/whatsapp/send' && request.body.phone_number === phone,
	);
}

/** What the client got for each scenario, printed once at the end (the report's evidence). */
const observed: string[] = [];

/** Tool calls need n8n >= 1.109 (see aiAgent.e2e.test.ts); n8n 1.85 has no MCP Server Trigger at all. */
const SUPPORTED = versionAtLeast(N8N_VERSION, '1.109.0');
const mcpTest = sinceN8n('1.109.0', 'the BotSailor node as a tool of the MCP Server Trigger');

beforeAll(async () => {
	// Older n8n could not even activate the workflow (no MCP Server Trigger): nothing to start.
	if (!SUPPORTED) return;
	const paths = provision();
	sim = await startSimulator();
	work = mkdtempSync(join(tmpdir(), 'botsailor-e2e-mcp-'));
	n8n = instance(paths, join(work, 'user'), await findFreePortPair());
	installCommunityPackage(n8n, pack(join(work, 'pack')));
	await importCredential(n8n, { baseUrl: sim.url, apiToken: sim.token });
	const bearer = join(work, 'bearer.json');
	writeFileSync(
		bearer,
		JSON.stringify([{ ...BEARER, type: 'httpBearerAuth', data: { token: TOKEN } }]),
	);
	await cliOk(n8n, ['import:credentials', `--input=${bearer}`]);
	const workflows = join(work, 'workflows');
	mkdirSync(workflows);
	writeFileSync(join(workflows, 'mcp.json'), JSON.stringify(runnable(), null, 2));
	await importWorkflows(n8n, workflows);
	({ server, session } = await startWithOwner(n8n));
	await activateWorkflow(session, EXAMPLE.id);
	mcpUrl = `${n8n.url}/mcp/${String(
		EXAMPLE.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger')?.parameters
			.path,
	)}`;
	// Registered once it answers something other than 404 (401: no token).
	const deadline = Date.now() + 60_000;
	for (;;) {
		const response = await fetch(mcpUrl, { method: 'POST' }).catch(() => undefined);
		await response?.body?.cancel();
		if (response && response.status !== 404) break;
		if (Date.now() > deadline) throw new Error(`${mcpUrl} not registered`);
		await new Promise((done) => setTimeout(done, 250));
	}
}, 600_000);

afterAll(async () => {
	if (observed.length)
		process.stdout.write(`\nWhat the MCP client got back:\n${observed.join('\n')}\n`);
	await server?.stop();
	await sim?.close();
	if (work) rmSync(work, { recursive: true, force: true });
}, 60_000);

beforeEach(() => sim?.reset());

describe.each(TRANSPORTS)('MCP client over $label', (transport) => {
	mcpTest(
		'lists the tools with descriptions a model can act on and the $fromAI parameters, described',
		async () => {
			const client = await connect(transport);
			try {
				const { tools } = await client.listTools();
				expect(tools.map((tool) => tool.name).sort()).toEqual([
					'Get_Subscriber',
					'Send_Text',
					'Send_Text_From_Any_Number',
					'Send_Text_UK',
					'Send_Welcome_Offer',
				]);
				const byName = new Map(tools.map((tool) => [tool.name, tool]));
				const sendText = byName.get('Send_Text')!;
				expect(sendText.description).toContain('24-hour window');
				expect(sendText.description).toContain('Send Template');
				expect(sendText.description).toContain('digits only with the country code');
				expect(sendText.description).not.toContain('{{');
				if (NAMES_THE_NUMBER) {
					expect(sendText.description).toContain(NUMBER);
					expect(byName.get('Send_Text_UK')!.description).toContain(OTHER_NUMBER);
				} else expect(sendText.description).toContain('the WhatsApp number chosen in this tool');
				expect(byName.get('Send_Text_UK')!.description).not.toBe(
					NAMES_THE_NUMBER ? sendText.description : '',
				);
				const anyNumber = byName.get('Send_Text_From_Any_Number')!;
				expect(anyNumber.description).toContain('24-hour window');
				expect(anyNumber.description).not.toMatch(/\{\{|\d{15}/);
				expect(
					Object.keys((anyNumber.inputSchema as { properties: object }).properties).sort(),
				).toEqual(['message', 'phone_number', 'whatsapp_number_id']);
				expect(byName.get('Send_Welcome_Offer')!.description).toContain('template');
				expect(byName.get('Get_Subscriber')!.description).toContain('Subscriber not found.');
				const schema = sendText.inputSchema as {
					properties: Record<string, { type: string; description?: string }>;
				};
				expect(Object.keys(schema.properties).sort()).toEqual(['message', 'phone_number']);
				expect(schema.properties.phone_number).toMatchObject({ type: 'string' });
				expect(schema.properties.phone_number.description).toContain('country code');
				expect(
					Object.keys(
						(byName.get('Send_Welcome_Offer')!.inputSchema as { properties: object }).properties,
					).sort(),
				).toEqual(['first_name', 'phone_number']);
				observed.push(`${transport.label} Send_Text description: ${sendText.description}`);
			} finally {
				await client.close();
			}
		},
	);

	mcpTest('Send Text sends once and answers the platform confirmation', async () => {
		const client = await connect(transport);
		try {
			const message = `Your cake is ready (${transport.label})`;
			const result = (await client.callTool({
				name: 'Send_Text',
				arguments: { phone_number: PHONE, message },
			})) as ToolResult;
			expect(result.isError).toBeFalsy();
			const [record] = JSON.parse(text(result)) as Array<Record<string, string>>;
			expect(record).toMatchObject({
				message: 'Message sent successfully.',
				wa_message_id: expect.stringMatching(/^wamid\./),
				phone_number: PHONE,
			});
			const sends = sendsTo(PHONE);
			expect(sends).toHaveLength(1);
			expect(sends[0].body).toMatchObject({ phone_number_id: NUMBER, message });
		} finally {
			await client.close();
		}
	});

	mcpTest(
		'a platform refusal comes back as isError with the platform text, not as "may have been delivered"',
		async () => {
			const client = await connect(transport);
			try {
				// A new number at the account's subscriber limit: the platform refuses the send.
				sim.state.subscriberLimit = sim.state.subscribers.length;
				const refused = (await client.callTool({
					name: 'Send_Text',
					arguments: { phone_number: '15550109999', message: 'Hello' },
				})) as ToolResult;
				expect(refused.isError).toBe(true);
				expect(text(refused)).toContain(
					'Subscriber limit has been exceeded. You cannot have more subscribers.',
				);
				expect(text(refused)).not.toContain('may have been delivered');
				expect(sendsTo('15550109999')).toHaveLength(1);
				// In regular mode the trigger's execution starts after the tool ran (in the webhook): n8n records it
				// as it records the trigger, whatever the tool answered. Printed for the report, not ours to set.
				const execution = await latestExecution(n8n, session, EXAMPLE.id);
				observed.push(
					`${transport.label} refusal: n8n recorded the execution as ${execution?.status}, run data of ${Object.keys(execution?.data.resultData.runData ?? {}).join(', ')}`,
				);

				const missing = (await client.callTool({
					name: 'Get_Subscriber',
					arguments: { phone_number: '15550108888' },
				})) as ToolResult;
				expect(missing.isError).toBe(true);
				expect(text(missing)).toContain('Subscriber not found.');
				observed.push(`${transport.label} refusal: ${JSON.stringify(refused)}`);
				observed.push(`${transport.label} not found: ${JSON.stringify(missing)}`);
			} finally {
				await client.close();
			}
		},
	);

	mcpTest(
		'a send whose outcome is unknown says it may have been delivered and is not sent again',
		async () => {
			const client = await connect(transport);
			try {
				// The platform records the message, then the answer is lost (a gateway's 504).
				sim.faults.add('/whatsapp/send', { kind: 'processThen504', times: 1 });
				const result = (await client.callTool({
					name: 'Send_Text',
					arguments: { phone_number: PHONE, message: 'Unknown outcome' },
				})) as ToolResult;
				expect(result.isError).toBe(true);
				expect(text(result)).toContain('may have been delivered');
				expect(sendsTo(PHONE)).toHaveLength(1);
				observed.push(`${transport.label} unknown outcome: ${JSON.stringify(result)}`);
			} finally {
				await client.close();
			}
		},
	);

	mcpTest('a phone number with letters is refused with isError and no request', async () => {
		const client = await connect(transport);
		try {
			const result = (await client.callTool({
				name: 'Send_Text',
				arguments: { phone_number: '1555O1OOOO1', message: 'Hello' },
			})) as ToolResult;
			expect(result.isError).toBe(true);
			expect(text(result)).toMatch(/Subscriber/);
			expect(sim.requests.filter((request) => request.path === '/whatsapp/send')).toHaveLength(0);
			observed.push(`${transport.label} bad phone: ${JSON.stringify(result)}`);
		} finally {
			await client.close();
		}
	});

	mcpTest('a client without the Bearer token, or with a wrong one, is refused', async () => {
		// n8n answers 401 to a POST without a token and 403 to the SSE stream's GET.
		await expect(connect(transport, {})).rejects.toThrow(/40[13]|Unauthorized|auth/i);
		await expect(connect(transport, { Authorization: 'Bearer wrong-token' })).rejects.toThrow(
			/40[13]|Unauthorized|auth/i,
		);
		expect(sim.requests).toHaveLength(0);
	});

	mcpTest('30 concurrent calls from 3 sessions give 30 sends, none lost or doubled', async () => {
		const clients = await Promise.all([0, 1, 2].map(() => connect(transport)));
		try {
			const calls = Array.from({ length: 30 }, (_, index) => ({
				client: clients[index % 3],
				message: `${transport.label} call ${index}`,
			}));
			const started = Date.now();
			const results = (await Promise.all(
				calls.map(
					async ({ client, message }) =>
						await client.callTool({
							name: 'Send_Text',
							arguments: { phone_number: PHONE, message },
						}),
				),
			)) as ToolResult[];
			const elapsed = Date.now() - started;
			expect(results.filter((result) => result.isError)).toEqual([]);
			const sent = sendsTo(PHONE).map((request) => String(request.body.message));
			expect(sent.sort()).toEqual(calls.map((call) => call.message).sort());
			// For comparison, calls one after another on a warm session.
			const one = Date.now();
			for (let index = 0; index < 5; index++)
				await clients[0].callTool({
					name: 'Send_Text',
					arguments: { phone_number: PHONE, message: `sequential ${index}` },
				});
			observed.push(
				`${transport.label}: 30 concurrent calls in ${elapsed} ms; one call after another: ${Math.round((Date.now() - one) / 5)} ms each`,
			);
		} finally {
			await Promise.all(clients.map(async (client) => await client.close()));
		}
	});
});
