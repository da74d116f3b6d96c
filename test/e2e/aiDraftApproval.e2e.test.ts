/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- drives a real n8n from plain Node.js, not node code */
/**
 * The AI draft approval example (examples/ai-draft-approval.json, issue 53 point 6) run for real in n8n 2.x: published,
 * the simulator posting incoming messages to its BotSailor Webhook Trigger's production URL, n8n's OpenAI Chat Model
 * talking to the chat-completions stand-in (./openaiStandIn.ts), which reads the conversation with Get Transcript and
 * answers with a scripted draft. The manager (the example's fictional +1 555 010 0002, Ben) answers in the simulator's
 * chat: the same trigger takes the tap or the corrected text and resumes the waiting run.
 *
 * Changed from the example for the test only: the chat model gets the stand-in's credential and a 10 s timeout.
 * With UPDATE_SCREENSHOTS=1 the Edit test writes docs/send-and-wait-edit.png (the manager's and the customer's phones).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { addMessage, tapButton } from '../simulator/control';
import { type Simulator } from '../simulator/server';
import {
	executionsOf,
	productionUrl,
	runOf,
	waitForProductionWebhook,
} from '../webhookTrigger/realN8n';
import {
	EXAMPLES_DIR,
	ROOT,
	activateWorkflow,
	installedN8nVersion,
	nodeOutput,
	sinceN8n,
	versionAtLeast,
	type N8nInstance,
	type Session,
	type Workflow,
} from './n8n';
import { type OpenAiStandIn } from './openaiStandIn';
import { startAiWorld, type AiWorld } from './aiWorld';
import { CHROMIUM_FLAGS, chromiumPath } from './editor';
import { AVA, BEN, CHLOE, NUMBER, seededPhone } from '../harness/params';

/** The example's AI Agent 3.1 is n8n 2.0's (as in receptionist.e2e.test.ts). */
const AGENT_3 =
	"the example's AI Agent 3.1 exists from n8n 2.0; on 1.x this file is not run (test/e2e/versions.js): Approve, Edit or Decline in the chat runs on 1.123.81 in sendAndWaitChat.e2e.test.ts";
const SUPPORTED = versionAtLeast(installedN8nVersion(), '2.0.0');

const MANAGER = BEN;
const OPENAI_CREDENTIAL = { id: 'OpenAiStandIn003', name: 'OpenAI stand-in' };
const EXAMPLE = JSON.parse(
	readFileSync(join(EXAMPLES_DIR, 'ai-draft-approval.json'), 'utf8'),
) as Workflow;
const WEBHOOK_ID = String(
	EXAMPLE.nodes.find((node) => node.name === 'On Customer Message')!.webhookId,
);
const DRAFT = 'Yes! A birthday cake for Saturday is possible. Which flavour would you like?';

let sim: Simulator;
let standIn: OpenAiStandIn;
let n8n: N8nInstance;
let session: Session;
let world: AiWorld | undefined;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function runnable(): Workflow {
	const workflow = JSON.parse(JSON.stringify(EXAMPLE)) as Workflow;
	for (const node of workflow.nodes)
		if (node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi') {
			node.credentials = { openAiApi: OPENAI_CREDENTIAL };
			(node.parameters.options as Record<string, unknown>).timeout = 10_000;
		}
	return workflow;
}

const textsTo = (phone: string) =>
	sim.requests
		.filter((request) => request.path === '/whatsapp/send' && request.body.phone_number === phone)
		.map((request) => String(request.body.message));
const questionsTo = (phone: string) =>
	sim.requests.filter(
		(request) =>
			request.path === '/whatsapp/send/interactive-buttons' && request.body.phone_number === phone,
	);

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 90_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const found = await check();
		if (found !== undefined) return found;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(300);
	}
}

/**
 * A customer writes; the model reads the conversation and drafts; the run asks the manager and waits. Returns the
 * waiting execution's id and the question as the platform received it.
 */
async function customerWrites(customer: string, text: string) {
	const before = new Set(
		(await executionsOf(session, EXAMPLE.id)).map((execution) => execution.id),
	);
	const asked = questionsTo(MANAGER).length;
	standIn.script([
		{ toolCalls: [{ name: 'Get_Transcript', arguments: { phone_number: customer } }] },
		{ text: DRAFT },
	]);
	addMessage(sim.state, { phone_number_id: NUMBER, phone_number: customer, text });
	await sim.state.webhooks.idle();
	const id = await until('the run to wait for the manager', async () => {
		const waiting = (await executionsOf(session, EXAMPLE.id)).find(
			(execution) => !before.has(execution.id) && execution.status === 'waiting',
		);
		return waiting && questionsTo(MANAGER).length > asked ? waiting.id : undefined;
	});
	const question = questionsTo(MANAGER).at(-1)!;
	// The model read the conversation: the customer's message came back from Get Transcript.
	expect(standIn.remaining()).toBe(0);
	expect(standIn.toolResults(standIn.requests[1])[0].content).toContain(`customer: ${text}`);
	return {
		id,
		message: String(question.body.message),
		buttons: (JSON.parse(String(question.body.buttons)) as Array<{ title: string }>).map(
			(button) => button.title,
		),
	};
}

/** The execution once it finished, and the nodes it ran. */
async function finished(id: string) {
	const status = await until(`execution ${id} to finish`, async () => {
		const found = (await executionsOf(session, EXAMPLE.id)).find(
			(execution) => execution.id === id,
		);
		return found && !['waiting', 'running', 'new'].includes(found.status)
			? found.status
			: undefined;
	});
	expect(status).toBe('success');
	const run = await runOf(n8n, session, id);
	return { run, nodes: Object.keys(run.data.resultData.runData) };
}

/** The confirmation the trigger sends the manager (beside the resumed run, so it may come a moment later). */
async function confirmed(text: string) {
	await until(`the confirmation "${text}"`, async () =>
		textsTo(MANAGER).includes(text) ? true : undefined,
	);
}

/** Runs other than the customers' never started: the manager's taps and text were taken by the trigger. */
let customerRuns = 0;
async function onlyCustomerRuns() {
	await sim.state.webhooks.idle();
	await sleep(1500);
	expect(await executionsOf(session, EXAMPLE.id)).toHaveLength(customerRuns);
}

/**
 * With UPDATE_SCREENSHOTS=1 (Chromium needed): docs/send-and-wait-edit.png, the simulator's phone page of the manager
 * (the question with the draft and its three buttons, the tap on Edit, the request for the text, the corrected text,
 * the confirmation) beside the customer's (their message and the corrected text received).
 */
async function editScreenshot(customer: string, edited: string): Promise<void> {
	if (process.env.UPDATE_SCREENSHOTS !== '1') return;
	const executablePath = chromiumPath();
	if (!executablePath)
		throw new Error('UPDATE_SCREENSHOTS=1 needs Chromium: apt-get install chromium');
	const browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS });
	try {
		const page = await browser.newPage({ viewport: { width: 820, height: 840 } });
		const phones: string[] = [];
		for (const [phone, last] of [
			[MANAGER, 'Edited and approved.'],
			[customer, edited],
		]) {
			await page.goto(`${sim.url}/phone?phone=${phone}&number=${NUMBER}`);
			await page.locator('.msg .bubble', { hasText: last }).last().waitFor({ timeout: 15_000 });
			phones.push((await page.locator('.phone').screenshot()).toString('base64'));
		}
		await page.setContent(
			`<div id="both" style="display:inline-flex;gap:16px;padding:16px;background:#dde3e0">${phones
				.map((png) => `<img src="data:image/png;base64,${png}">`)
				.join('')}</div>`,
		);
		const file = join(ROOT, 'docs', 'send-and-wait-edit.png');
		await page.locator('#both').screenshot({ path: file });
		process.stdout.write(`edit screenshot: ${file}\n`);
	} finally {
		await browser.close();
	}
}

beforeAll(async () => {
	if (!SUPPORTED) return;
	world = await startAiWorld('draft', OPENAI_CREDENTIAL, { 'draft.json': runnable() });
	({ sim, standIn, n8n, session } = world);
	await activateWorkflow(session, EXAMPLE.id);
	await waitForProductionWebhook(n8n, WEBHOOK_ID);
	sim.state.webhooks.configure(NUMBER, {
		urls: { incoming_message: productionUrl(n8n, WEBHOOK_ID) },
	});
}, 600_000);

afterAll(async () => {
	await world?.close();
}, 60_000);

beforeEach(() => {
	if (!SUPPORTED) return;
	sim.clearRequests();
	standIn.reset();
});

sinceN8n('2.0.0', AGENT_3)(
	'Approve: the manager gets the draft with Approve, Edit and Decline (no URL); one tap and the customer receives exactly the draft',
	async () => {
		const text = 'Hi! Can I still order a birthday cake for Saturday?';
		const asked = await customerWrites(AVA, text);
		customerRuns++;
		expect(asked.buttons).toEqual(['Approve', 'Edit', 'Decline']);
		expect(asked.message).toContain(`wrote: "${text}"`);
		expect(asked.message.endsWith(`\n\n${DRAFT}`)).toBe(true);
		expect(asked.message).not.toMatch(/https?:/);
		expect(textsTo(AVA)).toEqual([]);

		tapButton(sim.state, { phone_number: MANAGER, title: 'Approve' });
		const { run, nodes } = await finished(asked.id);
		expect(nodeOutput(run, 'Ask the Manager')[0]).toMatchObject({
			data: { approved: true, edited: false, text: DRAFT, draft: DRAFT },
			recipient: { phone_number: MANAGER },
			answeredIn: 'chat',
		});
		expect(nodes).not.toContain('Hand Over to a Person');
		expect(textsTo(AVA)).toEqual([DRAFT]);
		await confirmed('Approved. Thank you, your answer was recorded.');
		expect(textsTo(MANAGER)).toEqual(['Approved. Thank you, your answer was recorded.']);
		await onlyCustomerRuns();
	},
	240_000,
);

sinceN8n('2.0.0', AGENT_3)(
	'Edit: the manager taps Edit, is asked for the text, and their next message is exactly what the customer receives',
	async () => {
		const asked = await customerWrites(CHLOE, 'Do you deliver on Sunday?');
		customerRuns++;
		tapButton(sim.state, { phone_number: MANAGER, title: 'Edit' });
		await sim.state.webhooks.idle();
		expect(textsTo(MANAGER)).toEqual(['Send the corrected text as your next message.']);
		// Not ASCII; no emoji: Chromium here has no emoji font, and docs/send-and-wait-edit.png shows this text.
		const edited = 'Hi Chloe, yes: we deliver on Sundays from 9 to 12, free above 30 €.';
		addMessage(sim.state, { phone_number_id: NUMBER, phone_number: MANAGER, text: edited });
		const { run } = await finished(asked.id);
		expect(nodeOutput(run, 'Ask the Manager')[0]).toMatchObject({
			data: { approved: true, edited: true, text: edited, draft: DRAFT },
			answeredIn: 'chat',
		});
		expect(textsTo(CHLOE)).toEqual([edited]);
		await confirmed('Edited and approved. Thank you, your answer was recorded.');
		await onlyCustomerRuns();
		await editScreenshot(CHLOE, edited);
	},
	240_000,
);

sinceN8n('2.0.0', AGENT_3)(
	'Decline: nothing goes to the customer, the conversation is handed over to a person with the reason and the draft; a later message of the manager starts no draft',
	async () => {
		const customer = seededPhone(4);
		sim.state.subscriber(NUMBER, customer)!.conversation_status = 1;
		const asked = await customerWrites(customer, 'I want a refund for yesterday’s cake.');
		customerRuns++;
		tapButton(sim.state, { phone_number: MANAGER, title: 'Decline' });
		const { run, nodes } = await finished(asked.id);
		expect(nodeOutput(run, 'Ask the Manager')[0]).toMatchObject({
			data: { approved: false, edited: false, text: null, draft: DRAFT },
		});
		expect(nodes).toContain('Hand Over to a Person');
		expect(nodes).not.toContain('Send the Reply');
		expect(textsTo(customer)).toEqual([]);
		const subscriber = sim.state.subscriber(NUMBER, customer)!;
		expect([501, 502]).toContain(subscriber.assigned_agent_id);
		expect(subscriber.conversation_status).toBe(0);
		const notes = sim.state.notes.filter((note) => note.chat_id === customer);
		expect(notes).toHaveLength(1);
		expect(notes[0].note_text).toContain('The manager declined the AI draft');
		expect(notes[0].note_text).toContain(DRAFT);
		await onlyCustomerRuns();

		// The manager writes to the number on their own: a run starts and stops at From a Customer?, no model asked.
		addMessage(sim.state, { phone_number_id: NUMBER, phone_number: MANAGER, text: 'Thanks!' });
		customerRuns++;
		const own = await until('the manager’s own message to start a run', async () => {
			const executions = await executionsOf(session, EXAMPLE.id);
			return executions.length === customerRuns && executions[0].status === 'success'
				? executions[0].id
				: undefined;
		});
		const { nodes: ownNodes } = await finished(own);
		expect(ownNodes).not.toContain('Draft a Reply');
		expect(standIn.requests).toHaveLength(2);
	},
	240_000,
);

sinceN8n('2.0.0', AGENT_3)(
	'a person of the team writes to the customer while the manager decides: the approved draft is not sent over them (reply guards)',
	async () => {
		const customer = seededPhone(5);
		const asked = await customerWrites(customer, 'Is the shop open tomorrow?');
		customerRuns++;
		addMessage(sim.state, {
			phone_number_id: NUMBER,
			phone_number: customer,
			sender: 'agent',
			agent_name: 'Sam Support',
			text: 'Hi, Sam here: yes, from 8 to 18.',
		});
		tapButton(sim.state, { phone_number: MANAGER, title: 'Approve' });
		const { run } = await finished(asked.id);
		expect(nodeOutput(run, 'Send the Reply')[0]).toMatchObject({
			skipped: true,
			skip_reason: 'person_took_over',
		});
		expect(textsTo(customer)).toEqual([]);
		await onlyCustomerRuns();
	},
	240_000,
);
