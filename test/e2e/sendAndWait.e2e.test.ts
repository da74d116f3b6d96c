/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- drives a real n8n from plain Node.js, not node code */
/**
 * Message → Send and Wait for Response in a real n8n (the packed package installed as a community package,
 * `n8n start`): Manual Trigger → Send and Wait → IF → Send Text. The execution waits (status "waiting"); the
 * test takes the link from the message the simulator received, opens it as a person would (GET: the page;
 * a link preview's GET changes nothing), presses the button (POST), and the execution finishes with the answer.
 * Runs on the n8n that N8N_VERSION provisions (2.41.1 by default; 1.85.4 uses the `$execution.resumeUrl` links).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../simulator/server';
import {
	cli,
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	EXAMPLES_DIR,
	findFreePortPair,
	importCredential,
	installCommunityPackage,
	instance,
	nodeOutput,
	pack,
	PACKAGE_NAME,
	provision,
	readExecution,
	Session,
	sinceN8n,
	start,
	versionAtLeast,
	type N8nInstance,
	type Server,
} from './n8n';

const NUMBER = '104382179270221';
const PHONE = '15550100001';
const credentials = { botSailorApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };
const botSailor = (
	name: string,
	position: [number, number],
	parameters: Record<string, unknown>,
) => ({
	id: name.toLowerCase().replace(/\W+/g, '-'),
	name,
	type: `${PACKAGE_NAME}.botSailor`,
	typeVersion: 1.1,
	position,
	parameters: {
		resource: 'message',
		phoneNumberId: { __rl: true, mode: 'id', value: NUMBER },
		phoneNumber: { __rl: true, mode: 'phone', value: PHONE },
		...parameters,
	},
	credentials,
});

function workflow(id: string, ask: Record<string, unknown>, reply: string, gate = true) {
	if (!gate)
		return {
			id,
			name: `Send and Wait e2e ${id}`,
			active: false,
			nodes: [
				{
					id: 'manual',
					name: 'Manual',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				botSailor('Ask', [200, 0], { operation: 'sendAndWait', ...ask }),
				botSailor('Confirm', [400, 0], { operation: 'sendText', message: reply }),
			],
			connections: {
				Manual: { main: [[{ node: 'Ask', type: 'main', index: 0 }]] },
				Ask: { main: [[{ node: 'Confirm', type: 'main', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		};
	return {
		id,
		name: `Send and Wait e2e ${id}`,
		active: false,
		nodes: [
			{
				id: 'manual',
				name: 'Manual',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			botSailor('Ask', [200, 0], { operation: 'sendAndWait', ...ask }),
			{
				id: 'if',
				name: 'Approved?',
				type: 'n8n-nodes-base.if',
				typeVersion: 1,
				position: [400, 0],
				parameters: {
					conditions: {
						boolean: [{ value1: '={{ $json.data.approved === true }}', value2: true }],
					},
				},
			},
			botSailor('Confirm', [600, -100], { operation: 'sendText', message: reply }),
			botSailor('Hold', [600, 100], { operation: 'sendText', message: 'Order held.' }),
		],
		connections: {
			Manual: { main: [[{ node: 'Ask', type: 'main', index: 0 }]] },
			Ask: { main: [[{ node: 'Approved?', type: 'main', index: 0 }]] },
			'Approved?': {
				main: [
					[{ node: 'Confirm', type: 'main', index: 0 }],
					[{ node: 'Hold', type: 'main', index: 0 }],
				],
			},
		},
		settings: { executionOrder: 'v1' },
	};
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

let sim: Simulator;
let n8n: N8nInstance;
let work: string;
let server: Server;
let session: Session;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The texts the simulator received for the subscriber, newest last. */
function textsTo(phone: string): string[] {
	return sim.requests
		.filter((request) => request.path === '/whatsapp/send' && request.body.phone_number === phone)
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

beforeAll(async () => {
	const paths = provision();
	sim = await startSimulator();
	work = mkdtempSync(join(tmpdir(), 'botsailor-wait-e2e-'));
	n8n = instance(paths, join(work, 'user'), await findFreePortPair());
	installCommunityPackage(n8n, pack(join(work, 'pack')));
	await importCredential(n8n, { baseUrl: sim.url, apiToken: sim.token });
	const file = join(work, 'workflows.json');
	const example = JSON.parse(
		readFileSync(join(EXAMPLES_DIR, 'order-approval.json'), 'utf8'),
	) as unknown;
	writeFileSync(file, JSON.stringify([APPROVAL, FREE_TEXT, LIMITED, example]));
	const imported = await cli(n8n, ['import:workflow', `--input=${file}`]);
	if (imported.code !== 0) throw new Error(imported.stderr);
	server = await start(n8n);
	session = new Session(n8n.url);
	await session.setupOwner();
}, 600_000);

afterAll(async () => {
	await server?.stop();
	await sim?.close();
	if (work) rmSync(work, { recursive: true, force: true });
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

test('examples/order-approval.json: the owner presses Hold; the customer is told the order is on hold', async () => {
	const waiting = await run('bsExOrderApproval');
	const question = textsTo('15550100002').at(-1)!;
	expect(question).toContain(
		'New order A-1001 from Ava: 40 × Celebration cake, 2400 EUR. Confirm it?',
	);
	const hold = (question.match(/https?:\/\/\S+/g) ?? []).find((link) =>
		link.includes('approved=false'),
	)!;
	expect(question).toContain(`Hold: ${hold}`);
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
		recipient: { phone_number: '15550100002', name: 'Ben Garcia' },
	});
	expect(textsTo('15550100001').at(-1)).toBe(
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
