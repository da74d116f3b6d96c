/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a command-line check run with tsx against the demo, not node code */
/**
 * `npm run check:browser` (with `npm run demo` running): logs into the demo's n8n in headless
 * Chromium, opens example workflows and their BotSailor nodes, checks the Resource, Operation and
 * Event menus against the built node descriptions and that a From-list dropdown fills from the
 * API, and saves the screenshots used by the README under docs/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { OWNER, ROOT } from '../test/e2e/n8n';

const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

function description(file: string, className: string): INodeTypeDescription {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the built node, as n8n loads it
	const module = require(join(ROOT, 'dist', 'nodes', file)) as Record<string, new () => { description: INodeTypeDescription }>;
	return new module[className]().description;
}

function optionNames(properties: INodeProperties[], name: string, show?: Record<string, string>): string[] {
	const property = properties.find(
		(entry) => entry.name === name && Object.entries(show ?? {}).every(([key, value]) => entry.displayOptions?.show?.[key]?.includes(value)),
	);
	if (!property?.options) throw new Error(`no options property "${name}" for ${JSON.stringify(show)}`);
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
	const options = page.locator('.el-select-dropdown__item:visible, .el-select-dropdown__item-wrapper:visible');
	await options.first().waitFor({ timeout: 15_000 });
	await page.waitForTimeout(300);
	const texts = (await options.allInnerTexts()).map((text) => text.split('\n')[0].trim()).filter(Boolean);
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
	const { values } = parseArgs({ options: { url: { type: 'string', default: process.env.N8N_URL ?? 'http://localhost:5678' } } });
	const baseUrl = values.url!;
	const action = description('BotSailor/BotSailor.node.js', 'BotSailor');
	const trigger = description('BotSailorTrigger/BotSailorTrigger.node.js', 'BotSailorTrigger');
	const docs = join(ROOT, 'docs');
	mkdirSync(docs, { recursive: true });

	const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
	try {
		const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
		await page.goto(`${baseUrl}/signin`);
		await page.fill('input[name=emailOrLdapLoginId]', OWNER.email);
		await page.fill('input[name=password]', OWNER.password);
		await page.keyboard.press('Enter');
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
		check('logs in as the demo owner', true, '');

		await openNode(page, baseUrl, 'bsExOrders', 'Thank the Customer');
		const icon = page.locator('[data-test-id="ndv"] img').first();
		const iconLoaded = await icon.evaluate((image) => (image as unknown as { complete: boolean; naturalWidth: number }).naturalWidth > 0).catch(() => false);
		check('the node icon loads', iconLoaded, `${await icon.getAttribute('src').catch(() => 'no <img>')} did not load (is dist/icons in the package?)`);
		const resources = await menu(page, 'resource');
		const expectedResources = optionNames(action.properties, 'resource');
		check(`Resource menu lists the ${expectedResources.length} resources`, JSON.stringify(resources) === JSON.stringify(expectedResources), `got ${JSON.stringify(resources)}`);
		const operations = await menu(page, 'operation');
		const expectedOperations = optionNames(action.properties, 'operation', { resource: 'message' });
		check(`Operation menu (Message) lists ${expectedOperations.join(', ')}`, JSON.stringify(operations) === JSON.stringify(expectedOperations), `got ${JSON.stringify(operations)}`);

		// The WhatsApp Number locator in From List mode: its list comes from the API (Get Me).
		await page.locator('[data-test-id="resource-locator-phoneNumberId"] [data-test-id="rlc-input"]').first().click();
		const items = page.locator('[data-test-id="rlc-item"]');
		await items.first().waitFor({ timeout: 15_000 });
		// The list opens with the stored pick, then fills from the API: wait for the account's second number.
		await items.filter({ hasText: 'Sunrise Bakery UK' }).first().waitFor({ timeout: 15_000 }).catch(() => undefined);
		const numbers = (await items.allInnerTexts()).map((text) => text.trim());
		check('WhatsApp Number "From List" fills from the API', numbers.some((text) => text.includes('Sunrise Bakery UK')) && numbers.length >= 2, `got ${JSON.stringify(numbers)}`);
		await page.keyboard.press('Escape');
		await page.mouse.click(700, 60);
		await page.waitForTimeout(500);
		await page.screenshot({ path: join(docs, 'node-panel.png') });

		await openNode(page, baseUrl, 'bsExKeywords', 'On New Message');
		const events = await menu(page, 'event');
		const expectedEvents = optionNames(trigger.properties, 'event');
		check(`Trigger Event menu lists ${expectedEvents.join(', ')}`, JSON.stringify(events) === JSON.stringify(expectedEvents), `got ${JSON.stringify(events)}`);
		// A manual run of the trigger shows recent messages from the API (the trigger's sample mode).
		await page.getByRole('button', { name: 'Fetch Test Event' }).first().click();
		const output = page.locator('[data-test-id="output-panel"]');
		const fetched = await output.getByText('incoming').first().waitFor({ timeout: 30_000 }).then(() => true, () => false);
		check('Fetch Test Event shows recent messages from the API', fetched, (await output.innerText()).slice(0, 300));
		await page.screenshot({ path: join(docs, 'trigger-panel.png') });

		// The AI example: the BotSailor node as an agent tool, its parameters filled by $fromAI().
		await openNode(page, baseUrl, 'bsExAiAgent', 'Send WhatsApp Text');
		const panel = await page.locator('[data-test-id="ndv"]').innerText();
		check('the BotSailor tool opens in the AI Agent example', panel.includes('Phone Number') && !/install|not known|unrecognized/i.test(panel), panel.slice(0, 300));
		await page.screenshot({ path: join(docs, 'ai-tool-panel.png') });
		process.stdout.write(`screenshots: docs/node-panel.png, docs/trigger-panel.png, docs/ai-tool-panel.png\n`);
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
