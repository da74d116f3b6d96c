#!/usr/bin/env node
/*
 * Moves the helper modules out of the `shared/` and `lib/` drawers into named wings (issue 43, point 3), and rewrites
 * every reference to a moved file: relative imports, require() and jest.mock() paths, and the file paths that comments,
 * strings and the Markdown pages name. Plain Node, no dependencies; run from anywhere in the checkout:
 *
 *   node scripts/wings.mjs            # move and rewrite
 *   node scripts/wings.mjs --dry-run  # print what it would do, change nothing
 *   node scripts/wings.mjs --map OLD=NEW  # one more move (paths from the root), for a file added since
 *
 * Idempotent: a second run finds nothing to move and nothing to rewrite. Tolerant: a mapped file that is missing is
 * reported, not fatal; a file that is not mapped stays where it is and its references are still rewritten; a file in a
 * drawer that the mapping does not name follows its folder's default (printed), or stays and is reported.
 * CHANGELOG.md is history and is left alone.
 */
import { execFileSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmdirSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2);
const DRY = args.includes('--dry-run');

const SHARED = 'nodes/shared';
const ACTION = 'nodes/BotSailor';

/** Every helper module, old path → new path. A rename is named here too (near-homonyms get distinct names). */
const MOVES = {
	// the parameters wing (shared): what users type and how the node's own parameters read
	[`${SHARED}/values.ts`]: `${SHARED}/parameters/values.ts`,
	[`${SHARED}/jsonStrings.ts`]: `${SHARED}/parameters/jsonStrings.ts`,
	[`${SHARED}/inputs.ts`]: `${SHARED}/parameters/inputs.ts`,
	[`${SHARED}/parameters.ts`]: `${SHARED}/parameters/locatorValue.ts`,
	[`${SHARED}/displayNames.ts`]: `${SHARED}/parameters/displayNames.ts`,
	[`${SHARED}/operationLabel.ts`]: `${SHARED}/parameters/operationLabel.ts`,
	[`${SHARED}/matching.ts`]: `${SHARED}/parameters/matching.ts`,
	// the http wing (shared): the credential, the one door every request goes through, what an answer and a failure mean
	[`${SHARED}/credential.ts`]: `${SHARED}/http/credential.ts`,
	[`${SHARED}/credentialTest.ts`]: `${SHARED}/http/credentialTest.ts`,
	[`${SHARED}/transport.ts`]: `${SHARED}/http/transport.ts`,
	[`${SHARED}/envelope.ts`]: `${SHARED}/http/envelope.ts`,
	[`${SHARED}/failures.ts`]: `${SHARED}/http/failures.ts`,
	[`${SHARED}/retry.ts`]: `${SHARED}/http/retry.ts`,
	[`${SHARED}/readPaths.ts`]: `${SHARED}/http/readPaths.ts`,
	[`${SHARED}/listText.ts`]: `${SHARED}/http/listText.ts`,
	[`${SHARED}/listOrder.ts`]: `${SHARED}/http/listOrder.ts`,
	[`${SHARED}/pages.ts`]: `${SHARED}/http/lastPage.ts`,
	[`${SHARED}/platformTime.ts`]: `${SHARED}/http/platformTime.ts`,
	// the conversation wing (shared): a subscriber's conversation and the messages in it
	[`${SHARED}/conversation.ts`]: `${SHARED}/conversation/conversation.ts`,
	[`${SHARED}/messageContent.ts`]: `${SHARED}/conversation/messageContent.ts`,
	[`${SHARED}/messageItem.ts`]: `${SHARED}/conversation/messageItem.ts`,
	// the whatsapp wing (shared): WhatsApp's rules (the 24-hour window, its limits, its media) and the WhatsApp Number field
	[`${SHARED}/sessionWindow.ts`]: `${SHARED}/whatsapp/sessionWindow.ts`,
	[`${SHARED}/whatsAppLimits.ts`]: `${SHARED}/whatsapp/whatsAppLimits.ts`,
	[`${SHARED}/whatsAppNumber.ts`]: `${SHARED}/whatsapp/whatsAppNumber.ts`,
	[`${SHARED}/mediaTypes.ts`]: `${SHARED}/whatsapp/mediaRules.ts`,
	[`${SHARED}/media.ts`]: `${SHARED}/whatsapp/mediaDownload.ts`,
	// the triggers wing (shared): what the two triggers share
	[`${SHARED}/deliveryMemory.ts`]: `${SHARED}/triggers/deliveryMemory.ts`,
	[`${SHARED}/triggerOptions.ts`]: `${SHARED}/triggers/triggerOptions.ts`,
	// the running wing (BotSailor): how an operation that is not a send runs and outputs
	[`${ACTION}/shared/operationRequest.ts`]: `${ACTION}/running/operationRequest.ts`,
	[`${ACTION}/shared/requestOptions.ts`]: `${ACTION}/running/requestOptions.ts`,
	[`${ACTION}/shared/output.ts`]: `${ACTION}/running/outputItems.ts`,
	[`${ACTION}/shared/itemOutput.ts`]: `${ACTION}/running/itemResult.ts`,
	[`${ACTION}/shared/pagination.ts`]: `${ACTION}/running/pagination.ts`,
	[`${ACTION}/shared/steps.ts`]: `${ACTION}/running/steps.ts`,
	// the reading wing (BotSailor): what the action node reads for a caller (statuses, opt-outs, transcripts)
	[`${ACTION}/shared/messageStatus.ts`]: `${ACTION}/reading/messageStatus.ts`,
	[`${ACTION}/shared/optOut.ts`]: `${ACTION}/reading/optOut.ts`,
	[`${ACTION}/shared/transcript.ts`]: `${ACTION}/reading/transcript.ts`,
	// the sending wing (BotSailor): the sends, their drivers, their delivery policy and their options
	[`${ACTION}/shared/sendDefinition.ts`]: `${ACTION}/sending/sendDefinition.ts`,
	[`${ACTION}/shared/sendItem.ts`]: `${ACTION}/sending/sendItem.ts`,
	[`${ACTION}/shared/sendRecord.ts`]: `${ACTION}/sending/sendRecord.ts`,
	[`${ACTION}/shared/bulkSend.ts`]: `${ACTION}/sending/bulkSend.ts`,
	[`${ACTION}/shared/declarativeSend.ts`]: `${ACTION}/sending/declarativeSend.ts`,
	[`${ACTION}/shared/delivery.ts`]: `${ACTION}/sending/delivery.ts`,
	[`${ACTION}/shared/deliveryWait.ts`]: `${ACTION}/sending/deliveryWait.ts`,
	[`${ACTION}/shared/limiter.ts`]: `${ACTION}/sending/limiter.ts`,
	[`${ACTION}/shared/pace.ts`]: `${ACTION}/sending/pace.ts`,
	[`${ACTION}/shared/windowSend.ts`]: `${ACTION}/sending/windowSend.ts`,
	[`${ACTION}/shared/skipOptedOut.ts`]: `${ACTION}/sending/skipOptedOut.ts`,
	[`${ACTION}/shared/replyGuards.ts`]: `${ACTION}/sending/replyGuards.ts`,
	[`${ACTION}/shared/templateVariables.ts`]: `${ACTION}/sending/templateVariables.ts`,
	[`${ACTION}/shared/upload.ts`]: `${ACTION}/sending/upload.ts`,
	// the Media Type option of Send Media and Send Buttons (a near-homonym of the media wing's modules)
	[`${ACTION}/resources/message/mediaType.ts`]: `${ACTION}/resources/message/mediaOptions.ts`,
	// the polling trigger's reads (its conversation reader, a near-homonym of the shared one, renamed)
	['nodes/BotSailorTrigger/lib/conversation.ts']:
		'nodes/BotSailorTrigger/polling/conversationReads.ts',
};

/**
 * Folders that move whole: every file under the old folder that MOVES does not name goes to the same place under the
 * new one (files added by others follow their folder). `warn` marks a default that is a guess, printed for review.
 */
const FOLDERS = [
	{ from: `${ACTION}/shared/sendAndWait`, to: `${ACTION}/sendAndWait` },
	{ from: 'nodes/BotSailorTrigger/lib', to: 'nodes/BotSailorTrigger/polling' },
	{ from: 'nodes/BotSailorWebhookTrigger/lib', to: 'nodes/BotSailorWebhookTrigger/payload' },
	{ from: `${ACTION}/shared`, to: `${ACTION}/sending`, warn: true },
];

for (let i = 0; i < args.length; i++) {
	if (args[i] !== '--map') continue;
	const [from, to] = (args[++i] ?? '').split('=');
	if (!from || !to) throw new Error('--map wants old/path.ts=new/path.ts');
	MOVES[from] = to;
}

const log = (line) => console.log(line);
const rel = (abs) => relative(ROOT, abs).split('\\').join('/');
const abs = (path) => join(ROOT, path);

const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage', '.cache', 'test-results']);
/** History (names files as they were then), the lockfile, and this script (its mapping names the old paths). */
const SKIP_FILES = new Set(['CHANGELOG.md', 'package-lock.json', 'scripts/wings.mjs']);
const TEXT = /\.(ts|js|mjs|cjs|md|json|sh|ya?ml)$/;
const CODE = /\.(ts|js|mjs|cjs)$/;

function walk(dir) {
	if (!existsSync(dir)) return [];
	return readdirSync(dir).flatMap((name) => {
		if (SKIP_DIRS.has(name)) return [];
		const path = join(dir, name);
		return statSync(path).isDirectory() ? walk(path) : [path];
	});
}

// 1. The moves: the mapping, the folders' defaults, and what is already done or missing.
const moves = new Map(); // old → new, for files that exist at old
const done = [];
const missing = [];
const byDefault = [];
const mapped = new Map(Object.entries(MOVES));
for (const folder of FOLDERS) {
	for (const file of walk(abs(folder.from))) {
		const path = rel(file);
		if (mapped.has(path)) continue;
		const rest = path.slice(folder.from.length + 1);
		// A file of a folder that moves whole keeps its place in it; the drawer's loose files go to the default wing.
		if (folder.warn && rest.includes('/')) continue;
		mapped.set(path, `${folder.to}/${rest}`);
		byDefault.push(
			`${path} → ${folder.to}/${rest}${folder.warn ? '  (a guess: check its wing)' : ''}`,
		);
	}
}
for (const [from, to] of mapped) {
	const fromThere = existsSync(abs(from));
	const toThere = existsSync(abs(to));
	if (fromThere && toThere) missing.push(`${from}: both it and ${to} exist; left alone`);
	else if (fromThere) moves.set(from, to);
	else if (toThere) done.push(from);
	else missing.push(`${from}: not found (nor ${to})`);
}

// 2. Where each file is now and will be: every file of the tree, the moved ones at their new place.
const files = walk(ROOT)
	.map(rel)
	.filter((path) => TEXT.test(path) && !SKIP_FILES.has(path));
const newPathOf = (path) => moves.get(path) ?? path;
const existing = new Set(walk(ROOT).map(rel));

/** The file a relative specifier names from `fromFile` (in today's tree), and how it was written. */
function resolveSpecifier(fromFile, specifier) {
	const base = posix.normalize(posix.join(posix.dirname(fromFile), specifier));
	if (existing.has(base)) return { target: base, suffix: '' };
	for (const ext of ['.ts', '.js', '.mjs', '.cjs', '.json'])
		if (existing.has(base + ext)) return { target: base + ext, suffix: ext };
	for (const index of ['/index.ts', '/index.js'])
		if (existing.has(base + index)) return { target: base + index, suffix: index };
	return undefined;
}

/** The specifier that names `target` (at its new place) from `fromFile` (at its new place), written as before. */
function specifierFor(fromFile, target, suffix) {
	let path = posix.relative(posix.dirname(newPathOf(fromFile)), newPathOf(target));
	if (suffix && path.endsWith(suffix)) path = path.slice(0, -suffix.length);
	return path.startsWith('.') ? path : `./${path}`;
}

const IMPORT =
	/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*(?:\.\s*resolve\s*)?\(\s*|\bjest\s*\.\s*(?:mock|doMock|unmock|requireActual|requireMock)\s*\(\s*)(['"])(\.\.?\/[^'"\n]*)\2/g;

function rewriteImports(file, text) {
	return text.replace(IMPORT, (whole, head, quote, specifier) => {
		const found = resolveSpecifier(file, specifier);
		if (!found) return whole;
		const next = specifierFor(file, found.target, found.suffix);
		return next === specifier ? whole : `${head}${quote}${next}${quote}`;
	});
}

// 3. The names a text may use for a moved file: its path from the root, or a tail of it ("shared/retry.ts"),
// each rewritten to the same tail of the new path; a bare file name only where the file is renamed and the name is
// unique. A tail that could name two files with different new tails, or that an unmoved file also ends with, is not used.
const unmoved = [...existing].filter((path) => !moves.has(path) && !mapped.has(path));
const tails = new Map(); // old mention → new mention (undefined: ambiguous)
const addTail = (from, to) => {
	if (from === to) return;
	if (tails.has(from) && tails.get(from) !== to) tails.set(from, undefined);
	else tails.set(from, to);
};
const allMoves = [...mapped].filter(
	([from]) => !missing.some((line) => line.startsWith(`${from}:`)),
);
/** Folders that move whole are named as folders too ("sendAndWait/"); a bare folder name is never rewritten. */
const folderMoves = FOLDERS.filter((folder) => !folder.warn).map((folder) => [
	`${folder.from}/`,
	`${folder.to}/`,
]);
for (const [from, to] of [...allMoves, ...folderMoves]) {
	const isFolder = from.endsWith('/');
	const parts = (isFolder ? from.slice(0, -1) : from).split('/');
	for (let k = parts.length; k >= 1; k--) {
		const tail = parts.slice(parts.length - k).join('/') + (isFolder ? '/' : '');
		if (unmoved.some((path) => path === tail || path.endsWith(`/${tail}`))) continue;
		if (k === 1 && isFolder) continue;
		if (k === 1) {
			const renamed = posix.basename(to) !== tail;
			const sameName = [...existing, ...allMoves.map(([f]) => f)].filter(
				(path) => posix.basename(path) === tail,
			);
			if (renamed && new Set(sameName).size === 1) addTail(tail, posix.basename(to));
			continue;
		}
		const anchor = parts.slice(0, parts.length - k);
		const toParts = (isFolder ? to.slice(0, -1) : to).split('/');
		let common = 0;
		while (common < anchor.length && anchor[common] === toParts[common]) common++;
		addTail(tail, toParts.slice(common).join('/') + (isFolder ? '/' : ''));
	}
}
const ambiguous = [...tails].filter(([, to]) => to === undefined).map(([from]) => from);
const usable = [...tails]
	.filter(([, to]) => to !== undefined)
	.sort(([a], [b]) => b.length - a.length);
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
// Not inside a longer name or path: no word character, dot or hyphen before it, and no "/" unless it follows "..".
const MENTION = usable.length
	? new RegExp(
			`(?<![\\w.\\-])(?<![^.]\\/)(?<!^\\/)(${usable.map(([from]) => escape(from)).join('|')})(?![\\w\\-])`,
			'gm',
		)
	: undefined;
const tailTo = new Map(usable);

/** A path written as quoted segments, as path.join takes them: 'nodes', 'shared', 'retry.ts'. */
const SEGMENTS = /(['"])[\w.-]+\1(?:\s*,\s*(['"])[\w.-]+\2)+/g;

function rewriteSegments(text) {
	return text.replace(SEGMENTS, (whole) => {
		const quote = whole[0];
		const segments = [...whole.matchAll(/['"]([\w.-]+)['"]/g)].map((match) => match[1]);
		for (let i = 0; i < segments.length - 1; i++) {
			const to = tailTo.get(segments.slice(i).join('/'));
			if (to === undefined || to.endsWith('/')) continue;
			return [...segments.slice(0, i), ...to.split('/')]
				.map((segment) => `${quote}${segment}${quote}`)
				.join(', ');
		}
		return whole;
	});
}

function rewriteMentions(text) {
	const named = MENTION ? text.replace(MENTION, (whole) => tailTo.get(whole) ?? whole) : text;
	return rewriteSegments(named);
}

// 4. The wings' own description (CONTRIBUTING.md) and their layering rules (test/structure.test.ts).
const WINGS_TEXT = `- The helper modules stand in named wings, each importing only the wings below it (\`test/structure.test.ts\`
  keeps it so). Shared by the three nodes and the credential, from the ground up: \`nodes/shared/parameters/\`
  (what users type: \`inputs.ts\`, \`values.ts\`, \`jsonStrings.ts\`, the display names), \`nodes/shared/http/\` (the
  credential, \`transport.ts\`, the one door every API request goes through, \`envelope.ts\`, \`failures.ts\`, \`retry.ts\`,
  paging), \`nodes/shared/conversation/\` (the one conversation reader and its rows), \`nodes/shared/whatsapp/\`
  (WhatsApp's rules: the 24-hour window, its limits, its media) and \`nodes/shared/triggers/\` (what both triggers
  share). In the action node: \`nodes/BotSailor/running/\` (how an operation runs and outputs: the request hook,
  pagination, steps), \`nodes/BotSailor/reading/\` (statuses, opt-outs, transcripts), \`nodes/BotSailor/sending/\` (the
  sends' definitions, their bulk and declarative drivers, the delivery policy, pace, Wait for Delivery, uploads) and
  \`nodes/BotSailor/sendAndWait/\`. The triggers keep their own: \`nodes/BotSailorTrigger/polling/\`,
  \`nodes/BotSailorWebhookTrigger/payload/\`.
`;

function placeWingsText(text) {
	if (text.includes('stand in named wings')) return { text, placed: 'already' };
	const start = text.indexOf('- `nodes/shared/`: what the three nodes and the credential share');
	const end = start < 0 ? -1 : text.indexOf('\n- ', start + 1);
	if (start < 0 || end < 0) return { text, placed: false };
	let next = `${text.slice(0, start)}${WINGS_TEXT}${text.slice(end + 1)}`;
	next = next.replace(
		/; `nodes\/BotSailor\/shared\/`:\n\s*the action node's engine \([^)]*\)\./,
		" (the action node's helpers stand in its wings, below).",
	);
	return { text: next, placed: true };
}

const STRUCTURE_MARK = '// The wings (issue 43):';
const STRUCTURE_TESTS = `
${STRUCTURE_MARK} the folders the helper modules stand in, from the ground up, each with the wings it may import
// besides itself. A node's own files (its node file, resources/, methods/, events/) stand above every wing.
const SHARED_WINGS = ['parameters', 'http', 'conversation', 'whatsapp', 'triggers'].map((wing) => \`nodes/shared/\${wing}\`);
const WINGS: Record<string, string[]> = {
	'nodes/shared/parameters': [],
	'nodes/shared/http': ['nodes/shared/parameters'],
	'nodes/shared/conversation': ['nodes/shared/parameters', 'nodes/shared/http'],
	'nodes/shared/whatsapp': ['nodes/shared/parameters', 'nodes/shared/http', 'nodes/shared/conversation'],
	'nodes/shared/triggers': ['nodes/shared/parameters', 'nodes/shared/http'],
	'nodes/BotSailor/running': SHARED_WINGS,
	'nodes/BotSailor/reading': [...SHARED_WINGS, 'nodes/BotSailor/running'],
	'nodes/BotSailor/sending': [...SHARED_WINGS, 'nodes/BotSailor/running', 'nodes/BotSailor/reading'],
	'nodes/BotSailor/sendAndWait': [
		...SHARED_WINGS,
		'nodes/BotSailor/running',
		'nodes/BotSailor/reading',
		'nodes/BotSailor/sending',
	],
	'nodes/BotSailorTrigger/polling': SHARED_WINGS,
	'nodes/BotSailorWebhookTrigger/payload': SHARED_WINGS,
};
const wingOf = (file: string) =>
	Object.keys(WINGS).find((wing) => name(file).startsWith(\`\${wing}/\`));

describe('wings', () => {
	it('every wing holds modules, and no helper is left in a drawer (nodes/shared/ itself, a shared/ or lib/ folder of a node)', () => {
		for (const wing of Object.keys(WINGS))
			expect([wing, files.filter((file) => wingOf(file) === wing).length]).not.toEqual([wing, 0]);
		const loose = files
			.map(name)
			.filter(
				(path) =>
					/^nodes\\/shared\\/[^/]+$/.test(path) || /^nodes\\/[^/]+\\/(shared|lib)\\//.test(path),
			);
		expect(loose).toEqual([]);
	});

	it('no import runs upward: a wing imports only itself and the wings below it', () => {
		const upward = [...graph].flatMap(([file, targets]) => {
			const from = wingOf(file);
			if (from === undefined) return [];
			return targets
				.filter((target) => {
					const to = wingOf(target);
					return to !== from && (to === undefined || !WINGS[from].includes(to));
				})
				.map((target) => \`\${name(file)} → \${name(target)}\`);
		});
		expect(upward).toEqual([]);
	});
});
`;

function patchStructureTest(text) {
	if (text.includes(STRUCTURE_MARK)) return text;
	return (
		text
			.replace(
				'the nodes share code through nodes/shared/, not through each other.',
				'the nodes share code through nodes/shared/, not through each other.\n * The helper modules stand in named wings; no import runs from a lower wing to a higher one.',
			)
			.trimEnd() +
		'\n' +
		STRUCTURE_TESTS
	);
}

// 5. Apply: compute every new text in today's tree, then move, then write.
const changes = new Map(); // new path → new text
for (const file of files) {
	const text = readFileSync(abs(file), 'utf8');
	let next = CODE.test(file) ? rewriteImports(file, text) : text;
	next = rewriteMentions(next);
	if (file === 'test/structure.test.ts') next = patchStructureTest(next);
	if (file === 'CONTRIBUTING.md') {
		const placed = placeWingsText(next);
		next = placed.text;
		if (placed.placed === false)
			missing.push(
				'CONTRIBUTING.md: the nodes/shared/ paragraph was not found; place the wings text by hand',
			);
	}
	if (next !== text) changes.set(newPathOf(file), next);
}

log(
	`wings: ${moves.size} to move, ${done.length} already moved${DRY ? ' (dry run: nothing changed)' : ''}`,
);
for (const line of byDefault) log(`  by folder default: ${line}`);
for (const [from, to] of moves) {
	log(`  git mv ${from} ${to}`);
	if (DRY) continue;
	mkdirSync(dirname(abs(to)), { recursive: true });
	execFileSync('git', ['mv', from, to], { cwd: ROOT });
}
for (const [path, text] of changes) {
	log(`  rewrote ${path}`);
	if (!DRY) writeFileSync(abs(path), text);
}
// The drawers a move emptied go too (git keeps no empty folder, but the work tree would).
for (const folder of new Set([...moves.keys()].map((path) => dirname(abs(path))))) {
	if (DRY) break;
	for (
		let dir = folder;
		dir !== ROOT && existsSync(dir) && readdirSync(dir).length === 0;
		dir = dirname(dir)
	)
		rmdirSync(dir);
}
for (const line of missing) log(`  NOT DONE: ${line}`);
if (ambiguous.length)
	log(`  names left as they were (they could mean two files): ${ambiguous.join(', ')}`);
// Rewritten import lines can change their length: format what was written, with the project's own Prettier.
const prettier = abs('node_modules/.bin/prettier');
const code = [...changes.keys()].filter((path) => /\.(ts|js|mjs|cjs)$/.test(path));
if (!DRY && code.length && existsSync(prettier)) {
	execFileSync(prettier, ['--write', '--log-level', 'warn', ...code], {
		cwd: ROOT,
		stdio: 'inherit',
	});
	log(`  formatted ${code.length} file(s) with Prettier`);
}
log(
	`wings: ${changes.size} file(s) rewritten, ${moves.size} moved${missing.length ? `, ${missing.length} not done` : ''}`,
);
