/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a command-line check run with tsx, not node code */
/**
 * The customer's phone page (test/simulator/phone.html) in headless Chromium, against the demo's simulator world
 * (no n8n needed): the business sends a template, a text with a link, reply buttons and a PDF through the API; the
 * page shows them as the customer sees them (variables filled, link clickable, buttons); typing and tapping a button
 * post the incoming-message webhook; a status change shows; a message whose webhook was refused is marked with the
 * receiver's answer; no token appears. Saves a screenshot (before the refusal) to a temporary
 * folder, or to docs/phone-page.png with UPDATE_SCREENSHOTS=1. Run by `npm run test:demo`; alone:
 * `npx tsx scripts/phone-check.ts`.
 */
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, chromiumPath } from '../test/e2e/editor';
import { ROOT } from '../test/e2e/n8n';
import { DEMO_SEED, prepareDemoWorld } from '../test/simulator/demoWorld';
import { startSimulator, type Simulator } from '../test/simulator/server';

const AVA = '15550100001';

function check(condition: unknown, what: string): asserts condition {
	if (!condition) throw new Error(`phone page: ${what}`);
}

async function api(sim: Simulator, path: string, fields: Record<string, string>) {
	const response = await fetch(`${sim.url}/api/v1${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ ...fields, apiToken: sim.token }).toString(),
	});
	const body = (await response.json()) as { status: string; wa_message_id: string };
	if (body.status !== '1') throw new Error(`${path}: ${JSON.stringify(body)}`);
	return body;
}

/** Where the screenshot goes: docs/ when asked (UPDATE_SCREENSHOTS=1), else a temporary folder. */
export function screenshotDir(): string {
	return process.env.UPDATE_SCREENSHOTS === '1'
		? join(ROOT, 'docs')
		: mkdtempSync(join(tmpdir(), 'botsailor-screenshots-'));
}

/** Types `text` as the customer on an open phone page and waits for the reply that contains `reply`. */
export async function writeAsCustomer(page: Page, text: string, reply?: string, timeout = 30_000) {
	await page.fill('#text', text);
	await page.keyboard.press('Enter');
	await page.locator('.msg.me .bubble', { hasText: text }).first().waitFor({ timeout: 10_000 });
	if (reply)
		await page.locator('.msg.business .bubble', { hasText: reply }).last().waitFor({ timeout });
}

export async function phoneCheck(): Promise<string> {
	if (!chromiumPath())
		throw new Error(
			`no Chromium at ${CHROMIUM_PATH}: apt-get install chromium, or set CHROMIUM_PATH`,
		);
	// The incoming-message webhook's receiver: what the page's typing and tapping post.
	const posted: Array<Record<string, unknown>> = [];
	const receiver = http.createServer((request, response) => {
		let body = '';
		request.on('data', (chunk: Buffer) => (body += chunk.toString()));
		request.on('end', () => {
			// /refuse answers as n8n's Webhook Trigger does to a delivery without its Secret.
			if (request.url === '/refuse') {
				response.writeHead(401, { 'content-type': 'application/json' });
				response.end('{"message":"Authorization is required!"}');
				return;
			}
			try {
				posted.push(JSON.parse(body) as Record<string, unknown>);
			} catch {
				posted.push({ raw: body });
			}
			response.end('ok');
		});
	});
	await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
	const sim = await startSimulator({ port: 0, seed: DEMO_SEED });
	const browser = await chromium.launch({
		executablePath: chromiumPath() ?? CHROMIUM_PATH,
		args: CHROMIUM_FLAGS,
	});
	try {
		const world = prepareDemoWorld(sim.state);
		check(
			world.inside.some((customer) => customer.phone_number === AVA),
			'Ava is inside the window',
		);
		const numberId = sim.state.bots[0].phone_number_id;
		const receiverPort = (receiver.address() as { port: number }).port;
		sim.state.webhooks.configure(numberId, {
			urls: { incoming_message: `http://127.0.0.1:${receiverPort}/hook` },
		});
		const to = { phone_number_id: numberId, phone_number: AVA };
		const template = await api(sim, '/whatsapp/send/template', {
			...to,
			template_id: '900000',
			'templateVariable-first_name-1': 'Ava',
			'templateVariable-discount-2': '10%',
		});
		await api(sim, '/whatsapp/send', {
			...to,
			message: 'Your order #1042 is on its way. Track it here: https://example.com/track/1042',
		});
		await api(sim, '/whatsapp/send/file', {
			...to,
			media_url: `${sim.url}/media/seed/order-form.pdf`,
			media_type: 'document',
			media_name: 'order-form.pdf',
			media_caption_text: 'Your order form',
		});
		await api(sim, '/whatsapp/send/interactive-buttons', {
			...to,
			message: 'Which size would you like?',
			buttons: JSON.stringify([
				{ id: 'size_small', title: 'Small' },
				{ id: 'size_medium', title: 'Medium' },
				{ id: 'size_large', title: 'Large' },
			]),
			button_footer_text: 'Sunrise Bakery',
		});

		const page = await browser.newPage({ viewport: { width: 820, height: 840 } });
		await page.goto(`${sim.url}/phone?phone=${AVA}&number=${numberId}`);
		await page
			.locator('.bubble', { hasText: 'Hello Ava, enjoy 10% off' })
			.waitFor({ timeout: 15_000 });
		const link = page.locator('.bubble a[href="https://example.com/track/1042"]');
		check((await link.count()) === 1, 'the link in a text is clickable');
		check(
			(await page.locator('.bubble .file', { hasText: 'order-form.pdf' }).count()) === 1,
			'the PDF is shown',
		);
		check(
			(await page.locator('.customers, #customers li .badge.open').count()) >= 3,
			'the customers inside the window are marked "window open"',
		);
		check(
			(await page.locator('#customers li .badge.closed').count()) >= 2,
			'the customers outside the window are marked "window closed"',
		);

		await writeAsCustomer(page, 'Do you have gluten-free bread?');
		await page.locator('.buttons button', { hasText: 'Medium' }).click();
		await page.locator('.msg.me .bubble', { hasText: 'Medium' }).waitFor({ timeout: 10_000 });
		const deadline = Date.now() + 10_000;
		while (posted.length < 2 && Date.now() < deadline)
			await new Promise((done) => setTimeout(done, 100));
		const messages = posted.map((body) => body.user_message);
		check(
			messages.includes('Do you have gluten-free bread?') && messages.includes('Medium'),
			`typing and tapping post the incoming-message webhook (posted: ${JSON.stringify(messages)})`,
		);

		const status = await fetch(`${sim.url}/__control/message-status`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ wa_message_id: template.wa_message_id, status: 'read' }),
		});
		check(status.ok, `the status change was accepted (HTTP ${status.status})`);
		await page.locator('.ticks[data-status="read"]').first().waitFor({ timeout: 10_000 });

		const html = await page.content();
		check(!html.includes(sim.token), 'no token on the page');
		const file = join(screenshotDir(), 'phone-page.png');
		await page.screenshot({ path: file });

		// After the screenshot (the docs' picture shows no refusal).
		sim.state.webhooks.configure(numberId, {
			urls: { incoming_message: `http://127.0.0.1:${receiverPort}/refuse` },
		});
		await writeAsCustomer(page, 'Hello?');
		const refused = await page
			.locator('.msg.me', { hasText: 'Hello?' })
			.locator('.refused')
			.textContent({ timeout: 10_000 });
		check(
			refused?.includes('HTTP 401 {"message":"Authorization is required!"}'),
			`a message whose webhook was refused is marked with the answer: ${refused}`,
		);
		return file;
	} finally {
		await browser.close();
		await sim.close();
		receiver.close();
	}
}

if (require.main === module)
	phoneCheck().then(
		(file) => process.stdout.write(`phone page: OK (screenshot ${file})\n`),
		(error: Error) => {
			process.stderr.write(`${error.message}\n`);
			process.exit(1);
		},
	);
