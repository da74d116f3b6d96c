/**
 * Which e2e file runs on which n8n, and why (docs/testing.md has the table). On the pinned n8n every file
 * runs. On the 1.x versions CI also runs (the supported floor and the latest 1.x), the files that exercise what
 * differs between n8n versions run; a file whose every test needs something the version lacks is not started at
 * all (each file starts its own n8n, about half a minute), and the reason is printed instead.
 * Plain JavaScript: test/e2e/jest.config.js reads it.
 */
const PINNED = '2.41.1';

/** Per file: the oldest n8n it proves something on, and what it proves there (or why not before). */
const FILES = {
	n8n: {
		since: '1.0.0',
		proves:
			'declarative routing and Options, the credential test, the polling trigger, every example',
	},
	sendAndWait: { since: '1.0.0', proves: "Send and Wait on the version's waiting-execution links" },
	webhookGate: {
		since: '1.0.0',
		proves:
			"the version's code paths that decide how the action node exposes its Send and Wait webhook",
	},
	sendAndWaitChat: {
		since: '2.0.0',
		proves: 'Send and Wait answered in the WhatsApp chat, taken by the Webhook Trigger',
		before:
			"a tap or a reply resumes the run through n8n's waiting-execution URL and the node's own webhook, which sendAndWait.e2e proves on every version; on 1.123.81 the file passed in every CI run until issue 52 trimmed CI's time (2026-12-02, 477 s of a 1.x lane), and on 1.85.4 by hand (docs/testing.md)",
	},
	webhookTrigger: { since: '1.0.0', proves: "the Webhook Trigger on the version's webhook server" },
	media: { since: '1.0.0', proves: "Download Media and uploads through the version's binary data" },
	aiAgent: {
		since: '1.109.0',
		proves: 'the nodes as AI Agent tools',
		before: 'n8n before 1.109 runs no declarative tool node that has load-options methods',
	},
	mcpServer: {
		since: '1.109.0',
		proves: "the nodes as tools of n8n's MCP Server Trigger",
		before: 'n8n before 1.109 runs no declarative tool node that has load-options methods',
	},
	delivery: {
		since: '2.41.1',
		proves:
			'Wait for Delivery and Get Delivery Report through a real workflow against the simulator',
		before:
			"Wait for Delivery runs in the node's own code, the same on every n8n (test/node/deliveryWait.test.ts runs it through the engine on both paths); the pinned n8n proves the workflow end to end",
	},
	receptionist: {
		since: '2.0.0',
		proves: 'the AI receptionist example as shipped',
		before:
			"the example's AI Agent 3.1 exists from n8n 2.0 (the receptionist's operations as tools on 1.x: aiAgent.e2e on 1.123.81)",
	},
	aiDraftApproval: {
		since: '2.0.0',
		proves: 'the AI draft approval example as shipped (approve, edit, decline in the chat)',
		before:
			"the example's AI Agent 3.1 exists from n8n 2.0 (Approve, Edit or Decline in the chat through n8n's engine: test/node/sendAndWaitEdit.test.ts)",
	},
};

function versionAtLeast(version, minimum) {
	const [a, b] = [version, minimum].map((text) => text.split('.').map(Number));
	for (let index = 0; index < 3; index++) if (a[index] !== b[index]) return a[index] > b[index];
	return true;
}

/** The files that run on `version`, and those that do not with the reason. */
function e2eFilesFor(version) {
	const run = [];
	const notRun = [];
	for (const [file, entry] of Object.entries(FILES)) {
		if (version === PINNED || versionAtLeast(version, entry.since)) run.push(file);
		else notRun.push({ file, reason: `${entry.before} (it proves ${entry.proves})` });
	}
	return { run, notRun };
}

module.exports = { PINNED, FILES, e2eFilesFor, versionAtLeast };
