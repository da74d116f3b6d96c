/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a command-line script run with tsx against a running n8n, not node code */
/**
 * n8n's node picker after a trigger, searched for "BotSailor": the entries and the description each
 * shows, and a screenshot. `tsx scripts/picker-screenshot.ts [--url http://localhost:5678] [--out <file>.png]`
 * with `npm run demo` running; `npm run check:browser` runs the same steps and checks the descriptions.
 * n8n shows ONE entry for the action node and the polling trigger, with the trigger's description
 * (test/codex.test.ts says why).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { newWorkflowNodesPanel, signedInEditor } from '../test/e2e/editor';
import { ROOT } from '../test/e2e/n8n';

export interface PickerEntry {
	name: string;
	description: string;
}

/** A new workflow with a Manual Trigger, then the picker for the next step, searched for `words`. */
export async function pickerAfterTrigger(
	page: Page,
	baseUrl: string,
	words = 'BotSailor',
): Promise<PickerEntry[]> {
	const search = await newWorkflowNodesPanel(page, baseUrl);
	await search.fill('Manual');
	await page.waitForTimeout(800);
	await page.keyboard.press('Enter');
	await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 15_000 });
	await page.keyboard.press('Escape'); // n8n may open the new node's panel
	await page.waitForTimeout(500);
	await page.locator('[data-test-id="canvas-handle-plus"]').first().click({ timeout: 15_000 });
	await search.waitFor({ timeout: 15_000 });
	await search.fill(words);
	await page.waitForTimeout(1000);
	const items = page
		.locator('[data-test-id="node-creator-action-item"], [data-test-id="node-creator-node-item"]')
		.filter({ hasText: words });
	const entries: PickerEntry[] = [];
	for (const text of await items.allInnerTexts()) {
		const [name = '', ...rest] = text
			.split('\n')
			.map((line) => line.trim())
			.filter(Boolean);
		entries.push({ name, description: rest.join(' ') });
	}
	return entries;
}

async function main() {
	const { values } = parseArgs({
		options: {
			url: { type: 'string', default: process.env.N8N_URL ?? 'http://localhost:5678' },
			out: { type: 'string', default: join(ROOT, 'docs', 'node-picker.png') },
			words: { type: 'string', default: 'BotSailor' },
		},
	});
	const { browser, page } = await signedInEditor(values.url!, { width: 1440, height: 900 });
	try {
		const entries = await pickerAfterTrigger(page, values.url!, values.words!);
		await page.screenshot({ path: values.out! });
		process.stdout.write(`${JSON.stringify(entries, null, 2)}\nscreenshot: ${values.out}\n`);
	} finally {
		await browser.close();
	}
}

if (require.main === module)
	main().catch((error: Error) => {
		process.stderr.write(`picker screenshot failed: ${error.message}\n`);
		process.exit(1);
	});
