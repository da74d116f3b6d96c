/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a command-line tool in plain Node.js, not node code */
/**
 * `npx tsx test/webhookTrigger/screenshot.ts` (after `npm run build`): the README's screenshot of the
 * BotSailor Webhook Trigger panel, taken in a real n8n 2.41.1 in headless Chromium, and a check that
 * the panel shows the setup notice and the node's Webhook URLs. Writes docs/webhook-trigger-panel.png.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startSimulator } from '../simulator/server';
import { signedInEditor } from '../e2e/editor';
import {
	importCredential,
	installCommunityPackage,
	instance,
	pack,
	provision,
	ROOT,
	Session,
	start,
} from '../e2e/n8n';
import { importTriggerWorkflows, triggerWorkflow, WEBHOOK_NODE } from './realN8n';
import { NUMBER } from '../harness/params';

async function main() {
	const sim = await startSimulator();
	const work = mkdtempSync(join(tmpdir(), 'botsailor-webhook-shot-'));
	const n8n = instance(provision(), join(work, 'user'), 20000 + Math.floor(Math.random() * 20000));
	installCommunityPackage(n8n, pack(join(work, 'pack')));
	await importCredential(n8n, { baseUrl: sim.url, apiToken: sim.token });
	await importTriggerWorkflows(n8n, [
		triggerWorkflow({
			id: 'bsWebhookShot',
			webhookId: 'd2c1a7e4-6b0f-4f3e-9a51-3c8e5b7f1a20',
			phoneNumberId: NUMBER,
			secret: 'my-secret',
		}),
	]);
	const server = await start(n8n);
	let browser: Browser | undefined;
	try {
		await new Session(n8n.url).setupOwner();
		const editor = await signedInEditor(n8n.url, { width: 1440, height: 1000 });
		browser = editor.browser;
		const page = editor.page;
		await page.goto(`${n8n.url}/workflow/bsWebhookShot`);
		const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${WEBHOOK_NODE}"]`);
		await node.waitFor({ timeout: 30_000 });
		await node.dblclick({ force: true });
		const panel = page.locator('[data-test-id="ndv"]');
		await panel.waitFor({ timeout: 15_000 });
		await page.waitForTimeout(1500);
		const text = await panel.innerText();
		for (const expected of [
			'Webhook URLs',
			'Bot Settings',
			'Production URL',
			'Test URL',
			'Secret',
		]) {
			if (!text.includes(expected))
				throw new Error(`the panel does not show "${expected}":\n${text}`);
		}
		// The URL to paste: open the Webhook URLs section, then its Production URL tab (not the notice's words).
		await page.getByText('Webhook URLs').first().click();
		await page.waitForTimeout(800);
		// Leaf elements reading exactly "Production URL", outside the notice: the section's tab.
		const tab = panel.locator(':not([class*="notice"] *):not(:has(*))', {
			hasText: /^\s*Production URL\s*$/,
		});
		const switched = await tab.count();
		if (switched) await tab.first().click();
		if (!switched) throw new Error('no Production URL tab in the Webhook URLs section');
		await page.waitForTimeout(800);
		await page.screenshot({ path: join(ROOT, 'docs', 'webhook-trigger-panel.png') });
		process.stdout.write('screenshot: docs/webhook-trigger-panel.png\n');
	} finally {
		await browser?.close();
		await server.stop();
		await sim.close();
		rmSync(work, { recursive: true, force: true });
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		process.stderr.write(`${(error as Error).stack}\n`);
		process.exit(1);
	},
);
