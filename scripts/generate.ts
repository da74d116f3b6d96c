/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a command-line script run with tsx (it writes files of the repository), not node code */
/**
 * `npm run generate` (gulp generate runs this with tsx): writes what is derived from the node descriptions, after an
 * operation, an option or an event is added or renamed. The tests that check these files only read them.
 * - the canvas subtitles in the three node files, and nodes/shared/parameters/displayNames.ts (scripts/subtitle.ts);
 * - the README's operations table, and every count of operations and resources the pages state
 *   (scripts/operations-table.ts);
 * - nodes/shared/http/readPaths.ts, the endpoints retried as reads (scripts/read-paths.ts);
 * - test/node/versions.json, additions only: a recorded entry is never rewritten (scripts/versions-record.ts).
 * Prints each file it changed; a second run changes nothing.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { withOperationsTable, withStatedCounts } from './operations-table';
import { readPathsSource } from './read-paths';
import {
	displayNamesModule,
	optionSubtitle,
	resourceOperationSubtitle,
	withSubtitle,
} from './subtitle';
import { currentRecord, withAdditions, type VersionsRecord } from './versions-record';

// tsx takes `X.node` for a native addon: the node files are named with their suffix.
const load = createRequire(__filename);
const { BotSailor } = load(
	'../nodes/BotSailor/BotSailor.node.ts',
) as typeof import('../nodes/BotSailor/BotSailor.node');
const { BotSailorTrigger } = load(
	'../nodes/BotSailorTrigger/BotSailorTrigger.node.ts',
) as typeof import('../nodes/BotSailorTrigger/BotSailorTrigger.node');
const { BotSailorWebhookTrigger } = load(
	'../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node.ts',
) as typeof import('../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node');

const ROOT = resolve(__dirname, '..');
const say = (text: string) => process.stdout.write(`${text}\n`);
const action = new BotSailor();
const { properties } = action.description;

/** Every generated file: its path from the root, and its text as generated from what it holds now. */
const GENERATED: Array<[string, (current: string) => string]> = [
	[
		'nodes/BotSailor/BotSailor.node.ts',
		(source) => withSubtitle(source, resourceOperationSubtitle(properties)),
	],
	[
		'nodes/BotSailorTrigger/BotSailorTrigger.node.ts',
		(source) =>
			withSubtitle(source, optionSubtitle(new BotSailorTrigger().description.properties, 'event')),
	],
	[
		'nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node.ts',
		(source) =>
			withSubtitle(
				source,
				optionSubtitle(new BotSailorWebhookTrigger().description.properties, 'event'),
			),
	],
	['nodes/shared/parameters/displayNames.ts', () => displayNamesModule(properties)],
	['README.md', (text) => withStatedCounts(withOperationsTable(text, properties), properties)],
	['CONTRIBUTING.md', (text) => withStatedCounts(text, properties)],
	...readdirSync(join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name): [string, (text: string) => string] => [
			`docs/${name}`,
			(text) => withStatedCounts(text, properties),
		]),
	['nodes/shared/http/readPaths.ts', () => readPathsSource()],
	[
		'test/node/versions.json',
		(text) => {
			const recorded: VersionsRecord = text ? JSON.parse(text) : {};
			return `${JSON.stringify(withAdditions(recorded, currentRecord(action)), null, '\t')}\n`;
		},
	],
];

let changed = 0;
for (const [path, generate] of GENERATED) {
	const file = join(ROOT, path);
	const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
	const next = generate(current);
	if (next === current) continue;
	writeFileSync(file, next);
	changed++;
	say(`generate: wrote ${path}`);
}
say(`generate: ${changed} file(s) changed, ${GENERATED.length - changed} already up to date`);
