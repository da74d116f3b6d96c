/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- drives a real n8n and a browser from plain Node.js inside the test's namespace, not node code */
/**
 * The install a user makes, in the editor (scripts/test-release.sh runs it inside its namespace, after
 * run.ts): a fresh n8n 2.41.1, Settings → Community Nodes → Install → `n8n-nodes-botsailor` → Install;
 * the package is listed with the build under test's version and its nodes are found in the nodes panel.
 * Saves community-nodes-install.png (the installed package) and community-nodes-panel.png in the run's work folder,
 * or in docs/ when asked (UPDATE_SCREENSHOTS=1): no CI run writes into the repository.
 */
import { join } from 'node:path';
import { newWorkflowNodesPanel, signedInEditor } from '../e2e/editor';
import {
	findFreePortPair,
	instance,
	PACKAGE_NAME,
	provision,
	ROOT,
	Session,
	start,
	type Server,
} from '../e2e/n8n';

const WORK = process.env.RELEASE_WORK ?? '';
const NEXT = process.env.RELEASE_NEXT_VERSION ?? '';
/** Where the screenshots go: docs/ only when asked, so that the working tree stays clean after a run. */
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs') : WORK;
const log = (text: string) => process.stderr.write(`test:release (browser): ${text}\n`);

async function main() {
	if (!WORK || !NEXT) throw new Error('run by scripts/test-release.sh (RELEASE_* set)');
	const fresh = async (folder: string) =>
		instance(provision(), join(WORK, folder), await findFreePortPair(), {
			NODE_EXTRA_CA_CERTS: join(WORK, 'tls', 'ca.pem'),
			npm_config_cache: join(WORK, 'n8n-npm-cache-browser'),
			N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		});
	let n8n = await fresh('n8n-browser');
	let server: Server | undefined;
	try {
		try {
			server = await start(n8n);
		} catch (error) {
			// A fresh n8n 2.41.1 once exited 1 during its first migrations with nothing else said (a CI run at load 9,
			// after every check of run.ts had passed): this check is about the editor's install, so n8n gets one more
			// fresh start, and the first one's output is kept in the log.
			if (!/^n8n start exited/.test((error as Error).message)) throw error;
			log(`n8n's first start failed, starting a fresh one: ${(error as Error).message}`);
			n8n = await fresh('n8n-browser-2');
			server = await start(n8n);
		}
		const session = new Session(n8n.url);
		await session.setupOwner();
		const { browser, page } = await signedInEditor(n8n.url, { width: 1400, height: 900 });
		try {
			await page.goto(`${n8n.url}/settings/community-nodes`);
			await page
				.getByRole('button', { name: /install/i })
				.first()
				.click({ timeout: 30_000 });
			const name = page
				.locator(
					'[data-test-id="package-name-input"] input, input[data-test-id="package-name-input"]',
				)
				.first();
			await name.fill(PACKAGE_NAME);
			await page.locator('[data-test-id="user-agreement-checkbox"]').first().click();
			const started = Date.now();
			await page.locator('[data-test-id="install-community-package-button"]').first().click();
			await page.getByText(`v${NEXT}`).first().waitFor({ timeout: 180_000 });
			log(
				`the editor lists ${PACKAGE_NAME} v${NEXT} after ${((Date.now() - started) / 1000).toFixed(1)} s`,
			);
			await page.waitForTimeout(1500);
			await page.screenshot({ path: join(SHOTS, 'community-nodes-install.png') });

			await (await newWorkflowNodesPanel(page, n8n.url)).fill('BotSailor');
			await page.waitForTimeout(1500);
			const found = await page.locator('[data-test-id="node-creator-item-name"]').allInnerTexts();
			if (!found.some((text) => /BotSailor/.test(text)))
				throw new Error(`the nodes panel finds no BotSailor node: ${found.join(', ')}`);
			log(`the nodes panel finds ${found.join(', ')}`);
			await page.screenshot({ path: join(SHOTS, 'community-nodes-panel.png') });
		} catch (error) {
			await page.screenshot({ path: join(WORK, 'browser-failure.png') }).catch(() => undefined);
			throw error;
		} finally {
			await browser.close();
		}
		const installed = await session.request<Array<{ installedVersion: string }>>(
			'GET',
			'/community-packages',
		);
		if (installed[0]?.installedVersion !== NEXT)
			throw new Error(`n8n lists ${JSON.stringify(installed)}, not ${NEXT}`);
		log(`ok: installed from the editor; screenshots in ${SHOTS}`);
	} finally {
		await server?.stop();
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(
			`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
		);
		process.exit(1);
	},
);
