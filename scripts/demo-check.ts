/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- a command-line check run with tsx (it runs the demo and a browser), not node code */
/**
 * `npm run test:demo`: the demo as a user meets it, end to end (issue 44), on ports of its own:
 * - the customer's phone page alone (scripts/phone-check.ts);
 * - `npm run demo -- --reset` starts; a workflow created through n8n's REST API; Get Window Status in n8n for a
 *   customer inside and one outside the 24-hour window; the phone page in headless Chromium: a customer writes and
 *   the published webhook workflow's reply appears;
 * - a second demo on a clashing port set (the same editor port; the first's task runner broker port) refuses
 *   without touching the first (still answering, its lock file unchanged);
 * - examples/order-approval.json run as the editor's Execute Workflow does; a tap on Confirm on the owner's phone page resumes it
 *   (answeredIn: "chat"), the tap starts no run, and the customer's phone shows the confirmation (issue 51);
 * - the AI receptionist example, published on the simulator's second number with the model stand-in's credential:
 *   a customer's question on the phone page is answered through the stand-in; after a person of the team writes, the
 *   customer's next message gets no answer (issue 51);
 * - the AI-draft approval example, published on the demo's third number: a customer writes on the phone page, the
 *   manager's phone shows the stand-in's draft with Approve, Edit and Decline (no URL); a tap on Approve and the
 *   customer receives exactly the draft; a second customer, a tap on Edit and the manager's corrected text, and the
 *   customer receives exactly that text; no tap or text of the manager starts a run (issue 53);
 * - the user sets another Secret on the demo trigger; the demo stopped and started again (no --reset): the workflow
 *   is still there, the examples not re-imported, the earlier thread still on the phone page, and a customer's new
 *   message answered (the simulator follows the saved Secret: no 401).
 * Prints each phase's time; fails with one line naming what went wrong (and the demo's log).
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, chromiumPath } from '../test/e2e/editor';
import {
	activateWorkflow,
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	instance,
	nodeOutput,
	PACKAGE_NAME,
	provision,
	readExecution,
	ROOT,
	Session,
} from '../test/e2e/n8n';
import { executionsOf } from '../test/webhookTrigger/realN8n';
import { callControl } from '../test/simulator/control';
import { DRAFT_MANAGER, DRAFT_NUMBER } from '../test/simulator/demoWorld';
import { draftAnswer } from '../test/simulator/model';
import type { PhoneMessage } from '../test/simulator/phone';
import { phoneCheck, writeAsCustomer } from './phone-check';

const started = Date.now();
let phaseStarted = Date.now();
const say = (text: string) => process.stdout.write(`${text}\n`);

function phase(name: string) {
	phaseStarted = Date.now();
	say(`test:demo: ${name} …`);
}
function done(detail = '') {
	say(
		`test:demo:   done in ${((Date.now() - phaseStarted) / 1000).toFixed(1)} s${detail ? ` (${detail})` : ''}`,
	);
}

class CheckFailed extends Error {}
function check(condition: unknown, what: string): asserts condition {
	if (!condition) throw new CheckFailed(what);
}

async function free(port: number): Promise<boolean> {
	return await new Promise<boolean>((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(false));
		server.listen({ port, exclusive: true }, () => server.close(() => resolve(true)));
	});
}

/** An editor port whose successor (the task runner broker) is free too, and a simulator port. */
async function portSet(): Promise<{ port: number; simulatorPort: number }> {
	for (;;) {
		const port = 21000 + 2 * Math.floor(Math.random() * 9000);
		const simulatorPort = port + 2;
		if ((await free(port)) && (await free(port + 1)) && (await free(simulatorPort)))
			return { port, simulatorPort };
	}
}

interface Demo {
	child: ChildProcess;
	log(): string;
	exited: Promise<number>;
}

/** `npm run demo` as a user starts it (tsx in this process's Node), its output collected. */
function startDemo(args: string[]): Demo {
	const child = spawn(
		process.execPath,
		['--import', 'tsx', join(ROOT, 'scripts', 'demo.ts'), ...args],
		{ cwd: ROOT, env: { ...process.env, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let output = '';
	child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<number>((resolve) =>
		child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1))),
	);
	return { child, log: () => output, exited };
}

/** A ceiling for a demo that hangs, not a speed check: on a loaded machine n8n's first start has taken 280 s. */
const READY_WITHIN_MS = 600_000;

async function ready(demo: Demo, timeoutMs = READY_WITHIN_MS): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!demo.log().includes('Press Ctrl-C to stop.')) {
		if (demo.child.exitCode !== null)
			throw new CheckFailed(`the demo exited with ${demo.child.exitCode} before it was ready`);
		if (Date.now() > deadline)
			throw new CheckFailed(`the demo was not ready within ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

async function stop(demo: Demo): Promise<number> {
	if (demo.child.exitCode === null) demo.child.kill('SIGINT');
	const timer = setTimeout(() => demo.child.kill('SIGKILL'), 30_000);
	const code = await demo.exited;
	clearTimeout(timer);
	return code;
}

/** A workflow: GET /webhook/demo-check-window?phone=… → Subscriber → Get Window Status → its output. */
function windowWorkflow(phoneNumberId: string) {
	const credentials = { botSailorApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };
	return {
		name: 'demo-check: window status',
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'demo-check-hook',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: 'demo-check-window',
				parameters: { httpMethod: 'GET', path: 'demo-check-window', responseMode: 'lastNode' },
			},
			{
				id: 'demo-check-window',
				name: 'Window',
				type: `${PACKAGE_NAME}.botSailor`,
				typeVersion: 1,
				position: [240, 0],
				parameters: {
					resource: 'subscriber',
					operation: 'getWindowStatus',
					phoneNumberId: { __rl: true, mode: 'id', value: phoneNumberId },
					subscriber: { __rl: true, mode: 'phone', value: '={{ $json.query.phone }}' },
				},
				credentials,
			},
		],
		connections: { Webhook: { main: [[{ node: 'Window', type: 'main', index: 0 }]] } },
	};
}

let current: Demo | undefined;

/** Waits until the workflow's newest execution has `status` (n8n's REST API), and answers its id. */
async function executionWith(
	session: Session,
	workflowId: string,
	status: string,
): Promise<string> {
	const deadline = Date.now() + 90_000;
	for (;;) {
		// n8n answers 503 "Database is not ready!" while its database health check lags (seen at load 25 on 2 cores).
		const listed = await executionsOf(session, workflowId).catch((error: Error) => {
			if (/HTTP 503/.test(error.message)) return [];
			throw error;
		});
		const [newest] = listed.sort((a, b) => Number(b.id) - Number(a.id));
		if (newest?.status === status) return newest.id;
		if (Date.now() > deadline)
			throw new CheckFailed(
				`${workflowId}: no execution reached "${status}" (newest: ${JSON.stringify(newest)})`,
			);
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
}

/** The first WhatsApp number (the demo workflow's), the second (the AI receptionist's), the third (the AI draft's). */
const NUMBER = '104382179270221';
const AI_NUMBER = '104382179270999';
const DRAFT_NUMBER_ID = DRAFT_NUMBER.phone_number_id;

/** Polls until `found` answers something; fails naming `what`. */
async function eventually<T>(
	what: string,
	found: () => Promise<T | undefined>,
	timeoutMs = 60_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await found();
		if (value !== undefined) return value;
		if (Date.now() > deadline)
			throw new CheckFailed(`timed out after ${timeoutMs / 1000} s: ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** Waits until the workflow has an execution newer than `after` that finished (not running or waiting); its id. */
async function nextFinished(
	session: Session,
	workflowId: string,
	after: number,
	timeoutMs = 150_000,
): Promise<{ id: string; status: string }> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const listed = await executionsOf(session, workflowId).catch((error: Error) => {
			if (/HTTP 503/.test(error.message)) return [];
			throw error;
		});
		const [newest] = listed
			.filter((execution) => Number(execution.id) > after)
			.sort((a, b) => Number(b.id) - Number(a.id));
		if (newest && !['new', 'running', 'waiting'].includes(newest.status)) return newest;
		if (Date.now() > deadline)
			throw new CheckFailed(
				`${workflowId}: no execution after ${after} finished (newest: ${JSON.stringify(newest)})`,
			);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** The id of the workflow's newest execution, 0 when none. */
async function newestExecution(session: Session, workflowId: string): Promise<number> {
	return Math.max(0, ...(await executionsOf(session, workflowId)).map((row) => Number(row.id)));
}

/** A customer's phone page, open on one customer of one WhatsApp number. */
async function phoneOf(
	browser: Browser,
	simulator: string,
	phone: string,
	number = NUMBER,
): Promise<Page> {
	const page = await browser.newPage({ viewport: { width: 820, height: 840 } });
	await page.goto(`${simulator}/phone?phone=${phone}&number=${number}`);
	await page.locator('#customers li.selected').waitFor({ timeout: 10_000 });
	return page;
}

async function main() {
	if (!chromiumPath())
		throw new CheckFailed(
			`no Chromium at ${CHROMIUM_PATH}: apt-get install chromium, or set CHROMIUM_PATH`,
		);
	// Built once, and only when the sources changed (CI has built it already; another suite may be packing it).
	phase('building the package once, if stale (the demos below run with --no-build)');
	execFileSync('bash', [join(ROOT, 'scripts', 'build-if-stale.sh')], { cwd: ROOT, stdio: 'pipe' });
	done();

	phase("the customer's phone page alone (simulator + headless Chromium)");
	const screenshot = await phoneCheck();
	done(`screenshot ${screenshot}`);

	const { port, simulatorPort } = await portSet();
	const args = ['--port', String(port), '--simulator-port', String(simulatorPort), '--no-build'];
	phase(
		`demo start with --reset on ports ${port} (broker ${port + 1}), simulator ${simulatorPort}`,
	);
	current = startDemo([...args, '--reset']);
	await ready(current);
	check(/--reset: |n8n is ready/.test(current.log()), 'the demo says it is ready');
	const editor = `http://localhost:${port}`;
	const simulator = `http://127.0.0.1:${simulatorPort}`;
	check(current.log().includes(`${simulator}/phone`), 'the ready message links the phone page');
	check(
		/open for Ava Smith/.test(current.log()) && /closed for .*Daniel Müller/.test(current.log()),
		'the ready message names customers inside and outside the window',
	);
	done();

	phase('a workflow created through the REST API; Get Window Status inside and outside the window');
	const session = new Session(editor);
	await session.login();
	const kept = await session.request<{ id: string }>('POST', '/workflows', {
		name: 'demo-check: kept between runs',
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'kept-trigger',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
		],
		connections: {},
	});
	check(kept.id, 'POST /rest/workflows answered an id');
	const windowFlow = await session.request<{ id: string }>(
		'POST',
		'/workflows',
		windowWorkflow('104382179270221'),
	);
	await activateWorkflow(session, windowFlow.id);
	const windowOf = async (phone: string) => {
		for (let attempt = 0; ; attempt++) {
			const response = await fetch(`${editor}/webhook/demo-check-window?phone=${phone}`);
			if (response.ok) return (await response.json()) as { window_open: boolean };
			if (attempt > 40)
				throw new CheckFailed(
					`Get Window Status for ${phone}: HTTP ${response.status} ${await response.text()}`,
				);
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	};
	const inside = await windowOf('15550100001');
	const outside = await windowOf('15550100004');
	check(inside.window_open === true, `Ava (inside) window_open: ${JSON.stringify(inside)}`);
	check(
		outside.window_open === false,
		`Daniel Müller (outside) window_open: ${JSON.stringify(outside)}`,
	);
	done('15550100001 open, 15550100004 closed');

	phase("the phone page: a customer writes, the published webhook workflow's reply appears");
	const browser = await chromium.launch({
		executablePath: chromiumPath() ?? CHROMIUM_PATH,
		args: CHROMIUM_FLAGS,
	});
	try {
		const page = await phoneOf(browser, simulator, '15550100002');
		await writeAsCustomer(
			page,
			'Is the bakery open on Sunday?',
			'This reply comes from the n8n workflow',
			60_000,
		);
		const reply = await page
			.locator('.msg.business .bubble', { hasText: 'Is the bakery open on Sunday?' })
			.last()
			.textContent();
		check(reply?.includes('Hi Ben'), `the reply greets the customer: ${reply}`);
		done();

		phase(
			'examples/order-approval.json: Execute Workflow, then a tap on Confirm on the owner’s phone resumes it',
		);
		// What the editor's Execute Workflow button sends (n8n 2.41: POST /rest/workflows/:id/run from a trigger).
		const run = await session.request<{ executionId?: string }>(
			'POST',
			'/workflows/bsExOrderApproval/run',
			{ triggerToStartFrom: { name: 'Test With Sample Data' } },
		);
		const waiting = await executionWith(session, 'bsExOrderApproval', 'waiting');
		check(
			waiting === run.executionId,
			`the run ${run.executionId} waits for the owner (waiting: ${waiting})`,
		);
		const owner = await phoneOf(browser, simulator, '15550100002');
		await owner.locator('.buttons button', { hasText: 'Confirm' }).last().click();
		await owner
			.locator('.msg.business .bubble', { hasText: 'your answer was recorded' })
			.last()
			.waitFor({ timeout: 60_000 });
		const finished = await executionWith(session, 'bsExOrderApproval', 'success');
		check(finished === waiting, `the waiting execution ${waiting} finished (newest: ${finished})`);
		const n8n = instance(provision(), join(ROOT, '.cache', 'demo', `port-${port}`, 'n8n'), port);
		const [answer] = nodeOutput(await readExecution(n8n, session, finished), 'Ask the Owner');
		check(
			answer?.answeredIn === 'chat' && (answer.data as { approved?: boolean }).approved === true,
			`Ask the Owner's output says approved in the chat: ${JSON.stringify(answer)}`,
		);
		check(
			(await owner.locator('.msg.business .bubble', { hasText: 'message “Confirm”' }).count()) ===
				0,
			'the tap started no run of the demo workflow (no "thanks for your message")',
		);
		const customer = await phoneOf(browser, simulator, '15550100001');
		await customer
			.locator('.msg.business .bubble', { hasText: 'Your order A-1001 is confirmed.' })
			.waitFor({ timeout: 10_000 });
	} finally {
		await browser.close();
	}
	done('resumed by the tap, answeredIn: "chat"; Ava’s phone shows the confirmation');

	phase(
		'the AI receptionist on the second number: a customer asks on the phone page, the answer comes through the model stand-in; after a person of the team writes, it stays quiet',
	);
	const receptionist = 'bsExAiReceptionist';
	// A customer of the second number that the phone page lists (its 40 most recent conversations).
	const listed = await callControl<Array<{ phone_number_id: string; phone_number: string }>>(
		{ url: simulator },
		'phone-subscribers',
		{ limit: 40 },
	);
	const aiCustomer = listed.find((entry) => entry.phone_number_id === AI_NUMBER)?.phone_number;
	check(aiCustomer, 'the phone page lists a customer of the second number');
	check(
		current.log().includes(`"phone_number":"${aiCustomer}","sender":"agent"`),
		'the ready message names that customer in its takeover curl',
	);
	const aiBrowser = await chromium.launch({
		executablePath: chromiumPath() ?? CHROMIUM_PATH,
		args: CHROMIUM_FLAGS,
	});
	try {
		const page = await phoneOf(aiBrowser, simulator, aiCustomer, AI_NUMBER);
		const before = await newestExecution(session, receptionist);
		// The stand-in's FAQ answer to opening hours, with the note every stand-in answer carries.
		await writeAsCustomer(
			page,
			'Hello! When are you open on Sunday?',
			'Sunday 8am to noon',
			150_000,
		);
		const answer = await page
			.locator('.msg.business .bubble', { hasText: 'Sunday 8am to noon' })
			.last()
			.textContent();
		check(
			answer?.includes('stand-in model'),
			`the answer says it comes from the stand-in model: ${answer}`,
		);
		const answered = await nextFinished(session, receptionist, before);
		check(answered.status === 'success', `the receptionist's run ${answered.id} succeeded`);
		// A person of the team writes from the platform's inbox (what the ready message's curl does).
		const takeover = await fetch(`${simulator}/__control/message`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				phone_number_id: AI_NUMBER,
				phone_number: aiCustomer,
				sender: 'agent',
				text: 'Hi, Sam here from the shop: I will look after you.',
			}),
		});
		check(takeover.ok, `the person's message was stored: HTTP ${takeover.status}`);
		await page
			.locator('.msg.business .bubble', { hasText: 'Sam here' })
			.waitFor({ timeout: 10_000 });
		const businessBefore = await page.locator('.msg.business').count();
		await writeAsCustomer(page, 'Do you deliver?');
		const quiet = await nextFinished(session, receptionist, Number(answered.id));
		check(
			quiet.status === 'success',
			`the receptionist's run ${quiet.id} after the takeover succeeded`,
		);
		await new Promise((resolve) => setTimeout(resolve, 2000)); // the page polls the conversation
		check(
			(await page.locator('.msg.business').count()) === businessBefore,
			`nothing was sent after the person took over (run ${quiet.id})`,
		);
	} finally {
		await aiBrowser.close();
	}
	done('answered through the stand-in; quiet after a takeover');

	phase(
		'the AI-draft approval on the third number: a customer writes, the manager taps Approve and the customer receives exactly the draft; another writes, the manager taps Edit and writes, and the customer receives exactly that text',
	);
	const drafts = 'bsExAiDraftApproval';
	check(
		current.log().includes(`AI draft, a person approves (${DRAFT_NUMBER.display_phone_number}`) &&
			current.log().includes(`manager Ben Garcia (+${DRAFT_MANAGER})`),
		'the ready message tells how to try the AI draft on the third number',
	);
	/** What the simulator recorded as sent to a subscriber of the third number (the business's messages). */
	const sentTo = async (phone: string) =>
		(
			await callControl<{ messages: PhoneMessage[] }>({ url: simulator }, 'phone-conversation', {
				phone_number_id: DRAFT_NUMBER_ID,
				phone_number: phone,
			})
		).messages.filter((message) => message.from === 'business');
	/** The manager's newest message that quotes the customer's text (the question), and the run that waits for it. */
	const questionAbout = async (text: string) => {
		const question = await eventually(
			`the manager's question about "${text}"`,
			async () =>
				(await sentTo(DRAFT_MANAGER)).filter((message) => message.text.includes(text)).at(-1),
			150_000,
		);
		return { question, run: await executionWith(session, drafts, 'waiting') };
	};
	/** What the customer received after their first `before` messages, once the waiting run finished. */
	const receivedAfter = async (phone: string, before: number, run: string) => {
		const finished = await eventually(
			`the AI-draft run ${run} to finish`,
			async () =>
				(await executionsOf(session, drafts)).find(
					(execution) =>
						execution.id === run && !['new', 'running', 'waiting'].includes(execution.status),
				),
			120_000,
		);
		check(finished.status === 'success', `the AI-draft run ${run} succeeded: ${finished.status}`);
		return (await sentTo(phone)).slice(before).map((message) => message.text);
	};
	const draftBrowser = await chromium.launch({
		executablePath: chromiumPath() ?? CHROMIUM_PATH,
		args: CHROMIUM_FLAGS,
	});
	let draftTimes = '';
	try {
		const manager = await phoneOf(draftBrowser, simulator, DRAFT_MANAGER, DRAFT_NUMBER_ID);
		/** A tap on a button of the question that quotes `text`, on the manager's phone page. */
		const tap = async (text: string, title: string) =>
			await manager
				.locator('.msg.business', { hasText: text })
				.last()
				.locator('.buttons button', { hasText: title })
				.click({ timeout: 15_000 });

		// Approve: Ava writes; the draft is the stand-in's for her words (test/simulator/model.ts draftAnswer).
		let at = Date.now();
		const before = await newestExecution(session, drafts);
		const ava = '15550100001';
		const avaPage = await phoneOf(draftBrowser, simulator, ava, DRAFT_NUMBER_ID);
		const avaBefore = (await sentTo(ava)).length;
		const cake = 'Hi! Can I still order a birthday cake for Saturday?';
		const draft = draftAnswer(cake);
		await writeAsCustomer(avaPage, cake);
		const { question: asked, run: approving } = await questionAbout(cake);
		draftTimes += `question after ${((Date.now() - at) / 1000).toFixed(1)} s`;
		check(
			JSON.stringify(asked.buttons.map((button) => button.title)) ===
				JSON.stringify(['Approve', 'Edit', 'Decline']),
			`the question has Approve, Edit and Decline: ${JSON.stringify(asked.buttons)}`,
		);
		check(
			asked.text.endsWith(`\n\n${draft}`),
			`the question ends with the stand-in's draft "${draft}": ${asked.text}`,
		);
		check(
			!/https?:\/\//.test(asked.text) && asked.buttons.every((button) => !button.url),
			`the question has no URL: ${asked.text}`,
		);
		check(
			(await sentTo(ava)).length === avaBefore,
			'nothing reached the customer before the manager answered',
		);
		at = Date.now();
		await tap(cake, 'Approve');
		const approved = await receivedAfter(ava, avaBefore, approving);
		check(
			JSON.stringify(approved) === JSON.stringify([draft]),
			`after Approve the customer received exactly the draft: ${JSON.stringify(approved)}`,
		);
		await manager
			.locator('.msg.business .bubble', { hasText: 'Approved. Thank you' })
			.last()
			.waitFor({ timeout: 30_000 });
		draftTimes += `, approved draft received ${((Date.now() - at) / 1000).toFixed(1)} s after the tap`;

		// Edit: Chloe writes; the manager taps Edit, is asked for the text and writes it.
		at = Date.now();
		const chloe = '15550100003';
		const chloePage = await phoneOf(draftBrowser, simulator, chloe, DRAFT_NUMBER_ID);
		const chloeBefore = (await sentTo(chloe)).length;
		const sunday = 'Do you deliver on Sunday?';
		await writeAsCustomer(chloePage, sunday);
		const { run: editing } = await questionAbout(sunday);
		await tap(sunday, 'Edit');
		await manager
			.locator('.msg.business .bubble', {
				hasText: 'Send the corrected text as your next message.',
			})
			.last()
			.waitFor({ timeout: 30_000 });
		const corrected = 'Hi Chloe, yes: we deliver on Sundays from 9 to 12, free above 30 USD.';
		await writeAsCustomer(manager, corrected);
		const edited = await receivedAfter(chloe, chloeBefore, editing);
		check(
			JSON.stringify(edited) === JSON.stringify([corrected]),
			`after Edit the customer received exactly the manager's text: ${JSON.stringify(edited)}`,
		);
		await manager
			.locator('.msg.business .bubble', { hasText: 'Edited and approved.' })
			.last()
			.waitFor({ timeout: 30_000 });
		draftTimes += `; Edit round ${((Date.now() - at) / 1000).toFixed(1)} s`;
		// The manager's taps and text resumed the waiting runs and started none (Send and Wait Answers: Take Them).
		await new Promise((resolve) => setTimeout(resolve, 2000));
		const runs = (await executionsOf(session, drafts)).filter(
			(execution) => Number(execution.id) > before,
		);
		check(
			runs.length === 2,
			`two runs, one per customer message; the manager's taps and text started none: ${JSON.stringify(runs)}`,
		);
	} finally {
		await draftBrowser.close();
	}
	done(draftTimes);

	phase(
		'a second demo on clashing ports refuses and leaves the first alone; a wrong token is refused',
	);
	const lock = join(ROOT, '.cache', 'demo', `port-${port}`, 'demo.pid');
	const lockBefore = readFileSync(lock, 'utf8');
	const { simulatorPort: otherSimulator } = await portSet();
	for (const clash of [
		['--port', String(port), '--simulator-port', String(otherSimulator)],
		['--port', String(port + 1), '--simulator-port', String(otherSimulator)],
		['--port', String(port - 1), '--simulator-port', String(otherSimulator)],
	]) {
		const second = startDemo([...clash, '--no-build']);
		const code = await Promise.race([
			second.exited,
			new Promise<number>((resolve) => setTimeout(() => resolve(-1), 60_000)),
		]);
		if (code === -1) await stop(second);
		check(code > 0, `a second demo with ${clash.join(' ')} refused (exit ${code})`);
		check(
			/already in use/.test(second.log()) &&
				/These ports are free: npm run demo -- --port \d+/.test(second.log()),
			`the second demo (${clash.join(' ')}) names the busy port and a free set: ${second.log().trim()}`,
		);
		check(!/Provisioning|Building|Importing/.test(second.log()), 'the second demo touched nothing');
	}
	// A real account is checked like the credential test before anything starts (here the simulator, a wrong token).
	const { port: accountPort } = await portSet();
	const account = startDemo([
		'--port',
		String(accountPort),
		'--base-url',
		simulator,
		'--token',
		'not-the-token',
		'--no-build',
	]);
	const accountCode = await account.exited;
	check(
		accountCode > 0 &&
			/the credential test failed for --base-url .*Authorization failed/.test(account.log()),
		`a wrong token is refused with the credential test's message before n8n starts: ${account.log().trim()}`,
	);
	check(!/Provisioning/.test(account.log()), 'nothing started for a refused account');
	rmSync(join(ROOT, '.cache', 'demo', `port-${accountPort}`), { recursive: true, force: true });
	check(readFileSync(lock, 'utf8') === lockBefore, "the first demo's lock file is unchanged");
	check((await fetch(`${editor}/healthz`)).ok, 'the first demo still answers');
	check(current.child.exitCode === null, 'the first demo still runs');
	done();

	phase(
		'the user sets another Secret on the demo trigger; stop the demo, start it again (no --reset): the workflow, the thread and the answers are kept',
	);
	// As a user edits the trigger in the editor and saves.
	const hook = await session.request<{
		versionId: string;
		nodes: Array<{ type: string; parameters: Record<string, unknown> }>;
		connections: unknown;
	}>('GET', '/workflows/BotSailorDemoHook');
	for (const node of hook.nodes)
		if (node.type.endsWith('.botSailorWebhookTrigger'))
			node.parameters.secret = 'a-secret-the-user-chose';
	await session.request('PATCH', '/workflows/BotSailorDemoHook', {
		nodes: hook.nodes,
		connections: hook.connections,
		versionId: hook.versionId,
	});
	const code = await stop(current);
	check(code === 0, `Ctrl-C stops the demo cleanly (exit ${code})`);
	current = startDemo(args);
	await ready(current);
	check(/Workflows: .*unchanged/.test(current.log()), 'the examples were not re-imported');
	check(/the conversations of the last run/.test(current.log()), 'the simulator kept its world');
	check(
		current.log().includes('after its 10 s wait for more messages'),
		'the simulator is pointed at the published AI receptionist again',
	);
	check(
		current.log().includes('manager approves…"\n'),
		'the simulator is pointed at the published AI-draft approval again',
	);
	const again = new Session(editor);
	await again.login();
	const found = await again.request<{ name: string }>('GET', `/workflows/${kept.id}`);
	check(found.name === 'demo-check: kept between runs', 'the workflow is there after a restart');
	const afterRestart = await chromium.launch({
		executablePath: chromiumPath() ?? CHROMIUM_PATH,
		args: CHROMIUM_FLAGS,
	});
	try {
		const page = await phoneOf(afterRestart, simulator, '15550100002');
		check(
			(await page
				.locator('.msg.me .bubble', { hasText: 'Is the bakery open on Sunday?' })
				.count()) === 1,
			'the earlier thread is still on the phone page',
		);
		await writeAsCustomer(
			page,
			'Back again: do you bake rye bread?',
			'thanks for your message “Back again',
			60_000,
		);
		check(
			(await page.locator('.refused').count()) === 0,
			'no delivery refused (the new Secret was followed)',
		);
	} finally {
		await afterRestart.close();
	}
	await stop(current);
	current = undefined;
	done();

	rmSync(join(ROOT, '.cache', 'demo', `port-${port}`), { recursive: true, force: true });
	say(`test:demo: PASSED in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main().catch(async (error: Error) => {
	const log = current?.log();
	if (current) await stop(current);
	if (log) process.stderr.write(`--- the demo's output ---\n${log}\n`);
	process.stderr.write(`test:demo: FAILED: ${error.message.split('\n')[0]}\n`);
	if (!(error instanceof CheckFailed)) process.stderr.write(`${error.stack ?? ''}\n`);
	process.exit(1);
});
