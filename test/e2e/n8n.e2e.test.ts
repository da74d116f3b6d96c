/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error, @n8n/community-nodes/no-dangerous-functions -- drives a real n8n and a browser from plain Node.js, not node code */
/**
 * End to end in a real n8n 2.41.1: the packed package installed as a community package, every
 * example executed with `n8n execute`, a trigger workflow activated in `n8n start`, and the
 * credential test run through n8n's REST API. The simulator runs in this process, so each check
 * also reads what the platform received and its state afterwards.
 */
import { execFileSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	globSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addMessage } from '../simulator/control';
import { startSimulator, type Simulator } from '../simulator/server';
import { newWebhookTriggerPanel, signedInEditor, withChromium } from './editor';
import {
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	EXAMPLES_DIR,
	PACKAGE_NAME,
	ROOT,
	Session,
	activateWorkflow,
	afterFirstPoll,
	findFreePortPair,
	deactivateWorkflow,
	execute,
	importCredential,
	importWorkflows,
	installCommunityPackage,
	installedN8nVersion,
	instance,
	nodeOutput,
	pack,
	provision,
	readWorkflows,
	sinceN8n,
	versionAtLeast,
	type IRun,
	type N8nInstance,
	type Server,
	startWithOwner,
} from './n8n';
import { AVA, BEN, CHLOE, NUMBER, seededPhone } from '../harness/params';

let sim: Simulator;
let n8n: N8nInstance;
let work: string;

/** What each executable example must do: its output and what the platform received. */
const checks: Record<string, (run: IRun) => void> = {
	bsExWelcome: (run) => {
		expect(nodeOutput(run, 'Send Welcome Template')).toEqual([
			expect.objectContaining({ success: true, wa_message_id: expect.any(String) }),
		]);
		expect(nodeOutput(run, 'Add New Lead Label')).toEqual([
			expect.objectContaining({ success: true }),
		]);
		const template = sim.requests.find((request) => request.path === '/whatsapp/send/template');
		expect(template?.body).toEqual({
			phone_number_id: NUMBER,
			phone_number: AVA,
			template_id: '900000',
			'templateVariable-first_name-1': 'Ava',
			'templateVariable-discount-2': '10%',
		});
		expect(sim.state.subscriber(NUMBER, AVA)?.label_ids).toContain(32);
	},
	bsExKeywords: (run) => {
		expect(nodeOutput(run, 'Route by Keyword', 0)).toHaveLength(2);
		expect(nodeOutput(run, 'Route by Keyword', 1)).toHaveLength(1);
		// Ava wrote a minute ago: her buttons went out. Chloe last wrote 30 hours ago: the platform refused the
		// buttons, and Send a Template Instead sent welcome_offer with her first name.
		expect(nodeOutput(run, 'Send Size Buttons')).toEqual([
			expect.objectContaining({ success: true, sent_as: 'buttons', phone_number: AVA }),
			expect.objectContaining({ success: true, sent_as: 'template', phone_number: CHLOE }),
		]);
		const samples = [AVA, CHLOE];
		const buttons = sim.requests.filter(
			(request) =>
				request.path === '/whatsapp/send/interactive-buttons' &&
				samples.includes(String(request.body.phone_number)),
		);
		expect(buttons.map((request) => request.body.phone_number)).toEqual([AVA, CHLOE]);
		expect(JSON.parse(String(buttons[0].body.buttons))).toHaveLength(3);
		const templates = sim.requests.filter(
			(request) =>
				request.path === '/whatsapp/send/template' && request.body.phone_number === CHLOE,
		);
		expect(templates.map((request) => request.body)).toEqual([
			{
				phone_number_id: NUMBER,
				phone_number: CHLOE,
				template_id: '900000',
				'templateVariable-first_name-1': 'Chloe',
				'templateVariable-discount-2': '10%',
			},
		]);
		const sentToChloe = sim.state.messages.filter(
			(message) =>
				message.whatsapp_bot_subscriber_subscriber_id === CHLOE &&
				message.message_status === 'sent',
		);
		expect(sentToChloe.map((message) => JSON.parse(message.message_content).type)).toEqual([
			'template',
		]);
		const fields = sim.requests.find(
			(request) => request.path === '/whatsapp/subscriber/chat/assign-custom-fields',
		);
		expect(fields?.body).toEqual({
			phone_number_id: NUMBER,
			phone_number: BEN,
			custom_fields: '{"city":"Paris"}',
		});
		expect(sim.state.subscriber(NUMBER, BEN)?.custom_fields).toEqual(
			expect.objectContaining({ city: 'Paris' }),
		);
		const deal = sim.requests.find((request) => request.path === '/whatsapp/subscriber/crm/update');
		expect(deal?.body).toEqual(
			expect.objectContaining({
				phone_number: BEN,
				title: 'WhatsApp order from Ben Garcia',
				value: '35',
				lead_score: 'hot',
			}),
		);
		expect(nodeOutput(run, 'Open CRM Deal')).toEqual([expect.objectContaining({ success: true })]);
	},
	bsExSendFile: (run) => {
		expect(nodeOutput(run, 'Send Menu as Document')).toEqual([
			expect.objectContaining({ success: true, wa_message_id: expect.any(String) }),
		]);
		const upload = sim.requests.find((request) => request.path === '/whatsapp/upload/media');
		expect(upload?.files.media_file).toEqual(
			expect.objectContaining({ name: 'menu.txt', type: 'text/plain', size: 77 }),
		);
		const send = sim.requests.find((request) => request.path === '/whatsapp/send/file');
		expect(send?.body).toEqual(
			expect.objectContaining({
				phone_number: AVA,
				media_type: 'document',
				media_name: 'menu.txt',
				media_caption_text: "Today's menu",
			}),
		);
		expect(send?.body.media_id).toEqual(expect.any(String));
	},
	bsExOrders: (run) => {
		expect(nodeOutput(run, 'Approve Order')).toEqual([expect.objectContaining({ success: true })]);
		expect(
			sim.requests.find((request) => request.path === '/whatsapp/catalog/order/status-change')
				?.body,
		).toEqual({ order_unique_id: 'ORD-1001', cart_status: 'Approved' });
		expect(
			sim.state.orders.find((order) => order.order_unique_id === 'ORD-1001')?.cart_status_raw,
		).toBe('Approved');
		const text = sim.requests.find((request) => request.path === '/whatsapp/send');
		expect(text?.body).toEqual({
			phone_number_id: NUMBER,
			phone_number: AVA,
			message: 'Thank you Ava! Your order ORD-1001 (13.5 USD) is confirmed.',
		});
	},
	bsExReseller: (run) => {
		const [login] = nodeOutput(run, 'Create User With Login Link');
		expect(login).toEqual(
			expect.objectContaining({
				email: 'new.client@agency.example',
				direct_login_url: expect.stringMatching(/^https:\/\//),
			}),
		);
		const [user] = nodeOutput(run, 'Get the New User');
		expect(user.package_id).toBe(1);
		expect(nodeOutput(run, 'Give Extra Subscribers Addon')).toEqual([
			expect.objectContaining({ success: true }),
		]);
		expect(sim.requests.find((request) => request.path === '/user/addon/assign')?.body).toEqual({
			user_id: String(user.user_id),
			addon_id: '1',
			expired_date: '2027-12-31',
		});
		expect(
			sim.state.purchases.some(
				(purchase) => purchase.user_id === user.user_id && purchase.addon_id === 1,
			),
		).toBe(true);
	},
};

/** What the platform must look like before an example runs (undone after it). */
const setups: Record<string, () => void> = {
	// The 24-hour window enforced on a clock at now: Ava wrote a minute ago, Chloe 30 hours ago.
	bsExKeywords: () => {
		sim.state.sessionWindow = 'enforced';
		sim.state.clock = Date.now();
		addMessage(sim.state, { phone_number_id: NUMBER, phone_number: AVA, text: 'Hi!' });
		sim.state.clock = Date.now() - 30 * 3_600_000;
		addMessage(sim.state, { phone_number_id: NUMBER, phone_number: CHLOE, text: 'Hello' });
		sim.state.clock = Date.now();
	},
};

/** Examples that cannot run headless here, and why (each is still imported and loaded by n8n). */
const notExecutable: Record<string, string> = {
	bsExAiAgent:
		'starts from a Chat Trigger: run for real under AI Agent 3.1 and 2.2 in aiAgent.e2e.test.ts',
	bsExAiDraftApproval:
		'starts from the Webhook Trigger and an AI Agent, then waits for the manager: run for real (approve, edit, decline) in aiDraftApproval.e2e.test.ts',
	bsExAiReceptionist:
		'starts from the Webhook Trigger and an AI Agent: run for real (bursts, STOP, handoff) in receptionist.e2e.test.ts',
	bsExDownloadMedia: 'runs in media.e2e.test.ts, with n8n in filesystem binary mode',
	bsExMcpServer:
		'starts from an MCP client: run for real with the official MCP SDK client in mcpServer.e2e.test.ts',
	bsExOrderApproval:
		'waits for the owner’s answer: run, answered and finished in sendAndWait.e2e.test.ts',
};

beforeAll(async () => {
	const paths = provision();
	sim = await startSimulator();
	work = mkdtempSync(join(tmpdir(), 'botsailor-e2e-'));
	n8n = instance(paths, join(work, 'user'), await findFreePortPair());
	installCommunityPackage(n8n, pack(join(work, 'pack')));
	await importCredential(n8n, { baseUrl: sim.url, apiToken: sim.token });
	const workflows = join(work, 'workflows');
	mkdirSync(workflows);
	cpSync(EXAMPLES_DIR, workflows, { recursive: true });
	cpSync(join(__dirname, 'workflows'), workflows, { recursive: true });
	await importWorkflows(n8n, workflows);
}, 600_000);

afterAll(async () => {
	await sim?.close();
	if (work) rmSync(work, { recursive: true, force: true });
});

beforeEach(() => sim.reset());

describe('the package as an n8n community package', () => {
	test('sits where n8n installs community packages, without node_modules of its own', () => {
		const installed = join(n8n.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
		expect(readdirSync(installed).sort()).toEqual(expect.arrayContaining(['dist', 'package.json']));
		expect(existsSync(join(installed, 'node_modules'))).toBe(false);
		// zod comes from n8n's own node_modules at runtime (n8n puts them on NODE_PATH).
		expect(existsSync(join(n8n.userFolder, '.n8n', 'nodes', 'node_modules', 'zod'))).toBe(false);
	});

	test('loads light: the declared files re-export dist/botsailor.load.js, whose classes describe what the sources do and leave the bundle unloaded until a function is called', () => {
		const installed = join(n8n.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
		const files = globSync('dist/**/*.js', { cwd: installed }).sort();
		const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
			n8n: { nodes: string[]; credentials: string[] };
		};
		const declared = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
		expect(files).toEqual(['dist/botsailor.js', 'dist/botsailor.load.js', ...declared].sort());
		// Functions (preSend, postReceive, methods) compared by place, not by the name esbuild gives them.
		const shape = (value: unknown) =>
			JSON.stringify(value, (_key, entry: unknown) =>
				typeof entry === 'function' ? '[function]' : entry,
			);
		for (const file of declared) {
			const className = file.split('/').pop()!.split('.')[0];
			expect(readFileSync(join(installed, file), 'utf8')).toMatch(
				/^exports\.\w+ = require\('[./]+botsailor\.load\.js'\)\.\w+;\n$/,
			);
			// The packed dist/ (the installed copy has no node_modules of its own to resolve n8n-workflow from).
			/* eslint-disable @typescript-eslint/no-require-imports */
			const loaded = require(join(ROOT, file)) as Record<string, new () => object>;
			const source = require(
				join(ROOT, file.replace(/^dist\//, '').replace(/\.js$/, '.ts')),
			) as Record<string, new () => object>;
			/* eslint-enable @typescript-eslint/no-require-imports */
			expect(shape(new loaded[className]())).toEqual(shape(new source[className]()));
		}
		// Loading the declared files, as n8n does at start, reads no other file of the package; the first call of a
		// function (a list of the panel) requires the bundle once.
		const modules = execFileSync(
			process.execPath,
			[
				'-e',
				`const files = ${JSON.stringify(declared)};
				const nodes = files.map((file) => require(process.argv[1] + '/' + file));
				const base = require('node:fs').realpathSync(process.argv[1]) + '/';
				const ours = () => Object.keys(require.cache).filter((path) => path.startsWith(base)).map((path) => path.slice(base.length)).filter((path) => !path.startsWith('node_modules/')).sort();
				const atLoad = ours();
				const node = new nodes[0].BotSailor();
				const list = node.methods.loadOptions.getLabels;
				const beforeCall = ours();
				try { Promise.resolve(list.call({})).catch(() => undefined); } catch {}
				console.log(JSON.stringify({ atLoad, beforeCall, afterCall: ours() }));`,
				installed,
			],
			{ encoding: 'utf8', env: { ...process.env, NODE_PATH: join(ROOT, 'node_modules') } },
		);
		const declaredLoad = [...declared, 'dist/botsailor.load.js'].sort();
		expect(JSON.parse(modules)).toEqual({
			atLoad: declaredLoad,
			beforeCall: declaredLoad,
			afterCall: [...declaredLoad, 'dist/botsailor.js'].sort(),
		});
	});

	test('input validation (zod) runs inside n8n: a bad phone number fails with the parameter named, nothing sent', async () => {
		await expect(execute(n8n, 'bsE2eBadInput')).rejects.toThrow(/Subscriber/);
		expect(sim.requests.filter((request) => request.path.startsWith('/whatsapp'))).toEqual([]);
	});
});

describe('every example', () => {
	const examples = readWorkflows();

	test('has an id, an executable check or a reason, and BotSailor nodes that use the shared credential', () => {
		expect(examples.length).toBeGreaterThanOrEqual(6);
		for (const { file, workflow } of examples) {
			expect({ file, id: workflow.id }).toEqual({
				file,
				id: expect.stringMatching(/^[A-Za-z0-9]{1,21}$/),
			});
			expect({ file, covered: workflow.id in checks || workflow.id in notExecutable }).toEqual({
				file,
				covered: true,
			});
			for (const node of workflow.nodes.filter((entry) =>
				entry.type.startsWith(`${PACKAGE_NAME}.`),
			)) {
				expect({ file, node: node.name, credentials: node.credentials }).toEqual({
					file,
					node: node.name,
					credentials: { botSailorApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
				});
			}
		}
	});

	const executable = examples.filter(({ workflow }) => workflow.id in checks);
	test.each(executable.map(({ file, workflow }) => [file.split('/').pop()!, workflow.id]))(
		'%s runs with `n8n execute`',
		async (_file, id) => {
			setups[id]?.();
			try {
				const run = await execute(n8n, id);
				expect(run.status).toBe('success');
				checks[id](run);
			} finally {
				sim.state.sessionWindow = 'off';
			}
		},
	);
});

describe('n8n start', () => {
	let server: Server;
	let session: Session;

	beforeAll(async () => {
		({ server, session } = await startWithOwner(n8n));
	}, 300_000);

	afterAll(async () => {
		await server?.stop();
	});

	test('lists the action node, its AI tool variant and the trigger', async () => {
		const types = await session.get<Array<{ name: string }>>('/types/nodes.json');
		const names = types.map((type) => type.name);
		expect(names).toEqual(
			expect.arrayContaining([
				`${PACKAGE_NAME}.botSailor`,
				`${PACKAGE_NAME}.botSailorTool`,
				`${PACKAGE_NAME}.botSailorTrigger`,
			]),
		);
	});

	test('runs the credential test: OK with the right token, the platform’s refusal with a wrong one', async () => {
		const credential = (data: Record<string, string>) => ({
			credentials: {
				id: CREDENTIAL_ID,
				name: CREDENTIAL_NAME,
				type: 'botSailorApi',
				data: { apiForm: 'current', ...data },
			},
		});
		const ok = await session.request<{ status: string; message: string }>(
			'POST',
			'/credentials/test',
			credential({ baseUrl: sim.url, apiToken: sim.token }),
		);
		expect(ok).toEqual(expect.objectContaining({ status: 'OK' }));
		expect(sim.requests.some((request) => request.path === '/user/myInfo')).toBe(true);
		const refused = await session.request<{ status: string; message: string }>(
			'POST',
			'/credentials/test',
			credential({ baseUrl: sim.url, apiToken: 'wrong-token' }),
		);
		expect(refused.status).toBe('Error');
		expect(refused.message).not.toContain('wrong-token');
		// Issues 34 and 35: Base URL mistakes say what to type, through n8n's own CredentialsTester.
		const test = async (baseUrl: string) =>
			await session.request<{ status: string; message: string }>(
				'POST',
				'/credentials/test',
				credential({ baseUrl, apiToken: sim.token }),
			);
		const host = sim.url.replace('http://', '');
		expect(await test(host)).toEqual(
			expect.objectContaining({
				status: 'Error',
				message: expect.stringContaining(`type http://${host}`),
			}),
		);
		// The nodes' own test (testedBy) reads the status itself: on 1.123 too, where a declarative test's 404 read
		// "The resource you are requesting could not be found".
		expect(await test(`${sim.url}/dashboard`)).toEqual(
			expect.objectContaining({
				status: 'Error',
				message: expect.stringMatching(/^Base URL: no API answers at this address \(HTTP 404\)/),
			}),
		);
		// An unknown host (.invalid never resolves): words and what to type, not n8n's bare ENOTFOUND.
		expect(await test('https://no-such-platform.invalid')).toEqual({
			status: 'Error',
			message:
				'Base URL: the host no-such-platform.invalid was not found (no such name in DNS), so nothing was sent; check its spelling. Type only your platform’s address, e.g. https://botsailor.com or wa.youragency.com.',
		});
		expect(await test(`${sim.url}/?lang=en`)).toEqual(
			expect.objectContaining({
				status: 'Error',
				message: expect.stringMatching(/^Base URL: it contains a query/),
			}),
		);
	});

	// Issue 35: the editor as a new user meets it, in headless Chromium. On the pinned 2.x only (1.x editors lay the
	// panel out differently); without a Chromium it is reported as skipped, with the reason printed.
	const editorTest = versionAtLeast(installedN8nVersion(), '2.0.0')
		? withChromium('the editor check of a new BotSailor Webhook Trigger')
		: sinceN8n('2.0.0', 'the editor check of a new BotSailor Webhook Trigger (2.x editor)');
	editorTest(
		'in the editor, a new BotSailor Webhook Trigger (credential present) can be tested at once: Test this trigger enabled, and it listens',
		async () => {
			const { browser, page } = await signedInEditor(n8n.url, { width: 1440, height: 1000 });
			try {
				const panel = await newWebhookTriggerPanel(page, n8n.url);
				expect(panel).toEqual({
					buttons: expect.arrayContaining([{ label: 'Test this trigger', enabled: true }]),
					reason: '',
					credential: CREDENTIAL_NAME,
					listening: true,
				});
				// Every test button of the panel (the header's Execute step too), not only the output panel's.
				expect(panel.buttons.filter((button) => !button.enabled)).toEqual([]);
			} catch (error) {
				const shot = join(tmpdir(), 'botsailor-e2e-editor-failure.png');
				await page.screenshot({ path: shot }).catch(() => undefined);
				process.stderr.write(`the editor at the failure: ${shot}\n`);
				throw error;
			} finally {
				await browser.close();
			}
		},
	);

	test('an active BotSailor Trigger workflow starts an execution when a customer writes', async () => {
		const since = sim.requests.length;
		await activateWorkflow(session, 'bsE2eTrigger');
		// Activation polls once (that sets the cursor); a message after that must reach the next poll (every minute).
		await afterFirstPoll(sim.requests, since);
		const deadline = Date.now() + 150_000;
		const response = await fetch(`${sim.url}/__control/message`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				phone_number_id: NUMBER,
				phone_number: seededPhone(7),
				text: 'Is the shop open on Sunday?',
			}),
		});
		expect(response.ok).toBe(true);

		let executionId: string | undefined;
		while (!executionId && Date.now() < deadline) {
			const list = await session.request<{ results: Array<{ id: string; status: string }> }>(
				'GET',
				`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: 'bsE2eTrigger' }))}`,
			);
			executionId = list.results.find(
				(execution) => execution.status !== 'running' && execution.status !== 'new',
			)?.id;
			if (!executionId) await new Promise((resolve) => setTimeout(resolve, 2000));
		}
		if (!executionId)
			throw new Error(
				`no execution of the trigger workflow within 150 s\n--- n8n output ---\n${server.output()}`,
			);

		const execution = await session.request<{ status: string; data: string }>(
			'GET',
			`/executions/${executionId}`,
		);
		// The REST API sends run data in n8n's "flatted" form; n8n's own copy of the library reads it.
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- the host n8n's copy of flatted, resolved at runtime
		const { parse } = require(join(n8n.paths.n8nBin, '..', 'flatted')) as {
			parse: (text: string) => IRun['data'];
		};
		const run: IRun = { status: execution.status, data: parse(execution.data) };
		if (execution.status !== 'success')
			throw new Error(
				`the trigger execution ended with ${execution.status}: ${JSON.stringify(run.data.resultData.error)}`,
			);
		expect(nodeOutput(run, 'On New Message')).toEqual([
			expect.objectContaining({
				direction: 'incoming',
				phone_number: seededPhone(7),
				phone_number_id: NUMBER,
				message_content: { type: 'text', text: { body: 'Is the shop open on Sunday?' } },
			}),
		]);
		expect(sim.requests.find((request) => request.path === '/whatsapp/send')?.body).toEqual({
			phone_number_id: NUMBER,
			phone_number: seededPhone(7),
			message: 'Got it: Is the shop open on Sunday?',
		});
		await deactivateWorkflow(session, 'bsE2eTrigger');
	}, 240_000);
});
