/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a command-line check run with tsx against the demo, not node code */
/**
 * `npm run check:browser` (with `npm run demo` running): logs into the demo's n8n in headless
 * Chromium, finds the nodes by a marketer's search words, runs the welcome example's default test
 * ("Execute workflow") and proves from the simulator's recorded requests that it sent to the sample
 * subscriber only, opens example workflows and their BotSailor nodes, checks the Resource, Operation
 * and Event menus against the built node descriptions, the canvas subtitles, that a From-list dropdown
 * fills from the API and that Fetch Test Event returns one record, and saves the screenshots used by
 * the README (in a temporary folder; under docs/ with UPDATE_SCREENSHOTS=1), and that a new BotSailor Webhook Trigger's "Test this trigger" is enabled at once.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { newWebhookTriggerPanel, newWorkflowNodesPanel, signedInEditor } from '../test/e2e/editor';
import { CREDENTIAL_ID, CREDENTIAL_NAME, ROOT, Session } from '../test/e2e/n8n';
import { pickerAfterTrigger } from './picker-screenshot';

/** The sample subscriber of the welcome example (its pinned trigger data and its sample branch): a fictional number. */
const SAMPLE_SUBSCRIBER = '15550100001';
const WHATSAPP_NUMBER = '104382179270221';

interface RecordedRequest {
	path: string;
	body: Record<string, unknown>;
}

async function simulator<T>(url: string, action: string): Promise<T> {
	const response = await fetch(`${url}/__control/${action}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: '{}',
	});
	if (!response.ok)
		throw new Error(
			`simulator ${action}: HTTP ${response.status} (is the demo's simulator at ${url}?)`,
		);
	return ((await response.json()) as { result: T }).result;
}

function description(file: string, className: string): INodeTypeDescription {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the built node, as n8n loads it
	const module = require(join(ROOT, 'dist', 'nodes', file)) as Record<
		string,
		new () => { description: INodeTypeDescription }
	>;
	return new module[className]().description;
}

function optionNames(
	properties: INodeProperties[],
	name: string,
	show?: Record<string, string>,
): string[] {
	const property = properties.find(
		(entry) =>
			entry.name === name &&
			Object.entries(show ?? {}).every(([key, value]) =>
				entry.displayOptions?.show?.[key]?.includes(value),
			),
	);
	if (!property?.options)
		throw new Error(`no options property "${name}" for ${JSON.stringify(show)}`);
	return (property.options as Array<{ name: string }>).map((option) => option.name);
}

const failures: string[] = [];
function check(what: string, ok: boolean, detail: string) {
	process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${what}${ok ? '' : `: ${detail}`}\n`);
	if (!ok) failures.push(what);
}

/** Opens a dropdown parameter and returns the option labels it lists. */
async function menu(page: Page, parameter: string): Promise<string[]> {
	await page.locator(`[data-test-id="parameter-input-${parameter}"]`).first().click();
	const options = page.locator(
		'.el-select-dropdown__item:visible, .el-select-dropdown__item-wrapper:visible',
	);
	await options.first().waitFor({ timeout: 15_000 });
	await page.waitForTimeout(300);
	const texts = (await options.allInnerTexts())
		.map((text) => text.split('\n')[0].trim())
		.filter(Boolean);
	await page.keyboard.press('Escape');
	await page.waitForTimeout(300);
	return texts;
}

async function openNode(page: Page, baseUrl: string, workflowId: string, nodeName: string) {
	await page.goto(`${baseUrl}/workflow/${workflowId}`);
	const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`);
	await node.waitFor({ timeout: 30_000 });
	await node.dblclick({ force: true });
	await page.locator('[data-test-id="ndv"]').waitFor({ timeout: 15_000 });
	await page.waitForTimeout(1000);
}

async function main() {
	const { values } = parseArgs({
		options: {
			url: { type: 'string', default: process.env.N8N_URL ?? 'http://localhost:5678' },
			'simulator-url': {
				type: 'string',
				default: process.env.SIMULATOR_URL ?? 'http://127.0.0.1:5055',
			},
		},
	});
	const baseUrl = values.url!;
	const simulatorUrl = values['simulator-url']!;
	const action = description('BotSailor/BotSailor.node.js', 'BotSailor');
	const trigger = description('BotSailorTrigger/BotSailorTrigger.node.js', 'BotSailorTrigger');
	// The README's screenshots are refreshed on request only (UPDATE_SCREENSHOTS=1), so a check leaves the tree clean.
	const docs =
		process.env.UPDATE_SCREENSHOTS === '1'
			? join(ROOT, 'docs')
			: mkdtempSync(join(tmpdir(), 'botsailor-screenshots-'));
	mkdirSync(docs, { recursive: true });

	const { browser, page } = await signedInEditor(baseUrl, { width: 1440, height: 900 });
	try {
		check('logs in as the demo owner', true, '');

		// A marketer's search words find the nodes (codex aliases), in the nodes panel of a new workflow.
		const search = await newWorkflowNodesPanel(page, baseUrl);
		for (const words of ['WhatsApp', 'send message', 'subscriber', 'SMS']) {
			await search.fill(words);
			await page.waitForTimeout(800);
			const found = (
				await page.locator('[data-test-id="node-creator-item-name"]').allInnerTexts()
			).map((text) => text.trim());
			check(
				`the nodes panel finds BotSailor for "${words}"`,
				found.some((name) => name.startsWith('BotSailor')),
				`got ${JSON.stringify(found.slice(0, 8))}`,
			);
			if (words === 'WhatsApp') await page.screenshot({ path: join(docs, 'node-search.png') });
		}
		await page.keyboard.press('Escape');

		// After a trigger, the picker's BotSailor entry (action node and polling trigger, merged by n8n) must
		// describe the action node, not read as a trigger (test/codex.test.ts).
		const picker = await pickerAfterTrigger(page, baseUrl);
		const entry = picker.find((found) => found.name === 'BotSailor');
		check(
			'after a trigger, the picker shows BotSailor with the action node’s description',
			Boolean(entry?.description.startsWith(action.description ?? '')),
			JSON.stringify(picker),
		);
		await page.screenshot({ path: join(docs, 'node-picker-after.png') });
		await page.keyboard.press('Escape');

		// The welcome example's default test: "Execute workflow" as a new user clicks it. It must send to the
		// sample subscriber only (pinned trigger data), and read nothing of the account's subscribers.
		await simulator(simulatorUrl, 'clear-requests');
		await page.goto(`${baseUrl}/workflow/bsExWelcome`);
		const runButton = page.locator('[data-test-id="execute-workflow-button"]').first();
		await runButton.waitFor({ timeout: 30_000 });
		const buttonText = (await runButton.innerText()).replace(/\s+/g, ' ').trim();
		await runButton.click();
		let requests: RecordedRequest[] = [];
		for (let waited = 0; waited < 45_000; waited += 500) {
			requests = await simulator<RecordedRequest[]>(simulatorUrl, 'requests');
			if (requests.some((request) => request.path === '/whatsapp/subscriber/chat/assign-labels'))
				break;
			await page.waitForTimeout(500);
		}
		await page.waitForTimeout(1500);
		requests = await simulator<RecordedRequest[]>(simulatorUrl, 'requests');
		const recipients = [
			...new Set(
				requests
					.map((request) => request.body.phone_number)
					.filter((value) => value !== undefined)
					.map(String),
			),
		];
		process.stdout.write(
			`     the button read "${buttonText}"; the platform received: ${requests.map((request) => request.path).join(', ') || 'nothing'}\n`,
		);
		check(
			"the welcome example's default test sent the welcome template",
			requests.some((request) => request.path === '/whatsapp/send/template'),
			JSON.stringify(requests),
		);
		check(
			`the welcome example's default test reached the sample subscriber ${SAMPLE_SUBSCRIBER} only`,
			JSON.stringify(recipients) === JSON.stringify([SAMPLE_SUBSCRIBER]),
			`recipients ${JSON.stringify(recipients)}`,
		);
		check(
			"the welcome example's default test read none of the account's subscribers (pinned trigger data)",
			!requests.some((request) => request.path === '/whatsapp/subscriber/list'),
			JSON.stringify(requests.map((request) => request.path)),
		);
		// Canvas subtitles in display names.
		const canvasNode = (name: string) =>
			page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`).first();
		const templateNode = (await canvasNode('Send Welcome Template').innerText()).replace(
			/\s+/g,
			' ',
		);
		check(
			'the canvas subtitle reads "Send Template: Message"',
			templateNode.includes('Send Template: Message'),
			templateNode,
		);
		const triggerNode = (await canvasNode('On New Subscriber').innerText()).replace(/\s+/g, ' ');
		check(
			'the trigger\'s canvas subtitle reads "New Subscriber"',
			triggerNode.includes('New Subscriber') && !triggerNode.includes('newSubscriber'),
			triggerNode,
		);
		await page.screenshot({ path: join(docs, 'welcome-test-run.png') });

		await openNode(page, baseUrl, 'bsExOrders', 'Thank the Customer');
		const icon = page.locator('[data-test-id="ndv"] img').first();
		const iconLoaded = await icon
			.evaluate(
				(image) =>
					(image as unknown as { complete: boolean; naturalWidth: number }).naturalWidth > 0,
			)
			.catch(() => false);
		check(
			'the node icon loads',
			iconLoaded,
			`${await icon.getAttribute('src').catch(() => 'no <img>')} did not load (is dist/icons in the package?)`,
		);
		const resources = await menu(page, 'resource');
		const expectedResources = optionNames(action.properties, 'resource');
		check(
			`Resource menu lists the ${expectedResources.length} resources`,
			JSON.stringify(resources) === JSON.stringify(expectedResources),
			`got ${JSON.stringify(resources)}`,
		);
		const operations = await menu(page, 'operation');
		const expectedOperations = optionNames(action.properties, 'operation', { resource: 'message' });
		check(
			`Operation menu (Message) lists ${expectedOperations.join(', ')}`,
			JSON.stringify(operations) === JSON.stringify(expectedOperations),
			`got ${JSON.stringify(operations)}`,
		);

		// The WhatsApp Number locator in From List mode: its list comes from the API (Get Me).
		await page
			.locator('[data-test-id="resource-locator-phoneNumberId"] [data-test-id="rlc-input"]')
			.first()
			.click();
		const items = page.locator('[data-test-id="rlc-item"]');
		await items.first().waitFor({ timeout: 15_000 });
		// The list opens with the stored pick, then fills from the API: wait for the account's second number.
		await items
			.filter({ hasText: 'Sunrise Bakery UK' })
			.first()
			.waitFor({ timeout: 15_000 })
			.catch(() => undefined);
		const numbers = (await items.allInnerTexts()).map((text) => text.trim());
		check(
			'WhatsApp Number "From List" fills from the API',
			numbers.some((text) => text.includes('Sunrise Bakery UK')) && numbers.length >= 2,
			`got ${JSON.stringify(numbers)}`,
		);
		await page.keyboard.press('Escape');
		await page.mouse.click(700, 60);
		await page.waitForTimeout(500);
		await page.screenshot({ path: join(docs, 'node-panel.png') });

		// Fetch Test Event on a trigger without pinned data (a throwaway workflow: the examples' triggers are
		// pinned, and testing one would unpin it): one record, the newest message, with its flat text.
		const session = new Session(baseUrl);
		await session.login();
		const scratch = await session.request<{ id: string }>('POST', '/workflows', {
			name: 'Browser check: BotSailor Trigger test',
			active: false,
			connections: {},
			settings: { executionOrder: 'v1' },
			nodes: [
				{
					id: 'bs-check-trigger',
					name: 'On New Message',
					type: 'n8n-nodes-botsailor.botSailorTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {
						pollTimes: { item: [{ mode: 'everyMinute' }] },
						event: 'newMessage',
						phoneNumberId: { __rl: true, mode: 'id', value: WHATSAPP_NUMBER },
					},
					credentials: { botSailorApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
				},
			],
		});
		try {
			await openNode(page, baseUrl, scratch.id, 'On New Message');
			const events = await menu(page, 'event');
			const expectedEvents = optionNames(trigger.properties, 'event');
			check(
				`Trigger Event menu lists ${expectedEvents.join(', ')}`,
				JSON.stringify(events) === JSON.stringify(expectedEvents),
				`got ${JSON.stringify(events)}`,
			);
			await page.getByRole('button', { name: 'Fetch Test Event' }).first().click();
			const output = page.locator('[data-test-id="output-panel"]');
			const fetched = await output
				.getByText('incoming')
				.first()
				.waitFor({ timeout: 30_000 })
				.then(
					() => true,
					() => false,
				);
			const shown = await output.innerText();
			check(
				'Fetch Test Event shows ONE record, the newest message, with its flat text',
				fetched && /\b1 item\b/.test(shown) && shown.includes('message_type'),
				shown.slice(0, 300),
			);
			await page.mouse.move(700, 850);
			await page.waitForTimeout(500);
			await page.screenshot({ path: join(docs, 'trigger-panel.png') });
		} finally {
			await session.request('POST', `/workflows/${scratch.id}/archive`).catch(() => undefined);
			await session.request('DELETE', `/workflows/${scratch.id}`).catch(() => undefined);
		}

		// The AI example: the BotSailor node as an agent tool, its parameters filled by $fromAI().
		await openNode(page, baseUrl, 'bsExAiAgent', 'Send WhatsApp Text');
		const panel = await page.locator('[data-test-id="ndv"]').innerText();
		check(
			'the BotSailor tool opens in the AI Agent example',
			panel.includes('WhatsApp Number') &&
				panel.includes('$fromAI') &&
				!/install|not known|unrecognized/i.test(panel),
			panel.slice(0, 300),
		);
		await page.screenshot({ path: join(docs, 'ai-tool-panel.png') });

		// A new BotSailor Webhook Trigger, added from the nodes panel with the demo's credential present: n8n must
		// enable its test at once, not grey it out with "Complete required fields first" (issue 35).
		const webhook = await newWebhookTriggerPanel(page, baseUrl, {
			screenshot: join(docs, 'webhook-trigger-test-enabled.png'),
		});
		check(
			'a new BotSailor Webhook Trigger gets the credential',
			webhook.credential === CREDENTIAL_NAME,
			JSON.stringify(webhook),
		);
		check(
			'a new BotSailor Webhook Trigger’s "Test this trigger" is enabled (not "Complete required fields first")',
			webhook.buttons.some((button) => button.label === 'Test this trigger') &&
				webhook.buttons.every((button) => button.enabled) &&
				webhook.reason === '',
			JSON.stringify(webhook),
		);
		check(
			'"Test this trigger" on the new node listens for a test event',
			webhook.listening,
			JSON.stringify(webhook),
		);
		process.stdout.write(
			`screenshots in ${docs}${process.env.UPDATE_SCREENSHOTS === '1' ? '' : ' (UPDATE_SCREENSHOTS=1 npm run check:browser refreshes docs/)'}: node-search.png, node-picker-after.png, welcome-test-run.png, node-panel.png, trigger-panel.png, ai-tool-panel.png, webhook-trigger-test-enabled.png\n`,
		);
	} finally {
		await browser.close();
	}
	if (failures.length) {
		process.stderr.write(`${failures.length} browser check(s) failed\n`);
		process.exit(1);
	}
}

main().catch((error: Error) => {
	process.stderr.write(`browser check failed: ${error.message}\n`);
	process.exit(1);
});
