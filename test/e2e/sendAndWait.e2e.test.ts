/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- drives a real n8n from plain Node.js, not node code */
/**
 * Message → Send and Wait for Response in a real n8n (the packed package installed as a community package,
 * `n8n start`): Manual Trigger → Send and Wait → IF → Send Text. The execution waits (status "waiting"); the
 * test takes the link from the message the simulator received, opens it as a person would (GET: the page;
 * a link preview's GET changes nothing), presses the button (POST), and the execution finishes with the answer.
 * Runs on the n8n that N8N_VERSION provisions (2.41.1 by default; 1.85.4 uses the `$execution.resumeUrl` links).
 * From n8n 2.6 also an AI Agent whose tool is gated by the generated Human review tool; on 2.41.1 Free Text
 * answered in headless Chromium.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Simulator } from '../simulator/server';
import { addQuestionTemplate, QUESTION_TEMPLATE_ID } from '../simulator/control';
import {
	cli,
	EXAMPLES_DIR,
	findFreePortPair,
	installedN8nVersion,
	nodeOutput,
	PACKAGE_NAME,
	readExecution,
	Session,
	sinceN8n,
	versionAtLeast,
	type N8nInstance,
	type Server,
} from './n8n';
import { type OpenAiStandIn } from './openaiStandIn';
import { startAiWorld, type AiWorld } from './aiWorld';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, withChromium } from './editor';
import { AVA, BEN, CHLOE, NUMBER } from '../harness/params';
import { linkOfButtonId } from '../../nodes/shared/conversation/answerBinding';
import {
	approvalWorkflow,
	botSailorMessageNode,
	GATED_TOOL,
	humanReviewWorkflow,
	MANUAL_TRIGGER,
	OPENAI_CREDENTIAL,
} from './sendAndWaitWorkflows';

const PHONE = AVA;
const botSailor = (name: string, position: [number, number], parameters: Record<string, unknown>) =>
	botSailorMessageNode(name, position, parameters, PHONE);

function workflow(id: string, ask: Record<string, unknown>, reply: string, gate = true) {
	if (!gate)
		return {
			id,
			name: `Send and Wait e2e ${id}`,
			active: false,
			nodes: [
				MANUAL_TRIGGER,
				botSailor('Ask', [200, 0], { operation: 'sendAndWait', ...ask }),
				botSailor('Confirm', [400, 0], { operation: 'sendText', message: reply }),
			],
			connections: {
				Manual: { main: [[{ node: 'Ask', type: 'main', index: 0 }]] },
				Ask: { main: [[{ node: 'Confirm', type: 'main', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		};
	return approvalWorkflow(id, `Send and Wait e2e ${id}`, ask, reply, PHONE);
}

const APPROVAL = workflow(
	'bsE2eSendAndWaitApproval',
	{
		message: 'Order A-1001 is 2,400 €. Confirm it?',
		approvalOptions: {
			values: { approvalType: 'double', approveLabel: 'Confirm', disapproveLabel: 'Hold' },
		},
	},
	'Order A-1001 confirmed.',
);
const FREE_TEXT = workflow(
	'bsE2eSendAndWaitText',
	{ message: 'Which delivery day suits you?', responseType: 'freeText' },
	'={{ "Noted: " + $json.data.text }}',
	false,
);

const LIMITED = workflow(
	'bsE2eSendAndWaitLimit',
	{
		message: 'Order A-1002 is 3,100 €. Confirm it?',
		options: {
			limitWaitTime: {
				values: { limitType: 'afterTimeInterval', resumeAmount: 0.1, resumeUnit: 'minutes' },
			},
		},
	},
	'Order A-1002 confirmed.',
);

/**
 * AI Agent Human review (n8n >= 2.6): Manual → AI Agent 3.1 (chat model: the OpenAI stand-in) whose
 * Send WhatsApp Text tool is gated by BotSailor's generated Human review tool (`botSailorHitlTool`).
 * The wiring, as n8n 2.41.1 builds it: the gated tool's ai_tool output goes into the Hitl node, the Hitl
 * node's ai_tool output into the agent (n8n-core get-input-connection-data.js, createHitlToolkit). The
 * model's call of the gated tool makes the agent ask the engine to run the Hitl node first (its
 * `sendAndWait` customOperation: the question goes to the owner, the run waits); after the answer the
 * agent runs the gated tool only if `data.approved` is true (langchain processHitlResponses.js).
 */
const HUMAN_REVIEW = sinceN8n('2.6.0', 'n8n generates Human review tools from 2.6');
const OWNER_PHONE = BEN;
const CUSTOMER_PHONE = CHLOE;
const CUSTOMER_TEXT = 'Hi, your order A-1001 is confirmed.';
const REVIEWED = humanReviewWorkflow({
	id: 'bsE2eHumanReview',
	name: 'Send and Wait e2e: AI Agent with Human review',
	text: `Tell ${CUSTOMER_PHONE} that order A-1001 is confirmed.`,
	ownerPhone: OWNER_PHONE,
});

/** Send As Template: the question in an approved template, its URL button's variable carrying the link. */
const TEMPLATE_ID = QUESTION_TEMPLATE_ID;
const TEMPLATED = workflow(
	'bsE2eSendAndWaitTemplate',
	{
		message: 'Order A-1003 is 1,800 €. Confirm it?',
		sendAs: 'template',
		templateId: { __rl: true, mode: 'id', value: TEMPLATE_ID },
		linkVariable: 'answer_link-1',
		// The part of the link the button's fixed URL holds: this n8n's waiting-webhook address.
		linkBaseUrl: `={{ $execution.resumeUrl.replace(/[^/]+$/, '') }}`,
		manualVariables: { variable: [{ label: 'order', position: 1, value: 'A-1003' }] },
		approvalOptions: {
			values: { approvalType: 'double', approveLabel: 'Confirm', disapproveLabel: 'Hold' },
		},
	},
	'Order A-1003 confirmed.',
);

let sim: Simulator;
let standIn: OpenAiStandIn;
let n8n: N8nInstance;
let work: string;
let server: Server;
let session: Session;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The texts the simulator received for the subscriber, newest last. */
const BUTTONS = '/whatsapp/send/interactive-buttons';

/** What was sent to a phone as text (or, with BUTTONS, as a message with reply buttons). */
function textsTo(phone: string, path = '/whatsapp/send'): string[] {
	return sim.requests
		.filter((request) => request.path === path && request.body.phone_number === phone)
		.map((request) => String(request.body.message));
}

async function executionsOf(workflowId: string) {
	return (
		await session.request<{ results: Array<{ id: string; status: string }> }>(
			'GET',
			`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`,
		)
	).results;
}

async function waitForStatus(workflowId: string, status: string, timeoutMs = 60_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const found = (await executionsOf(workflowId)).find((execution) => execution.status === status);
		if (found) return found;
		if (Date.now() > deadline)
			throw new Error(
				`no ${status} execution of ${workflowId}: ${JSON.stringify(await executionsOf(workflowId))}`,
			);
		await sleep(500);
	}
}

/** Starts a workflow's Manual Trigger the way `n8n execute` does, beside the running server (it returns once the run waits). */
async function run(workflowId: string) {
	// Its own task broker port: the server holds the instance's one. The links keep the server's port (N8N_PORT).
	const broker = String((await findFreePortPair()) + 1);
	const env = { ...n8n.env, N8N_LOG_LEVEL: 'info', N8N_RUNNERS_BROKER_PORT: broker };
	const result = await cli({ ...n8n, env }, ['execute', `--id=${workflowId}`]);
	const waiting = await waitForStatus(workflowId, 'waiting', 10_000).catch((error: Error) => error);
	if (waiting instanceof Error)
		throw new Error(
			`${waiting.message}\nexecute exit ${result.code}\n${result.stdout}\n${result.stderr}`,
		);
	return waiting;
}

let world: AiWorld | undefined;

beforeAll(async () => {
	const example = JSON.parse(readFileSync(join(EXAMPLES_DIR, 'order-approval.json'), 'utf8')) as {
		id: string;
	};
	const humanReview = versionAtLeast(installedN8nVersion(), '2.6.0') ? [REVIEWED] : [];
	world = await startAiWorld(
		'wait',
		OPENAI_CREDENTIAL,
		Object.fromEntries(
			[APPROVAL, FREE_TEXT, LIMITED, TEMPLATED, example, ...humanReview].map((workflow) => [
				`${workflow.id}.json`,
				workflow,
			]),
		),
	);
	({ sim, standIn, n8n, work, server, session } = world);
}, 600_000);

afterAll(async () => {
	await world?.close();
});

test('Approval: the run waits; a link preview changes nothing; the Confirm button finishes it with approved: true', async () => {
	const waiting = await run(APPROVAL.id);
	const [question] = textsTo(PHONE);
	expect(question).toContain('Order A-1001 is 2,400 €. Confirm it?');
	const links = question.match(/https?:\/\/\S+/g) ?? [];
	expect(links).toHaveLength(2);
	const confirm = links.find((link) => link.includes('approved=true'))!;
	expect(question).toContain(`Confirm: ${confirm}`);
	expect(confirm.startsWith(`${n8n.url}/webhook-waiting/${waiting.id}/`)).toBe(true);
	// n8n 2.x signs the links (getSignedResumeUrl) and refuses a changed one; 1.85 has the unsigned resumeUrl form.
	if (versionAtLeast(n8n.paths.n8nVersion, '2.0.0')) {
		expect(confirm).toMatch(/&signature=/);
		const forged = await fetch(confirm.replace('approved=true', 'approved=false'), {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'confirm=1',
		});
		await forged.text();
		expect(forged.status).toBe(401);
	}
	if (!versionAtLeast(n8n.paths.n8nVersion, '1.100.0')) expect(confirm).not.toMatch(/signature=/);

	// WhatsApp's link preview (and a person opening the link) fetch it with GET: a page, no answer.
	for (const agent of ['WhatsApp/2.23.20.0', 'Mozilla/5.0 (iPhone)']) {
		const page = await fetch(confirm, { headers: { 'user-agent': agent } });
		expect(page.status).toBe(200);
		const html = await page.text();
		expect(html).toContain('Order A-1001 is 2,400 €. Confirm it?');
		expect(html).toContain('<button type="submit">Confirm</button>');
	}
	await sleep(1000);
	expect((await readExecution(n8n, session, waiting.id)).status).toBe('waiting');
	expect(textsTo(PHONE)).toHaveLength(1);

	// The button: the form posts to the same link.
	const answer = await fetch(confirm, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: 'confirm=1',
	});
	expect(answer.status).toBe(200);
	expect(await answer.text()).toContain('Your answer was recorded');
	const done = await waitForStatus(APPROVAL.id, 'success');
	expect(done.id).toBe(waiting.id);
	const finished = await readExecution(n8n, session, done.id);
	const [asked] = nodeOutput(finished, 'Ask');
	expect(asked).toMatchObject({
		data: { approved: true },
		answer: 'Confirm',
		recipient: { phone_number: PHONE },
	});
	expect((asked.recipient as { name?: string }).name).toEqual(expect.any(String));
	expect(nodeOutput(finished, 'Confirm')).toHaveLength(1);
	expect(textsTo(PHONE).at(-1)).toBe('Order A-1001 confirmed.');

	// The same link again: the execution is over, nothing runs twice.
	const again = await fetch(confirm, {
		method: 'POST',
		body: 'confirm=1',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
	});
	await again.text();
	await sleep(500);
	expect(textsTo(PHONE)).toHaveLength(2);
	expect(
		(await executionsOf(APPROVAL.id)).filter((execution) => execution.status === 'success'),
	).toHaveLength(1);
});

test('Free Text: the link opens a form page; sending it finishes the run with data.text', async () => {
	const waiting = await run(FREE_TEXT.id);
	const question = textsTo(PHONE).at(-1)!;
	expect(question).toContain('Which delivery day suits you?');
	const link = (question.match(/https?:\/\/\S+/g) ?? [])[0]!;
	expect(question).toContain(`Respond: ${link}`);
	const page = await fetch(link);
	const html = await page.text();
	expect(html).toContain('<textarea id="f0" name="field-0" required>');
	await sleep(500);
	expect((await readExecution(n8n, session, waiting.id)).status).toBe('waiting');
	const answer = await fetch(link, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ 'field-0': 'Tuesday morning' }).toString(),
	});
	expect(answer.status).toBe(200);
	const done = await waitForStatus(FREE_TEXT.id, 'success');
	const finished = await readExecution(n8n, session, done.id);
	expect(nodeOutput(finished, 'Ask')[0]).toMatchObject({ data: { text: 'Tuesday morning' } });
	expect(textsTo(PHONE).at(-1)).toBe('Noted: Tuesday morning');
});

test("examples/order-approval.json: asked with Confirm and Hold buttons and no URL in the text; the Hold button's link (in its id, what a trigger taking taps posts) resumes it; the customer is told the order is on hold", async () => {
	const waiting = await run('bsExOrderApproval');
	const question = textsTo(BEN, BUTTONS).at(-1)!;
	const asked = sim.requests.filter((request) => request.path === BUTTONS).at(-1)!;
	expect(
		(JSON.parse(String(asked.body.buttons)) as Array<{ title: string }>).map(
			(button) => button.title,
		),
	).toEqual(['Confirm', 'Hold']);
	expect(question).toContain(
		'New order A-1001 from Ava: 40 × Celebration cake, 2400 EUR. Confirm it?',
	);
	// Node version 1.2 in WhatsApp Chat mode: the question alone; each answer link rides in its button's id.
	expect(question).not.toMatch(/https?:/);
	const hold = (JSON.parse(String(asked.body.buttons)) as Array<{ id: string; title: string }>)
		.map((button) => linkOfButtonId(button.id)?.url ?? '')
		.find((link) => link.includes('approved=false'))!;
	expect(hold.startsWith(`${n8n.url}/webhook-waiting/${waiting.id}/`)).toBe(true);
	const page = await (await fetch(hold)).text();
	expect(page).toContain('<button type="submit">Hold</button>');
	const answer = await fetch(hold, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: 'confirm=1',
	});
	expect(answer.status).toBe(200);
	const done = await waitForStatus('bsExOrderApproval', 'success');
	expect(done.id).toBe(waiting.id);
	const finished = await readExecution(n8n, session, done.id);
	expect(nodeOutput(finished, 'Ask the Owner')[0]).toMatchObject({
		data: { approved: false },
		answer: 'Hold',
		recipient: { phone_number: BEN, name: 'Ben Garcia' },
	});
	expect(textsTo(AVA).at(-1)).toBe(
		'Thank you Ava! We are checking your order A-1001 and will be in touch shortly.',
	);
});

test('Limit Wait Time: nobody answers; after the limit the run goes on with data.timedOut and takes the "no" branch', async () => {
	const waiting = await run(LIMITED.id);
	expect(textsTo(PHONE).at(-1)).toContain('Order A-1002 is 3,100 €. Confirm it?');
	// n8n's WaitTracker looks for due executions once a minute.
	const done = await waitForStatus(LIMITED.id, 'success', 180_000);
	expect(done.id).toBe(waiting.id);
	const finished = await readExecution(n8n, session, done.id);
	expect(nodeOutput(finished, 'Ask')[0]).toMatchObject({
		data: { timedOut: true, approved: false },
		recipient: { phone_number: PHONE },
	});
	expect(nodeOutput(finished, 'Hold')).toHaveLength(1);
	expect(textsTo(PHONE).at(-1)).toBe('Order held.');
});

sinceN8n('2.6.0', 'n8n generates Human review tools from 2.6')(
	'n8n lists the generated Human review tool (botSailorHitlTool) with the operation fixed to sendAndWait',
	async () => {
		const types =
			await session.get<
				Array<{ name: string; properties: Array<{ name: string; type: string; default: unknown }> }>
			>('/types/nodes.json');
		const hitl = types.find((type) => type.name === `${PACKAGE_NAME}.botSailorHitlTool`);
		expect(hitl).toBeDefined();
		expect(hitl!.properties.find((property) => property.name === 'operation')).toMatchObject({
			type: 'hidden',
			default: 'sendAndWait',
		});
		expect(hitl!.properties.find((property) => property.name === 'resource')).toMatchObject({
			type: 'hidden',
			default: 'message',
		});
	},
);

test('Send As Template: the template carries one link; its page has both buttons; Confirm finishes the run', async () => {
	// An approved template of the number whose URL button ends in a variable (simulator: SPEC-GAP).
	addQuestionTemplate(sim.state, NUMBER, `${n8n.url}/webhook-waiting/`);
	const texts = textsTo(PHONE).length;
	const waiting = await run(TEMPLATED.id);
	expect(textsTo(PHONE)).toHaveLength(texts);
	const sent = sim.requests.filter((request) => request.path === '/whatsapp/send/template');
	expect(sent).toHaveLength(1);
	expect(sent[0].body).toMatchObject({
		template_id: TEMPLATE_ID,
		phone_number: PHONE,
		'templateVariable-order-1': 'A-1003',
	});
	// The button's URL as WhatsApp builds it: the fixed part, then the variable.
	const value = String(sent[0].body['templateVariable-answer_link-1']);
	expect(value.startsWith(`${waiting.id}/`)).toBe(true);
	const link = `${n8n.url}/webhook-waiting/${value}`;
	expect(link).not.toContain('approved=');
	const page = await (await fetch(link)).text();
	expect(page).toContain('Order A-1003 is 1,800 €. Confirm it?');
	expect(page).toContain('<button type="submit">Confirm</button>');
	expect(page).toContain('<button type="submit" class="secondary">Hold</button>');
	await sleep(500);
	expect((await readExecution(n8n, session, waiting.id)).status).toBe('waiting');
	const answer = await fetch(link, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: 'approved=true',
	});
	expect(answer.status).toBe(200);
	await waitForExecution(TEMPLATED.id, waiting.id, 'success');
	const finished = await readExecution(n8n, session, waiting.id);
	expect(nodeOutput(finished, 'Ask')[0]).toMatchObject({
		data: { approved: true },
		answer: 'Confirm',
	});
	expect(textsTo(PHONE).at(-1)).toBe('Order A-1003 confirmed.');
});

/** The requests of one path to one subscriber, with their place among all requests the simulator received. */
function requestsTo(path: string, phone: string) {
	return sim.requests
		.map((request, index) => ({ ...request, index }))
		.filter((request) => request.path === path && request.body.phone_number === phone);
}

/** Starts the agent run; it waits for the owner's review. Returns the question and its two links. */
async function startReviewedRun() {
	standIn.reset();
	standIn.script([
		{
			toolCalls: [
				{
					name: GATED_TOOL,
					arguments: {
						toolParameters: { phone_number: CUSTOMER_PHONE, message: CUSTOMER_TEXT },
						hitlParameters: {},
					},
				},
			],
		},
		{ text: 'Done.' },
	]);
	const asked = requestsTo('/whatsapp/send', OWNER_PHONE).length;
	const waiting = await run(REVIEWED.id);
	const questions = requestsTo('/whatsapp/send', OWNER_PHONE);
	expect(questions).toHaveLength(asked + 1);
	const question = String(questions.at(-1)!.body.message);
	const links = question.match(/https?:\/\/\S+/g) ?? [];
	return {
		waiting,
		question,
		allow: links.find((link) => link.includes('approved=true'))!,
		refuse: links.find((link) => link.includes('approved=false'))!,
	};
}

/** Waits until this execution (not an earlier one of the workflow) has `status`. */
async function waitForExecution(workflowId: string, id: string, status: string) {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const found = (await executionsOf(workflowId)).find((execution) => execution.id === id);
		if (found?.status === status) return found;
		if (Date.now() > deadline || (found && !['waiting', 'running', 'new'].includes(found.status)))
			throw new Error(
				`execution ${id} is ${found?.status ?? 'missing'}, not ${status}\n${server.output().slice(-3000)}`,
			);
		await sleep(500);
	}
}

const press = async (link: string) => {
	const answer = await fetch(link, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: 'confirm=1',
	});
	return { status: answer.status, html: await answer.text() };
};

HUMAN_REVIEW(
	'Human review: the agent’s Send WhatsApp Text waits for the owner; it runs once, only after Allow',
	async () => {
		const before = requestsTo('/whatsapp/send', CUSTOMER_PHONE).length;
		const { waiting, question, allow } = await startReviewedRun();
		// The model was offered the gated tool with n8n's two-part schema.
		const offered = standIn.requests[0].body.tools ?? [];
		const gated = offered.find((tool) => tool.function.name === GATED_TOOL);
		expect(Object.keys((gated?.function.parameters as { properties: object }).properties)).toEqual(
			expect.arrayContaining(['toolParameters', 'hitlParameters']),
		);
		// n8n's default Human review message names the tool and its input; the owner gets one link per answer.
		expect(question).toContain(`The agent wants to run this tool: ${GATED_TOOL}`);
		// The gated call's input is written out (n8n's expression alone renders it "[object Object]").
		expect(question).toContain(
			`Input:\nphone_number: ${CUSTOMER_PHONE}\nmessage: ${CUSTOMER_TEXT}\n\nAllow: ${allow}`,
		);
		expect(question).not.toContain('[object Object]');
		expect(question).toContain(`Allow: ${allow}`);
		expect(allow).toMatch(/&signature=/);
		// Nothing went to the customer while the owner has not answered.
		expect(requestsTo('/whatsapp/send', CUSTOMER_PHONE)).toHaveLength(before);
		const page = await (await fetch(allow)).text();
		expect(page).toContain('<button type="submit">Allow</button>');
		// The page shows the same question.
		expect(page).toContain(`phone_number: ${CUSTOMER_PHONE}\nmessage: ${CUSTOMER_TEXT}`);
		await sleep(1000);
		expect((await readExecution(n8n, session, waiting.id)).status).toBe('waiting');
		expect(requestsTo('/whatsapp/send', CUSTOMER_PHONE)).toHaveLength(before);

		const approvedAt = sim.requests.length;
		const answer = await press(allow);
		expect(answer.status).toBe(200);
		expect(answer.html).toContain('Your answer was recorded');
		const done = await waitForExecution(REVIEWED.id, waiting.id, 'success');
		const sent = requestsTo('/whatsapp/send', CUSTOMER_PHONE).slice(before);
		expect(sent).toHaveLength(1);
		expect(sent[0].index).toBeGreaterThanOrEqual(approvedAt);
		expect(sent[0].body).toEqual({
			phone_number_id: NUMBER,
			phone_number: CUSTOMER_PHONE,
			message: CUSTOMER_TEXT,
		});
		// The model got the send's result back, then answered.
		const [result] = standIn.toolResults(standIn.requests[1]);
		expect(result.content).toMatch(/wamid\./);
		const finished = await readExecution(n8n, session, done.id);
		expect(nodeOutput(finished, 'AI Agent')[0]).toMatchObject({ output: 'Done.' });
		const runData = finished.data.resultData.runData as Record<string, unknown[]>;
		expect(runData['Send WhatsApp Text']).toHaveLength(1);
		expect(JSON.stringify(runData['Owner Review'])).toContain('"approved":true');
	},
);

HUMAN_REVIEW(
	'Human review: after Refuse the gated tool does not run, and the model is told it was rejected',
	async () => {
		const before = requestsTo('/whatsapp/send', CUSTOMER_PHONE).length;
		const { waiting, refuse } = await startReviewedRun();
		const answer = await press(refuse);
		expect(answer.status).toBe(200);
		const done = await waitForExecution(REVIEWED.id, waiting.id, 'success');
		await sleep(500);
		expect(requestsTo('/whatsapp/send', CUSTOMER_PHONE)).toHaveLength(before);
		const [result] = standIn.toolResults(standIn.requests[1]);
		expect(result.content).toContain('User rejected the tool call to Send WhatsApp Text');
		// n8n's own run data: the review answered approved: false, the gated tool node never ran.
		const finished = await readExecution(n8n, session, done.id);
		const runData = finished.data.resultData.runData as Record<string, unknown[]>;
		expect(runData['Send WhatsApp Text']).toBeUndefined();
		expect(JSON.stringify(runData['Owner Review'])).toContain('"approved":false');
	},
);

/**
 * Free Text as a person answers it: the link from the WhatsApp message opened in headless Chromium on a
 * phone-sized screen, the answer typed into the page's field and sent with its button. Runs on n8n 2.41.1
 * (the pinned newest) and every 2.x (n8n 1.x renders its own form page); a missing Chromium fails it on the pinned
 * n8n (withChromium). With UPDATE_SCREENSHOTS=1 the filled-in page is saved as docs/send-and-wait-free-text.png
 * (the picture in docs/send-and-wait.md).
 */
const BROWSER = versionAtLeast(installedN8nVersion(), '2.0.0')
	? withChromium('the Free Text browser check')
	: sinceN8n('2.0.0', 'the Free Text browser check (the answer page as n8n 2.x renders it)');

BROWSER(
	'Free Text in a real browser: open the link, type, send; the run finishes with the text',
	async () => {
		const waiting = await run(FREE_TEXT.id);
		const question = textsTo(PHONE).at(-1)!;
		const link = (question.match(/https?:\/\/\S+/g) ?? [])[0]!;
		const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
		try {
			const page = await browser.newPage({ viewport: { width: 390, height: 700 } });
			await page.goto(link);
			// The page shows the question and to whom it went, then one text field and the button.
			await page.getByText('Which delivery day suits you?').waitFor();
			await page.getByText(`Answer to the WhatsApp message sent to +${PHONE}`).waitFor();
			const field = page.getByLabel('Your answer');
			await field.fill('Thursday after 2 pm, please');
			const shot = process.env.UPDATE_SCREENSHOTS
				? join(EXAMPLES_DIR, '..', 'docs', 'send-and-wait-free-text.png')
				: join(work, 'send-and-wait-free-text.png');
			await page.screenshot({ path: shot, fullPage: true });
			expect(statSync(shot).size).toBeGreaterThan(5000);
			// Opening the page answered nothing.
			expect((await readExecution(n8n, session, waiting.id)).status).toBe('waiting');
			await page.getByRole('button', { name: 'Submit' }).click();
			await page.getByText('Your answer was recorded').waitFor();
		} finally {
			await browser.close();
		}
		const done = await waitForExecution(FREE_TEXT.id, waiting.id, 'success');
		const finished = await readExecution(n8n, session, done.id);
		expect(nodeOutput(finished, 'Ask')[0]).toMatchObject({
			data: { text: 'Thursday after 2 pm, please' },
		});
		expect(textsTo(PHONE).at(-1)).toBe('Noted: Thursday after 2 pm, please');
	},
);
