/* eslint-disable @n8n/community-nodes/no-restricted-globals -- drives a browser from plain Node.js, not node code */
/**
 * n8n's editor in headless Chromium, signed in as the owner: where the browser checks start
 * (`npm run check:browser`, the Webhook Trigger screenshot). Chromium from CHROMIUM_PATH, else
 * /usr/bin/chromium (Debian's package).
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { OWNER } from './n8n';

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
		executablePath: CHROMIUM_PATH,
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
