/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- drives a browser from plain Node.js, not node code */
/**
 * n8n's editor in headless Chromium, signed in as the owner: where the browser checks start
 * (`npm run check:browser`, the Webhook Trigger screenshot, the e2e editor check). Chromium from
 * CHROMIUM_PATH, else /usr/bin/chromium (Debian's package).
 */
import { accessSync, constants } from 'node:fs';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { OWNER, PINNED_N8N_VERSION, installedN8nVersion } from './n8n';

/** The Chromium the browser checks launch, or undefined when there is none to launch. */
export function chromiumPath(): string | undefined {
	const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
	try {
		accessSync(path, constants.X_OK);
		return path;
	} catch {
		return undefined;
	}
}

export const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
];

/** Where Chromium is: CHROMIUM_PATH, else Debian's package. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A browser with one page signed into the editor at `baseUrl`; the caller closes the browser. */
export async function signedInEditor(
	baseUrl: string,
	viewport: { width: number; height: number },
): Promise<{ browser: Browser; page: Page }> {
	const browser = await chromium.launch({
		executablePath: chromiumPath() ?? CHROMIUM_PATH,
		args: CHROMIUM_FLAGS,
	});
	let signedIn = false;
	try {
		const page = await browser.newPage({ viewport });
		await page.goto(`${baseUrl}/signin`);
		await page.fill('input[name=emailOrLdapLoginId]', OWNER.email);
		await page.fill('input[name=password]', OWNER.password);
		await page.keyboard.press('Enter');
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
		signedIn = true;
		return { browser, page };
	} finally {
		if (!signedIn) await browser.close();
	}
}

/**
 * Whether a browser check runs: with a Chromium it runs; without one it fails on the pinned n8n (what CI and the
 * README's screenshots stand on: `.ci/run` installs Debian's chromium, and a browser check that silently stopped
 * running would leave CI green) and is skipped on any other n8n.
 */
export function chromiumVerdict(
	n8nVersion: string,
	chromium: string | undefined,
): 'run' | 'fail' | 'skip' {
	if (chromium) return 'run';
	return n8nVersion === PINNED_N8N_VERSION ? 'fail' : 'skip';
}

/**
 * A test that drives a browser (chromiumVerdict): a skip is reported as skipped (jest's summary counts it) with the
 * reason printed, never counted as passed; a failure names what is missing.
 */
export function withChromium(what: string): jest.It {
	const where = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
	const verdict = chromiumVerdict(installedN8nVersion(), chromiumPath());
	if (verdict === 'run') return test;
	if (verdict === 'fail') {
		const failing = (name: string, _fn?: unknown, timeout?: number) =>
			test(
				name,
				() => {
					throw new Error(
						`no Chromium at ${where} on the pinned n8n ${PINNED_N8N_VERSION}: ${what} must run here (apt-get install chromium, or set CHROMIUM_PATH)`,
					);
				},
				timeout,
			);
		return failing as unknown as jest.It;
	}
	process.stdout.write(
		`SKIPPED (no Chromium at ${where}: apt-get install chromium, or set CHROMIUM_PATH): ${what}\n`,
	);
	return test.skip;
}

/**
 * A new workflow with the nodes panel open; returns its search bar. A loaded machine can leave the editor's first
 * paint (or a dialog over it) past the wait: then any dialog is dismissed and the page loaded once more, and a
 * second miss fails naming what the page showed (the CI log is all a remote failure leaves).
 */
export async function newWorkflowNodesPanel(page: Page, baseUrl: string): Promise<Locator> {
	const addButton = page.locator('[data-test-id="canvas-add-button"]').first();
	await page.goto(`${baseUrl}/workflow/new`);
	const shown = await addButton.waitFor({ timeout: 30_000 }).then(
		() => true,
		() => false,
	);
	if (!shown) {
		const before = await pageState(page);
		process.stderr.write(
			`the editor showed no "add first step" button within 30 s, loading it again; ${before}\n`,
		);
		await page.keyboard.press('Escape');
		await page.goto(`${baseUrl}/workflow/new`);
		await addButton.waitFor({ timeout: 60_000 }).catch(async (error: Error) => {
			throw new Error(
				`the editor showed no "add first step" button at ${baseUrl}/workflow/new twice (30 s, then 60 s after a reload); first ${before}; then ${await pageState(page)}: ${error.message}`,
			);
		});
	}
	await addButton.click({ timeout: 15_000 });
	const search = page.locator('[data-test-id="node-creator-search-bar"]').first();
	await search.waitFor({ timeout: 15_000 });
	return search;
}

/** What a page shows, in a line: its address, title, any dialog, and the start of its text. */
async function pageState(page: Page): Promise<string> {
	const dialogs = await page
		.locator('[role="dialog"]:visible, .el-dialog:visible, .el-message-box:visible')
		.allInnerTexts()
		.catch(() => []);
	const text = await page
		.locator('body')
		.innerText({ timeout: 2000 })
		.catch(() => '');
	const line = (value: string) => value.replace(/\s+/g, ' ').trim().slice(0, 200);
	return `the page was ${page.url()} ("${await page.title().catch(() => '')}"), dialogs ${JSON.stringify(dialogs.map(line))}, text "${line(text)}"`;
}

/** What the trigger panel of a new node shows: its test buttons, whether n8n enables them, and n8n's reason when not. */
export interface TriggerTestButtons {
	/** The label of each test button (the header's and the output panel's), with whether it is enabled. */
	buttons: Array<{ label: string; enabled: boolean }>;
	/** The tooltip n8n shows over a disabled button, e.g. "Complete required fields first"; '' when enabled. */
	reason: string;
	/** The credential n8n selected on the new node. */
	credential: string;
	/** Whether n8n listened for a test event after "Test this trigger" was clicked (then it is stopped). */
	listening: boolean;
}

/**
 * A new workflow in the editor, then the nodes panel as a new user uses it: search "BotSailor Webhook", open the
 * BotSailor Webhook Trigger, choose the event `event` (its label in the panel), and read the test buttons of the
 * node panel n8n opens (a screenshot of it to `screenshot`), then click "Test this trigger" when it is enabled.
 */
export async function newWebhookTriggerPanel(
	page: Page,
	baseUrl: string,
	{ event = 'On incoming message', screenshot }: { event?: string; screenshot?: string } = {},
): Promise<TriggerTestButtons> {
	const search = await newWorkflowNodesPanel(page, baseUrl);
	await search.fill('BotSailor Webhook');
	// n8n lists triggers without the word "Trigger", then the node's events.
	const names = page.locator('[data-test-id="node-creator-item-name"]');
	await names
		.filter({ hasText: /^BotSailor Webhook/ })
		.first()
		.click({ timeout: 15_000 });
	await names.filter({ hasText: event }).first().click({ timeout: 15_000 });
	const panel = page.locator('[data-test-id="ndv"]');
	await panel.waitFor({ timeout: 15_000 });
	await page.waitForTimeout(1500);
	const credential = (
		await panel
			.locator('[data-test-id="node-credentials-select"] input')
			.first()
			.inputValue({ timeout: 5000 })
			.catch(() => '')
	).trim();
	const candidates = panel.locator('button', {
		hasText: /^\s*(Test this trigger|Listen for test event|Execute step)\s*$/,
	});
	const buttons: TriggerTestButtons['buttons'] = [];
	for (const button of await candidates.all())
		buttons.push({ label: (await button.innerText()).trim(), enabled: await button.isEnabled() });
	let reason = '';
	const disabled = buttons.findIndex((button) => !button.enabled);
	if (disabled >= 0) {
		await candidates.nth(disabled).hover({ force: true });
		await page.waitForTimeout(800);
		reason = (await page.locator('[role="tooltip"]:visible').allInnerTexts()).join(' ').trim();
		await page.mouse.move(5, 5);
	}
	if (screenshot) await page.screenshot({ path: screenshot });
	// The button does what it says: n8n registers the Test URL and waits for a delivery.
	let listening = false;
	const test = candidates.filter({ hasText: 'Test this trigger' }).first();
	if (buttons.some((button) => button.label === 'Test this trigger' && button.enabled)) {
		await test.click();
		listening = await panel
			.getByText('Listening for test event')
			.first()
			.waitFor({ timeout: 15_000 })
			.then(
				() => true,
				() => false,
			);
		await panel
			.getByRole('button', { name: 'Stop Listening' })
			.first()
			.click({ timeout: 5000 })
			.catch(() => undefined);
	}
	return { buttons, reason, credential, listening };
}
