/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the codex files in plain Node.js */
/**
 * The codex files (`<Node>.node.json`, copied next to the built node) carry the search aliases n8n's
 * nodes panel matches besides the display name: a marketer typing "WhatsApp", "send message" or
 * "subscriber" must find both nodes, not only n8n's WhatsApp Business Cloud node.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BotSailor } from '../nodes/BotSailor/BotSailor.node';
import { BotSailorTrigger } from '../nodes/BotSailorTrigger/BotSailorTrigger.node';
import { BotSailorWebhookTrigger } from '../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node';

interface Codex {
	node: string;
	categories: string[];
	alias: string[];
}

const read = (path: string) =>
	JSON.parse(readFileSync(join(__dirname, '..', 'nodes', path), 'utf8')) as Codex;
const codexes = [
	{
		file: 'BotSailor/BotSailor.node.json',
		codex: read('BotSailor/BotSailor.node.json'),
		name: new BotSailor().description.name,
	},
	{
		file: 'BotSailorTrigger/BotSailorTrigger.node.json',
		codex: read('BotSailorTrigger/BotSailorTrigger.node.json'),
		name: new BotSailorTrigger().description.name,
	},
	{
		file: 'BotSailorWebhookTrigger/BotSailorWebhookTrigger.node.json',
		codex: read('BotSailorWebhookTrigger/BotSailorWebhookTrigger.node.json'),
		name: new BotSailorWebhookTrigger().description.name,
	},
];

/**
 * n8n's fixed list of codex categories (n8n docs `codex-files.md`, the node-cli template's `.agents/nodes.md`):
 * verification refuses any other, e.g. "Marketing" alone.
 */
const N8N_CATEGORIES = [
	'Data & Storage',
	'Finance & Accounting',
	'Marketing & Content',
	'Productivity',
	'Miscellaneous',
	'Sales',
	'Development',
	'Analytics',
	'Communication',
	'Utility',
];

/** The words a marketer types, and the white-label brand of the same software named in the project's sources (peers guide). */
const SEARCH_WORDS = [
	'WhatsApp',
	'message',
	'send message',
	'send text',
	'SMS',
	'subscriber',
	'contact',
	'broadcast',
	'template',
	'chatbot',
	'CRM',
	'GreenBubble',
];

describe.each(codexes)('codex $file', ({ codex, name }) => {
	it('belongs to the node (package name + node name)', () => {
		expect(codex.node).toBe(`n8n-nodes-botsailor.${name}`);
	});

	it("takes its categories from n8n's fixed list: Communication, Marketing & Content", () => {
		expect(codex.categories).toEqual(['Communication', 'Marketing & Content']);
		for (const category of codex.categories) expect(N8N_CATEGORIES).toContain(category);
	});

	it.each(SEARCH_WORDS)('has the search alias "%s"', (word) => {
		expect(codex.alias).toContain(word);
	});

	it('has no duplicate or blank aliases', () => {
		expect(codex.alias.every((alias) => alias.trim() === alias && alias !== '')).toBe(true);
		expect(new Set(codex.alias.map((alias) => alias.toLowerCase())).size).toBe(codex.alias.length);
	});
});

/**
 * The entries of n8n's node picker and the description each shows, by n8n's rule (editor-ui
 * features/shared/nodeCreator/composables/useActionsGeneration.ts, generateMergedNodesAndActions): a trigger
 * whose type name without "Trigger" is an action node's joins that node's entry, and the entry then shows
 * the TRIGGER's description (`app.description = trigger.description`), as n8n's Telegram and Telegram
 * Trigger do. Other triggers get entries of their own.
 */
function pickerEntries(types: Array<{ name: string; group: string[]; description: string }>) {
	const full = (name: string) => `n8n-nodes-botsailor.${name}`;
	const entries = new Map<string, string>();
	for (const type of types.filter((entry) => !entry.group.includes('trigger')))
		entries.set(full(type.name), type.description);
	for (const trigger of types.filter((entry) => entry.group.includes('trigger'))) {
		const app = full(trigger.name).replace('Trigger', '');
		entries.set(entries.has(app) ? app : full(trigger.name), trigger.description);
	}
	return entries;
}

describe("n8n's node picker", () => {
	const action = new BotSailor().description;
	const polling = new BotSailorTrigger().description;
	const webhook = new BotSailorWebhookTrigger().description;
	const entries = pickerEntries([action, polling, webhook]);

	it('shows the BotSailor entry (action node and polling trigger) with the action node’s own description first', () => {
		expect(entries.get('n8n-nodes-botsailor.botSailor')?.startsWith(action.description)).toBe(true);
		expect(action.description).toMatch(/^Send WhatsApp messages/);
	});

	it('shows the Webhook Trigger as its own entry, described as a trigger', () => {
		expect([...entries.keys()]).toEqual([
			'n8n-nodes-botsailor.botSailor',
			'n8n-nodes-botsailor.botSailorWebhookTrigger',
		]);
		expect(entries.get('n8n-nodes-botsailor.botSailorWebhookTrigger')).toMatch(
			/^Starts a workflow/,
		);
	});
});
