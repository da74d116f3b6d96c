/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- drives a real n8n from plain Node.js, not node code; the trigger secret is a fixed local test value */
/**
 * Send and Wait answered in the WhatsApp chat (issue 45) in a real n8n (the packed package installed as a community
 * package, `n8n start`): a workflow Manual → Send and Wait (Answer In: WhatsApp Chat) → IF → Send Text asks; another,
 * published workflow holds the BotSailor Webhook Trigger (version 1.1: Send and Wait Answers → Take Them) whose
 * production URL the simulator posts incoming messages to. The subscriber taps a reply button (or writes) in the
 * simulator; the trigger resumes the waiting execution through n8n's own waiting URL, starts no run of its workflow and
 * confirms in the chat; a late tap is answered "already answered". The polling BotSailor Trigger (New Message 1.1) in
 * a third workflow takes a tap one poll later, with no webhook posted.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../simulator/server';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, chromiumPath } from './editor';
import { startOpenAiStandIn, type OpenAiStandIn } from './openaiStandIn';
import { addMessage, tapButton } from '../simulator/control';
import { linkOfButtonId } from '../../nodes/shared/conversation/answerBinding';
import {
	approvalWorkflow,
	GATED_TOOL,
	humanReviewWorkflow,
	OPENAI_CREDENTIAL,
} from './sendAndWaitWorkflows';
import { AVA, BEN, CHLOE, NUMBER, seededPhone } from '../harness/params';
import {
	executionsOf as triggerExecutions,
	productionUrl,
	publish,
	triggerWorkflow,
	unpublish,
	waitForProductionWebhook,
} from '../webhookTrigger/realN8n';
import {
	cli,
	findFreePortPair,
	importCredential,
	importOpenAiCredential,
	installCommunityPackage,
	installedN8nVersion,
	instance,
	nodeOutput,
	pack,
	PACKAGE_NAME,
	provision,
	ROOT,
	readExecution,
	Session,
	sinceN8n,
	start,
	versionAtLeast,
	type N8nInstance,
	type Server,
	startWithOwner,
} from './n8n';

const PHONE = AVA;
const SECRET = 'e2e-Chat-Secret-91c2';
function asking(id: string, ask: Record<string, unknown>, reply: string) {
	return approvalWorkflow(
		id,
		`Send and Wait in chat e2e ${id}`,
		{ answerIn: 'chat', ...ask },
		reply,
		PHONE,
	);
}

const APPROVAL = asking(
	'bsE2eChatApproval',
	{
		message: 'Order A-2001 is 1,200 €. Confirm it?',
		approvalOptions: {
			values: { approvalType: 'double', approveLabel: 'Confirm', disapproveLabel: 'Hold' },
		},
		chatConfirmation: 'Thanks, noted.',
	},
	'Order A-2001 confirmed.',
);
const FREE_TEXT = asking(
	'bsE2eChatText',
	{ message: 'Which delivery day suits you?', responseType: 'freeText' },
	'={{ "Noted: " + $json.data.text }}',
);

/** Approve, Edit or Decline (issue 53): a draft the person corrects in the chat; the run sends what they wrote. */
const DRAFT = 'Hi Ava, your order A-2005 ships on Tuesday.';
const EDITED = asking(
	'bsE2eChatEdit',
	{
		message: 'Send this reply?',
		draftText: DRAFT,
		approvalOptions: { values: { approvalType: 'edit' } },
	},
	'={{ "Sent: " + $json.data.text }}',
);

const OTHER_PHONE = BEN;
const MANY = asking(
	'bsE2eChatMany',
	{
		message: 'Order A-2003 is 5,000 €. Confirm it?',
		approvalOptions: {
			values: { approvalType: 'double', approveLabel: 'Confirm', disapproveLabel: 'Hold' },
		},
		moreRecipients: OTHER_PHONE,
	},
	'Order A-2003 confirmed.',
);

const EXPIRING = asking(
	'bsE2eChatExpiring',
	{
		message: 'Order A-2002 is 900 €. Confirm it?',
		approvalOptions: { values: { approvalType: 'double' } },
		options: {
			limitWaitTime: {
				values: { limitType: 'afterTimeInterval', resumeAmount: 0.05, resumeUnit: 'minutes' },
			},
		},
	},
	'Order A-2002 confirmed.',
);

/**
 * Approve, Edit or Decline questions started by n8n's Webhook node (published with the trigger, so asking costs no CLI
 * start), each to a subscriber of its own (a tap goes to that person's newest question): EDIT_HOOKED without a limit
 * (the Edit link's page; an n8n restart between the Edit tap and the text), EDIT_EXPIRING with a short Limit Wait
 * Time (an Edit tap and no text before it). The limit leaves the tap time to be taken under a loaded machine; n8n ends
 * the wait at its next minute's check anyway, as for EXPIRING, asked in the same test.
 */
const PROMPT = 'Send the corrected text as your next message.';
const HOOKED_PHONE = seededPhone(7);
const HOOKED_DRAFT = 'Hi, your order A-2006 ships on Friday.';
function editing(id: string, path: string, phone: string, draft: string, limit?: object) {
	return startedByWebhook(
		approvalWorkflow(
			id,
			`Send and Wait in chat e2e ${id}`,
			{
				answerIn: 'chat',
				message: 'Send this reply?',
				draftText: draft,
				approvalOptions: { values: { approvalType: 'edit' } },
				...(limit ? { options: { limitWaitTime: { values: limit } } } : {}),
			},
			'={{ "Sent: " + $json.data.text }}',
			phone,
		),
		path,
	);
}
const EDIT_HOOKED = editing('bsE2eChatEditHooked', 'bs-e2e-chat-edit', HOOKED_PHONE, HOOKED_DRAFT);
const LATE_PHONE = seededPhone(6);
const LATE_DRAFT = 'Hi, your order A-2007 ships on Monday.';
const EDIT_EXPIRING = editing(
	'bsE2eChatEditExpiring',
	'bs-e2e-chat-edit-expiring',
	LATE_PHONE,
	LATE_DRAFT,
	{ limitType: 'afterTimeInterval', resumeAmount: 0.5, resumeUnit: 'minutes' },
);

/**
 * The bench (BENCH_CHAT_ANSWERS=50): n8n's Webhook node starts the question (no CLI start per round), the subscriber
 * taps, and the time from the tap to the resumed run's next send reaching the platform is measured. BENCH_CHAT_EDITS=50
 * (issue 53): Approve, Edit or Decline, the subscriber taps Edit, is asked for the text, and the time from their text
 * message to the resumed run's next send (which carries that text) is measured.
 */
const BENCH_ROUNDS = Number(process.env.BENCH_CHAT_ANSWERS ?? 0);
const BENCH_EDITS = Number(process.env.BENCH_CHAT_EDITS ?? 0);
const BENCH_PHONE = seededPhone(4);

/** A workflow whose question n8n's Webhook node starts (published: no CLI start per question), at `path`. */
interface Hooked {
	workflow: ReturnType<typeof approvalWorkflow>;
	path: string;
}
function startedByWebhook(workflow: Hooked['workflow'], path: string): Hooked {
	workflow.nodes[0] = {
		id: 'start',
		name: 'Manual',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
		webhookId: path,
	} as (typeof workflow.nodes)[0];
	return { workflow, path };
}
function benchWorkflow(id: string, path: string, ask: Record<string, unknown>, reply: string) {
	const { workflow } = startedByWebhook(
		asking(id, { ...ask, phoneNumber: { __rl: true, mode: 'phone', value: BENCH_PHONE } }, reply),
		path,
	);
	for (const node of workflow.nodes)
		if (node.name === 'Confirm' || node.name === 'Hold')
			Object.assign(node.parameters, {
				phoneNumber: { __rl: true, mode: 'phone', value: BENCH_PHONE },
			});
	return { workflow, path };
}
const BENCHED = benchWorkflow(
	'bsBenchChatAnswers',
	'bs-bench-chat-start',
	{ message: 'Bench question: confirm?' },
	'Bench confirmed.',
);
const BENCHED_EDITS = benchWorkflow(
	'bsBenchChatEdits',
	'bs-bench-chat-edit-start',
	{
		message: 'Bench question: send this?',
		draftText: 'Bench draft.',
		approvalOptions: { values: { approvalType: 'edit' } },
	},
	'={{ "Bench edited: " + $json.data.text }}',
);

/**
 * AI Agent Human review (n8n >= 2.6) answered in the chat: the generated Human review tool (`botSailorHitlTool`) with
 * Answer In: WhatsApp Chat gates a BotSailor Send Text tool; the model (the OpenAI stand-in) calls it, the owner gets
 * reply buttons, and the gated send goes out only after the owner's tap (as in sendAndWait.e2e's Human review tests).
 */
const HUMAN_REVIEW = sinceN8n('2.6.0', 'n8n generates Human review tools from 2.6');
const OWNER_PHONE = CHLOE;
const CUSTOMER_PHONE = seededPhone(0);
const CUSTOMER_TEXT = 'Hi, your order A-2004 is confirmed.';
const REVIEWED = humanReviewWorkflow({
	id: 'bsE2eChatHumanReview',
	name: 'Send and Wait in chat e2e: AI Agent with Human review',
	text: `Tell ${CUSTOMER_PHONE} that order A-2004 is confirmed.`,
	ownerPhone: OWNER_PHONE,
	review: { answerIn: 'chat' },
});

/** The Webhook Trigger's workflow, at version 1.1 (new nodes): it takes Send and Wait answers by default. */
const TRIGGER_OPTIONS = {
	id: 'bsE2eChatTrigger',
	webhookId: 'bs-e2e-chat-trigger',
	phoneNumberId: NUMBER,
	secret: SECRET,
};
const TRIGGER = (() => {
	const workflow = triggerWorkflow(TRIGGER_OPTIONS);
	for (const node of workflow.nodes)
		if (node.type === `${PACKAGE_NAME}.botSailorWebhookTrigger`) node.typeVersion = 1.1;
	return workflow;
})();

/**
 * The polling BotSailor Trigger (New Message, version 1.1: Send and Wait Answers → Take Them) in another workflow,
 * published only for its test. BENCH_POLL_ANSWERS: how many answers that test times (default 1).
 */
const POLL_ANSWERS = Math.max(1, Number(process.env.BENCH_POLL_ANSWERS ?? 1));
const POLL_TRIGGER = (() => {
	const workflow = triggerWorkflow({
		id: 'bsE2eChatPoll',
		webhookId: 'bs-e2e-chat-poll',
		phoneNumberId: NUMBER,
		pollingOnly: true,
	});
	for (const node of workflow.nodes)
		if (node.type === `${PACKAGE_NAME}.botSailorTrigger`) node.typeVersion = 1.1;
	return workflow;
})();

let sim: Simulator;
let standIn: OpenAiStandIn;
let n8n: N8nInstance;
let work: string;
let server: Server;
let session: Session;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function textsTo(phone: string): string[] {
	return sim.requests
		.filter((request) => request.path === '/whatsapp/send' && request.body.phone_number === phone)
		.map((request) => String(request.body.message));
}
/** The texts sent to `phone` once one of them is `text` (or after 10 s: the caller's assertion then says what came). */
async function textsOnceSent(phone: string, text: string): Promise<string[]> {
	const deadline = Date.now() + 10_000;
	while (!textsTo(phone).includes(text) && Date.now() < deadline) await sleep(200);
	return textsTo(phone);
}
const buttonSends = () =>
	sim.requests.filter((request) => request.path === '/whatsapp/send/interactive-buttons');

async function executionsOf(workflowId: string) {
	return (
		await session.request<{ results: Array<{ id: string; status: string }> }>(
			'GET',
			`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`,
		)
	).results;
}

async function waitFor(workflowId: string, id: string, status: string, timeoutMs = 60_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const found = (await executionsOf(workflowId)).find((execution) => execution.id === id);
		if (found?.status === status) return found;
		if (Date.now() > deadline)
			throw new Error(`execution ${id} of ${workflowId} is ${found?.status}, not ${status}`);
		await sleep(300);
	}
}

/** Starts a workflow's Manual Trigger beside the running server; returns the execution once it waits. */
/**
 * The chat as the subscriber sees it, on the simulator's phone page in headless Chromium: the question with its reply
 * buttons, the tap, the confirmation. Saved to a temporary folder, or to docs/send-and-wait-chat.png with
 * UPDATE_SCREENSHOTS=1 (then a missing Chromium fails; otherwise it is a reported skip).
 */
async function chatScreenshot(phone: string, waitForText: string): Promise<void> {
	const executablePath = chromiumPath();
	if (!executablePath) {
		if (process.env.UPDATE_SCREENSHOTS === '1')
			throw new Error('UPDATE_SCREENSHOTS=1 needs Chromium: apt-get install chromium');
		process.stdout.write('SKIPPED the chat screenshot: no Chromium (set CHROMIUM_PATH)\n');
		return;
	}
	const folder =
		process.env.UPDATE_SCREENSHOTS === '1'
			? join(ROOT, 'docs')
			: mkdtempSync(join(tmpdir(), 'botsailor-screenshots-'));
	const browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS });
	try {
		const page = await browser.newPage({ viewport: { width: 820, height: 840 } });
		await page.goto(`${sim.url}/phone?phone=${phone}&number=${NUMBER}`);
		await page
			.locator('.msg.business .bubble', { hasText: waitForText })
			.last()
			.waitFor({ timeout: 15_000 });
		await page.locator('.buttons button', { hasText: 'Confirm' }).first().waitFor();
		const file = join(folder, 'send-and-wait-chat.png');
		await page.screenshot({ path: file });
		process.stdout.write(`chat screenshot: ${file}\n`);
	} finally {
		await browser.close();
	}
}

async function run(workflowId: string) {
	const before = new Set((await executionsOf(workflowId)).map((execution) => execution.id));
	const broker = String((await findFreePortPair()) + 1);
	const env = { ...n8n.env, N8N_LOG_LEVEL: 'info', N8N_RUNNERS_BROKER_PORT: broker };
	const result = await cli({ ...n8n, env }, ['execute', `--id=${workflowId}`]);
	const deadline = Date.now() + 15_000;
	for (;;) {
		const waiting = (await executionsOf(workflowId)).find(
			(execution) => !before.has(execution.id) && execution.status === 'waiting',
		);
		if (waiting) return waiting;
		if (Date.now() > deadline)
			throw new Error(
				`no waiting execution: exit ${result.code}\n${result.stdout}\n${result.stderr}`,
			);
		await sleep(300);
	}
}

/** POSTs to a published workflow's Webhook node: publishing returns before the webhook serves, so a 404 is tried again. */
async function startByWebhook(path: string) {
	for (let tries = 0; ; tries++) {
		const started = await fetch(`${n8n.url}/webhook/${path}`, { method: 'POST' });
		await started.text();
		if (started.status !== 404) return;
		if (tries > 100) throw new Error(`the webhook ${path} never served`);
		await sleep(250);
	}
}

/** Asks `hooked`'s question (its Webhook node): returns the execution once it waits. */
async function askByWebhook({ workflow, path }: Hooked) {
	const before = new Set((await executionsOf(workflow.id)).map((execution) => execution.id));
	await startByWebhook(path);
	const deadline = Date.now() + 30_000;
	for (;;) {
		const waiting = (await executionsOf(workflow.id)).find(
			(execution) => !before.has(execution.id) && execution.status === 'waiting',
		);
		if (waiting) return waiting;
		if (Date.now() > deadline) throw new Error(`no waiting execution of ${workflow.id}`);
		await sleep(300);
	}
}

beforeAll(async () => {
	const paths = provision();
	sim = await startSimulator();
	work = mkdtempSync(join(tmpdir(), 'botsailor-chat-e2e-'));
	n8n = instance(paths, join(work, 'user'), await findFreePortPair());
	installCommunityPackage(n8n, pack(join(work, 'pack')));
	await importCredential(n8n, { baseUrl: sim.url, apiToken: sim.token });
	standIn = await startOpenAiStandIn();
	await importOpenAiCredential(n8n, OPENAI_CREDENTIAL.id, OPENAI_CREDENTIAL.name, {
		url: standIn.url,
		apiKey: 'sk-test',
	});
	const file = join(work, 'workflows.json');
	writeFileSync(
		file,
		JSON.stringify([
			APPROVAL,
			FREE_TEXT,
			EXPIRING,
			MANY,
			EDITED,
			EDIT_HOOKED.workflow,
			EDIT_EXPIRING.workflow,
			...(versionAtLeast(installedN8nVersion(), '2.6.0') ? [REVIEWED] : []),
			TRIGGER,
			POLL_TRIGGER,
			...(BENCH_ROUNDS ? [BENCHED.workflow] : []),
			...(BENCH_EDITS ? [BENCHED_EDITS.workflow] : []),
		]),
	);
	const imported = await cli(n8n, ['import:workflow', `--input=${file}`]);
	if (imported.code !== 0) throw new Error(imported.stderr);
	({ server, session } = await startWithOwner(n8n));
	await publish(session, TRIGGER.id);
	await publish(session, EDIT_HOOKED.workflow.id);
	await publish(session, EDIT_EXPIRING.workflow.id);
	await waitForProductionWebhook(n8n, TRIGGER_OPTIONS.webhookId);
	sim.state.webhooks.configure(NUMBER, {
		urls: { incoming_message: productionUrl(n8n, TRIGGER_OPTIONS.webhookId, SECRET) },
	});
}, 600_000);

afterAll(async () => {
	await server?.stop();
	await standIn?.close();
	await sim?.close();
	if (work) rmSync(work, { recursive: true, force: true });
});

test('approval by tap: the Webhook Trigger in another workflow resumes it (approved), starts no run, confirms in the chat; a late tap gets "already answered"', async () => {
	const waiting = await run(APPROVAL.id);
	expect(buttonSends()).toHaveLength(1);
	const buttons = JSON.parse(String(buttonSends()[0].body.buttons)) as Array<{
		id: string;
		title: string;
	}>;
	expect(buttons.map((button) => button.title)).toEqual(['Confirm', 'Hold']);
	// The chat question as the platform receives it: the question alone, no URL; the links ride in the buttons' ids.
	expect(buttonSends()[0].body.message).toBe('Order A-2001 is 1,200 €. Confirm it?');
	expect(String(buttonSends()[0].body.message)).not.toMatch(/https?:/);
	for (const button of buttons) {
		expect(button.id.length).toBeLessThanOrEqual(256);
		expect(linkOfButtonId(button.id)?.url).toMatch(
			new RegExp(`^${n8n.url}/webhook-waiting/${waiting.id}/.+&signature=[0-9a-f]{64}$`),
		);
	}

	const tappedAt = Date.now();
	tapButton(sim.state, { phone_number: PHONE, title: 'Confirm' });
	await sim.state.webhooks.idle();
	await waitFor(APPROVAL.id, waiting.id, 'success');
	process.stdout.write(`tap → execution finished: ${Date.now() - tappedAt} ms\n`);
	const finished = await readExecution(n8n, session, waiting.id);
	const [asked] = nodeOutput(finished, 'Ask');
	expect(asked).toMatchObject({
		data: { approved: true },
		answer: 'Confirm',
		recipient: { phone_number: PHONE },
		answeredIn: 'chat',
	});
	expect(nodeOutput(finished, 'Confirm')).toHaveLength(1);
	// The confirmation (the trigger) and the next node's send (the resumed run) go out side by side.
	const deadline = Date.now() + 10_000;
	while (textsTo(PHONE).length < 2 && Date.now() < deadline) await sleep(200);
	expect([...textsTo(PHONE)].sort()).toEqual([
		'Confirmed. Thanks, noted.',
		'Order A-2001 confirmed.',
	]);
	await chatScreenshot(PHONE, 'Confirmed. Thanks, noted.');

	// A second tap on the same question: nothing resumes, no run starts, the chat says so.
	tapButton(sim.state, { phone_number: PHONE, title: 'Hold' });
	await sim.state.webhooks.idle();
	await sleep(1500);
	// The same n8n process took the first answer: the reply says by whom and when.
	expect(textsTo(PHONE).at(-1)).toMatch(
		new RegExp(
			`^This question was already answered by .+ \\(\\+${PHONE}\\) on .+ UTC\\. Only the first`,
		),
	);
	expect(await triggerExecutions(session, TRIGGER.id)).toEqual([]);
	const again = await readExecution(n8n, session, waiting.id);
	expect(Object.keys(again.data.resultData.runData)).not.toContain('Hold');
	const answers = sim.state.webhooks.deliveries.map((delivery) => delivery.answer ?? '');
	expect(answers.filter((answer) => answer.includes('"sendAndWait":"answered"'))).toHaveLength(1);
	expect(
		answers.filter((answer) => answer.includes('"sendAndWait":"alreadyAnswered"')),
	).toHaveLength(1);
}, 120_000);

test('decline by tap: the run goes on with approved: false (the Hold branch)', async () => {
	const waiting = await run(APPROVAL.id);
	tapButton(sim.state, { phone_number: PHONE, title: 'Hold' });
	await sim.state.webhooks.idle();
	await waitFor(APPROVAL.id, waiting.id, 'success');
	const finished = await readExecution(n8n, session, waiting.id);
	expect(nodeOutput(finished, 'Ask')[0]).toMatchObject({
		data: { approved: false },
		answer: 'Hold',
		answeredIn: 'chat',
	});
	expect(nodeOutput(finished, 'Hold')).toHaveLength(1);
	expect(await triggerExecutions(session, TRIGGER.id)).toEqual([]);
}, 120_000);

test("free text by reply: the recipient's next message is the answer; the one after starts a run as usual", async () => {
	const waiting = await run(FREE_TEXT.id);
	expect(buttonSends().at(-1)?.body.message).toBe(
		'Which delivery day suits you?\n\nReply to this message to answer.',
	);
	addMessage(sim.state, { phone_number_id: NUMBER, phone_number: PHONE, text: 'Thursday please' });
	await sim.state.webhooks.idle();
	await waitFor(FREE_TEXT.id, waiting.id, 'success');
	const finished = await readExecution(n8n, session, waiting.id);
	expect(nodeOutput(finished, 'Ask')[0]).toMatchObject({
		data: { text: 'Thursday please' },
		answeredIn: 'chat',
	});
	expect(await triggerExecutions(session, TRIGGER.id)).toEqual([]);
	addMessage(sim.state, { phone_number_id: NUMBER, phone_number: PHONE, text: 'see you then' });
	await sim.state.webhooks.idle();
	const deadline = Date.now() + 30_000;
	while ((await triggerExecutions(session, TRIGGER.id)).length === 0 && Date.now() < deadline)
		await sleep(300);
	expect(await triggerExecutions(session, TRIGGER.id)).toHaveLength(1);
}, 120_000);

test('Approve, Edit or Decline: the draft with three buttons, no URL; Edit by chat asks for the text, the next message resumes the run with it; Edit on the page (its text box holds the draft) resumes another with the text typed there', async () => {
	const waiting = await run(EDITED.id);
	// The test before leaves a run of the trigger's workflow (its second message): only new ones count here.
	const runsBefore = (await triggerExecutions(session, TRIGGER.id)).length;
	const [asked] = buttonSends().slice(-1);
	expect(asked.body.message).toBe(`Send this reply?\n\n${DRAFT}`);
	expect(
		(JSON.parse(String(asked.body.buttons)) as Array<{ title: string }>).map((b) => b.title),
	).toEqual(['Approve', 'Edit', 'Decline']);
	tapButton(sim.state, { phone_number: PHONE, title: 'Edit' });
	await sim.state.webhooks.idle();
	expect(textsTo(PHONE).at(-1)).toBe('Send the corrected text as your next message.');
	expect((await readExecution(n8n, session, waiting.id)).status).toBe('waiting');
	// Past the Basic Multilingual Plane on purpose (a surrogate pair in JavaScript): taken and sent whole.
	const inChat = 'Hi Ava, it ships on Wednesday 🎂';
	addMessage(sim.state, { phone_number_id: NUMBER, phone_number: PHONE, text: inChat });
	await sim.state.webhooks.idle();
	await waitFor(EDITED.id, waiting.id, 'success');
	const finished = await readExecution(n8n, session, waiting.id);
	expect(nodeOutput(finished, 'Ask')[0]).toMatchObject({
		data: { approved: true, edited: true, text: inChat, draft: DRAFT },
		recipient: { phone_number: PHONE },
		answeredIn: 'chat',
	});
	expect(await textsOnceSent(PHONE, `Sent: ${inChat}`)).toContain(`Sent: ${inChat}`);
	expect(textsTo(PHONE)).toContain('Edited and approved. Thank you, your answer was recorded.');
	expect(await triggerExecutions(session, TRIGGER.id)).toHaveLength(runsBefore);

	// On the page: the Edit button's signed link (in its id) opens a text box holding the draft; the form sent with
	// the text typed there resumes the run with it.
	const onPage = await askByWebhook(EDIT_HOOKED);
	const question = buttonSends().at(-1)!;
	expect(question.body.phone_number).toBe(HOOKED_PHONE);
	const editButton = (
		JSON.parse(String(question.body.buttons)) as Array<{ id: string; title: string }>
	).find((button) => button.title === 'Edit')!;
	const link = linkOfButtonId(editButton.id)!.url;
	expect(link.startsWith(`${n8n.url}/webhook-waiting/${onPage.id}/`)).toBe(true);
	const html = await (await fetch(link)).text();
	const form = /<form method="post">([\s\S]*?)<\/form>/.exec(html)?.[1] ?? '';
	const box = /<textarea [^>]*name="([^"]+)"[^>]*>([^<]*)<\/textarea>/.exec(form);
	expect(box?.[2]).toBe(HOOKED_DRAFT);
	const fields = new URLSearchParams(
		[...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
			([, name, value]): [string, string] => [name, value],
		),
	);
	const typed = 'Hi, your order A-2006 ships on Saturday morning.';
	fields.set(box![1], typed);
	expect((await readExecution(n8n, session, onPage.id)).status).toBe('waiting');
	const sent = await fetch(link, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: fields.toString(),
	});
	expect(sent.status).toBe(200);
	expect(await sent.text()).toContain('Edited and approved. Your answer was recorded.');
	await waitFor(EDIT_HOOKED.workflow.id, onPage.id, 'success');
	expect(nodeOutput(await readExecution(n8n, session, onPage.id), 'Ask')[0]).toMatchObject({
		data: { approved: true, edited: true, text: typed, draft: HOOKED_DRAFT },
		recipient: { phone_number: HOOKED_PHONE },
		answeredIn: 'link',
	});
	expect(await textsOnceSent(HOOKED_PHONE, `Sent: ${typed}`)).toEqual([`Sent: ${typed}`]);
}, 180_000);

test('an n8n restart between the question and the tap, and between an Edit tap and the text: the tap, and the text, still resume their executions (nothing kept in memory)', async () => {
	const waiting = await run(APPROVAL.id);
	// Another person taps Edit on an Approve, Edit or Decline question before the restart, and writes after it.
	const editing = await askByWebhook(EDIT_HOOKED);
	tapButton(sim.state, { phone_number: HOOKED_PHONE, title: 'Edit' });
	await sim.state.webhooks.idle();
	expect(textsTo(HOOKED_PHONE).at(-1)).toBe(PROMPT);
	const runsBefore = (await triggerExecutions(session, TRIGGER.id)).length;
	await server.stop();
	server = await start(n8n);
	session = new Session(n8n.url);
	await session.login();
	await waitForProductionWebhook(n8n, TRIGGER_OPTIONS.webhookId);
	expect((await readExecution(n8n, session, waiting.id)).status).toBe('waiting');
	expect((await readExecution(n8n, session, editing.id)).status).toBe('waiting');
	tapButton(sim.state, { phone_number: PHONE, title: 'Confirm' });
	await sim.state.webhooks.idle();
	await waitFor(APPROVAL.id, waiting.id, 'success');
	const finished = await readExecution(n8n, session, waiting.id);
	expect(nodeOutput(finished, 'Ask')[0]).toMatchObject({
		data: { approved: true },
		answeredIn: 'chat',
	});
	expect(nodeOutput(finished, 'Confirm')).toHaveLength(1);

	const corrected = 'Hi, your order A-2006 ships on Friday, before noon.';
	addMessage(sim.state, { phone_number_id: NUMBER, phone_number: HOOKED_PHONE, text: corrected });
	await sim.state.webhooks.idle();
	await waitFor(EDIT_HOOKED.workflow.id, editing.id, 'success');
	expect(nodeOutput(await readExecution(n8n, session, editing.id), 'Ask')[0]).toMatchObject({
		data: { approved: true, edited: true, text: corrected, draft: HOOKED_DRAFT },
		recipient: { phone_number: HOOKED_PHONE },
		answeredIn: 'chat',
	});
	expect(await textsOnceSent(HOOKED_PHONE, `Sent: ${corrected}`)).toContain(`Sent: ${corrected}`);
	expect(await triggerExecutions(session, TRIGGER.id)).toHaveLength(runsBefore);
}, 240_000);

test('a tap after the wait\'s limit: "expired" in the chat, nothing resumed, no run started; an Edit tap with no text before the limit ends timed out, and the text after it is told "expired"', async () => {
	// Asked first, with a limit of its own: its person taps Edit in time and writes nothing before the limit.
	const editing = await askByWebhook(EDIT_EXPIRING);
	tapButton(sim.state, { phone_number: LATE_PHONE, title: 'Edit' });
	await sim.state.webhooks.idle();
	expect(textsTo(LATE_PHONE)).toEqual([PROMPT]);
	const waiting = await run(EXPIRING.id);
	const before = (await triggerExecutions(session, TRIGGER.id)).length;
	await sleep(4_000);
	tapButton(sim.state, { phone_number: PHONE, title: 'Approve' });
	await sim.state.webhooks.idle();
	expect(textsTo(PHONE).at(-1)).toBe('This question has expired: your answer was not recorded.');
	expect(sim.state.webhooks.deliveries.at(-1)?.answer).toContain('"sendAndWait":"expired"');
	expect(await triggerExecutions(session, TRIGGER.id)).toHaveLength(before);
	// n8n ends the wait itself (Limit Wait Time): the run goes on timed out, not approved.
	await waitFor(EXPIRING.id, waiting.id, 'success', 120_000);
	const finished = await readExecution(n8n, session, waiting.id);
	expect(nodeOutput(finished, 'Ask')[0]).toMatchObject({
		data: { timedOut: true, approved: false },
	});

	// The Edit tapped, no text before the limit: the run goes on as the limit says (the Hold branch).
	await waitFor(EDIT_EXPIRING.workflow.id, editing.id, 'success', 120_000);
	const timedOut = await readExecution(n8n, session, editing.id);
	expect(nodeOutput(timedOut, 'Ask')[0]).toMatchObject({
		data: { timedOut: true, approved: false, edited: false, text: null, draft: LATE_DRAFT },
	});
	expect(nodeOutput(timedOut, 'Hold')).toHaveLength(1);
	// The text after the limit: told it expired, nothing resumed (the run is over), no run started.
	addMessage(sim.state, {
		phone_number_id: NUMBER,
		phone_number: LATE_PHONE,
		text: 'Hi, your order ships on Tuesday.',
	});
	await sim.state.webhooks.idle();
	expect(textsTo(LATE_PHONE).at(-1)).toBe(
		'This question has expired: your answer was not recorded.',
	);
	expect(sim.state.webhooks.deliveries.at(-1)?.answer).toContain('"sendAndWait":"expired"');
	expect(await triggerExecutions(session, TRIGGER.id)).toHaveLength(before);
	const after = await readExecution(n8n, session, editing.id);
	expect(after.data.resultData.runData.Ask).toHaveLength(1);
	expect(Object.keys(after.data.resultData.runData)).not.toContain('Confirm');
}, 240_000);

test('two recipients, the first answer wins: the second number taps first and resumes it; the first is told it was already answered', async () => {
	const waiting = await run(MANY.id);
	const asked = buttonSends().slice(-2);
	expect(asked.map((request) => request.body.phone_number)).toEqual([PHONE, OTHER_PHONE]);
	tapButton(sim.state, { phone_number: OTHER_PHONE, title: 'Hold' });
	await sim.state.webhooks.idle();
	await waitFor(MANY.id, waiting.id, 'success');
	const finished = await readExecution(n8n, session, waiting.id);
	expect(nodeOutput(finished, 'Ask')[0]).toMatchObject({
		data: { approved: false },
		recipient: { phone_number: OTHER_PHONE },
		answeredIn: 'chat',
	});
	tapButton(sim.state, { phone_number: PHONE, title: 'Confirm' });
	await sim.state.webhooks.idle();
	expect(textsTo(PHONE).at(-1)).toMatch(
		new RegExp(`^This question was already answered by .+ \\(\\+${OTHER_PHONE}\\) on .+ UTC\\.`),
	);
	const again = await readExecution(n8n, session, waiting.id);
	expect(Object.keys(again.data.resultData.runData)).not.toContain('Confirm');
}, 120_000);

HUMAN_REVIEW(
	'AI Agent Human review in the chat: the gated send goes out once, only after the owner taps Allow',
	async () => {
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
		const toCustomer = () => textsTo(CUSTOMER_PHONE).filter((text) => text === CUSTOMER_TEXT);
		const waiting = await run(REVIEWED.id);
		const [question] = buttonSends().filter((request) => request.body.phone_number === OWNER_PHONE);
		expect(String(question.body.message)).toContain(
			`The agent wants to run this tool: ${GATED_TOOL}`,
		);
		expect(
			(JSON.parse(String(question.body.buttons)) as Array<{ title: string }>).map(
				(button) => button.title,
			),
		).toEqual(['Allow', 'Refuse']);
		expect(toCustomer()).toEqual([]);
		tapButton(sim.state, { phone_number: OWNER_PHONE, title: 'Allow' });
		await sim.state.webhooks.idle();
		await waitFor(REVIEWED.id, waiting.id, 'success', 90_000);
		await sleep(500);
		expect(toCustomer()).toEqual([CUSTOMER_TEXT]);
		expect(textsTo(OWNER_PHONE).at(-1)).toBe('Allowed. Thank you, your answer was recorded.');
	},
	180_000,
);

test(`the polling trigger (New Message, every minute) in another workflow takes the tap one poll later: resumed, no run started (${POLL_ANSWERS} answer(s) timed)`, async () => {
	// Only the poll sees the messages here: the platform posts no webhook.
	sim.state.webhooks.configure(NUMBER, { urls: {} });
	const seen = sim.requests.length;
	const webhookRuns = (await triggerExecutions(session, TRIGGER.id)).length;
	await publish(session, POLL_TRIGGER.id);
	try {
		// Activation polls at once and sets the cursor (messages before it are history).
		const polledBy = Date.now() + 60_000;
		while (sim.requests.length === seen && Date.now() < polledBy) await sleep(200);
		expect(sim.requests.length).toBeGreaterThan(seen);
		await sleep(2000);
		const delays: number[] = [];
		for (let round = 0; round < POLL_ANSWERS; round++) {
			const waiting = await run(APPROVAL.id);
			const confirmed = textsTo(PHONE).filter((text) => text === 'Order A-2001 confirmed.').length;
			const tappedAt = Date.now();
			tapButton(sim.state, { phone_number: PHONE, title: 'Confirm' });
			const deadline = Date.now() + 150_000;
			while (
				textsTo(PHONE).filter((text) => text === 'Order A-2001 confirmed.').length === confirmed
			) {
				if (Date.now() > deadline) throw new Error('the poll did not resume the execution');
				await sleep(100);
			}
			delays.push(Date.now() - tappedAt);
			await waitFor(APPROVAL.id, waiting.id, 'success');
			const finished = await readExecution(n8n, session, waiting.id);
			expect(nodeOutput(finished, 'Ask')[0]).toMatchObject({
				data: { approved: true },
				answer: 'Confirm',
				recipient: { phone_number: PHONE },
				answeredIn: 'chat',
			});
			expect(nodeOutput(finished, 'Confirm')).toHaveLength(1);
		}
		// One more poll after the last answer: the tap was taken, so no run of the trigger's workflow ever started.
		await sleep(65_000);
		expect(await triggerExecutions(session, POLL_TRIGGER.id)).toEqual([]);
		expect(await triggerExecutions(session, TRIGGER.id)).toHaveLength(webhookRuns);
		process.stdout.write(
			`BENCH poll answers (n=${delays.length}): tap → resumed run's next send ${delays.map((ms) => `${ms} ms`).join(', ')}\n`,
		);
	} finally {
		await unpublish(session, POLL_TRIGGER.id);
		sim.state.webhooks.configure(NUMBER, {
			urls: { incoming_message: productionUrl(n8n, TRIGGER_OPTIONS.webhookId, SECRET) },
		});
	}
}, 600_000);

/**
 * One bench: `rounds` questions of `bench`'s workflow, each answered by `answer` (which returns the resumed run's
 * next send it waits for, and when the timed answer went out); the first 3 rounds warm n8n up and are not counted.
 */
async function benchAnswers(
	label: string,
	{ workflow, path }: ReturnType<typeof benchWorkflow>,
	rounds: number,
	answer: (round: number) => Promise<{ expected: string; answeredAt: number }>,
) {
	await publish(session, workflow.id);
	const sends = () => sim.requests.filter((request) => request.body.phone_number === BENCH_PHONE);
	const times: number[] = [];
	for (let round = 0; round < rounds + 3; round++) {
		const seen = sends().length;
		await startByWebhook(path);
		await benchUntil(() => sends().length > seen);
		const deadline = Date.now() + 30_000;
		while (!(await executionsOf(workflow.id)).some((execution) => execution.status === 'waiting')) {
			if (Date.now() > deadline) throw new Error('no waiting bench execution');
			await sleep(20);
		}
		const asked = sends().length;
		const { expected, answeredAt } = await answer(round);
		await benchUntil(() =>
			sends()
				.slice(asked)
				.some((request) => request.body.message === expected),
		);
		if (round >= 3) times.push(performance.now() - answeredAt);
		await sim.state.webhooks.idle();
	}
	const sorted = [...times].sort((a, b) => a - b);
	const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
	process.stdout.write(
		`BENCH ${label} (n=${times.length}): p50 ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms\n`,
	);
	expect(times).toHaveLength(rounds);
}

async function benchUntil(check: () => boolean, timeoutMs = 30_000) {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline) throw new Error('bench round timed out');
		await sleep(5);
	}
}

if (BENCH_ROUNDS)
	test(`bench: tap → the resumed run's next send, over ${BENCH_ROUNDS} answers`, async () => {
		await benchAnswers(
			"chat answers: tap → resumed run's next send",
			BENCHED,
			BENCH_ROUNDS,
			async () => {
				const answeredAt = performance.now();
				tapButton(sim.state, { phone_number: BENCH_PHONE, title: 'Approve' });
				return { expected: 'Bench confirmed.', answeredAt };
			},
		);
	}, 600_000);

if (BENCH_EDITS)
	test(`bench: Edit, then the text → the resumed run's next send, over ${BENCH_EDITS} edits`, async () => {
		const prompts = () =>
			textsTo(BENCH_PHONE).filter(
				(text) => text === 'Send the corrected text as your next message.',
			).length;
		await benchAnswers(
			"chat edits: the edited text → resumed run's next send",
			BENCHED_EDITS,
			BENCH_EDITS,
			async (round) => {
				const before = prompts();
				tapButton(sim.state, { phone_number: BENCH_PHONE, title: 'Edit' });
				await benchUntil(() => prompts() > before);
				const text = `Bench text ${round}`;
				const answeredAt = performance.now();
				addMessage(sim.state, { phone_number_id: NUMBER, phone_number: BENCH_PHONE, text });
				return { expected: `Bench edited: ${text}`, answeredAt };
			},
		);
	}, 600_000);
