/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads package.json, the publish workflow and the sources in plain Node.js */
/**
 * The evidence docs/verification.md gives for n8n's verification requirements, where a file can show it: the
 * package's metadata, no runtime dependency, no lint ignore in the node code, the provenance publish, and
 * builderHint texts that name only operations and events the nodes have.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { BotSailor } from '../nodes/BotSailor/BotSailor.node';
import { BotSailorTrigger } from '../nodes/BotSailorTrigger/BotSailorTrigger.node';
import { BotSailorWebhookTrigger } from '../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node';

const ROOT = join(__dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
	name: string;
	keywords: string[];
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	repository: { url: string };
	homepage: string;
	n8n: { strict: boolean; nodes: string[]; credentials: string[] };
	scripts: Record<string, string>;
};

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? filesUnder(path) : [path];
	});
}

const optionValues = (description: INodeTypeDescription, name: string) =>
	description.properties
		.filter((property) => property.name === name)
		.flatMap((property) => (property.options ?? []) as INodePropertyOptions[])
		.map((option) => String(option.value));

describe('verification evidence (docs/verification.md)', () => {
	it('is an n8n community package built with n8n-node, strict', () => {
		expect(pkg.name).toMatch(/^n8n-nodes-/);
		expect(pkg.keywords).toContain('n8n-community-node-package');
		expect(pkg.n8n.strict).toBe(true);
		expect(pkg.n8n.nodes).toHaveLength(3);
		expect(pkg.n8n.credentials).toHaveLength(1);
		expect(pkg.scripts.lint).toBe('n8n-node lint');
		expect(pkg.scripts.build).toContain('n8n-node build');
		expect(pkg.scripts.scan).toContain('scripts/scan.mjs');
	});

	it('has no runtime dependencies; n8n-workflow is its only peer', () => {
		expect(Object.keys(pkg.dependencies ?? {})).toEqual([]);
		expect(Object.keys(pkg.peerDependencies ?? {})).toEqual(['n8n-workflow']);
	});

	it('the repository and the homepage name the same GitHub repository', () => {
		const repo = /github\.com\/([^/]+\/[^/#.]+)/.exec(pkg.repository.url)?.[1];
		expect(repo).toBeDefined();
		expect(pkg.homepage).toContain(`github.com/${repo}`);
	});

	it('no lint ignore in nodes/ or credentials/ (n8n lints them with inline configuration off)', () => {
		const files = [...filesUnder(join(ROOT, 'nodes')), ...filesUnder(join(ROOT, 'credentials'))];
		expect(files.length).toBeGreaterThan(50);
		const ignoring = files.filter((file) =>
			/eslint-disable|eslint-enable/.test(readFileSync(file, 'utf8')),
		);
		expect(ignoring).toEqual([]);
	});

	it('publishes from GitHub Actions with npm provenance after the release check', () => {
		const workflow = read('.github/workflows/publish.yml');
		expect(workflow).toMatch(/^\s*id-token: write/m);
		expect(workflow).toMatch(/^\s*run: bash scripts\/release-check\.sh/m);
		expect(workflow).toMatch(/npm publish --provenance/);
		expect(read('scripts/release-check.sh')).toMatch(/npm run scan/);
		expect(read('scripts/release-check.sh')).toMatch(/^node scripts\/size-budget\.mjs$/m);
	});

	it('the action node and both triggers carry a builderHint for n8n’s AI workflow builder', () => {
		const nodes = [new BotSailor(), new BotSailorTrigger(), new BotSailorWebhookTrigger()];
		const names = nodes.map((node) => `${pkg.name}.${node.description.name}`);
		for (const { description } of nodes) {
			expect(description.builderHint?.searchHint).toEqual(expect.stringMatching(/\S{20}/));
			const related = description.builderHint?.relatedNodes ?? [];
			expect(related.length).toBeGreaterThan(0);
			for (const { nodeType } of related) expect(names).toContain(nodeType);
		}
	});

	it('the action node’s hint names only resource/operation pairs the node has', () => {
		const { description } = new BotSailor();
		const resources = optionValues(description, 'resource');
		const pairs = new Set(
			description.properties
				.filter((property) => property.name === 'operation')
				.flatMap((property) =>
					(property.displayOptions?.show?.resource ?? []).flatMap((resource) =>
						((property.options ?? []) as INodePropertyOptions[]).map(
							(option) => `${String(resource)}/${String(option.value)}`,
						),
					),
				),
		);
		const hint = description.builderHint?.searchHint ?? '';
		const named = [...hint.matchAll(/\b([a-z][A-Za-z]+)\/([a-z][A-Za-z]+)\b/g)].map((m) => m[0]);
		expect(named.length).toBeGreaterThan(5);
		expect(named.filter((pair) => !pairs.has(pair))).toEqual([]);
		// "subscriber/get, create, update": the operations listed after a pair belong to its resource.
		for (const [, resource, rest] of hint.matchAll(
			/\b([a-z][A-Za-z]+)\/[a-z][A-Za-z]+((?:, [a-z][A-Za-z]+)+)/g,
		)) {
			expect(resources).toContain(resource);
			for (const operation of rest.split(', ').filter(Boolean))
				expect(pairs).toContain(`${resource}/${operation.replace(/ and .*/, '')}`);
		}
	});

	it('the triggers’ hints name only events the triggers have', () => {
		for (const { description } of [new BotSailorTrigger(), new BotSailorWebhookTrigger()]) {
			const events = optionValues(description, 'event');
			const others = optionValues(
				description.name === 'botSailorTrigger'
					? new BotSailorWebhookTrigger().description
					: new BotSailorTrigger().description,
				'event',
			);
			const hint = description.builderHint?.searchHint ?? '';
			// camelCase words that are event values of either trigger (the hint may point to the other one's event)
			const named = [...hint.matchAll(/\b[a-z]+[A-Z][A-Za-z]+\b/g)]
				.map((m) => m[0])
				.filter((word) => !word.includes('/'));
			expect(named.filter((word) => events.includes(word)).length).toBeGreaterThan(2);
			expect(
				named.filter(
					(word) =>
						!events.includes(word) && !others.includes(word) && !/^(send|get|message)/.test(word),
				),
			).toEqual([]);
		}
	});
});
