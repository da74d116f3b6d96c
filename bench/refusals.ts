/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- the bench is a command-line script in plain Node.js, not node code */
/**
 * Bench row 10's line for Meta's refusals alone (bench/pace.ts refusalRow; `npm run bench` runs it with row 10):
 * `npx tsx bench/refusals.ts` with the environment variable BENCH_ITEMS=<n> (default 2,000). Prints the row; writes nothing.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'botsailor-bench-'));
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';

import { startSimProcess } from './lib';
import { refusalRow } from './pace';

async function main() {
	const sim = await startSimProcess();
	try {
		const row = await refusalRow(sim, {
			items: Number(process.env.BENCH_ITEMS ?? 2_000),
			phoneNumberId: '104382179270221',
			log: (text) => process.stderr.write(`bench: ${text}\n`),
		});
		process.stdout.write(`| ${row.join(' | ')} |\n`);
	} finally {
		await sim.stop();
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		process.stderr.write(`bench failed: ${(error as Error).stack}\n`);
		process.exit(1);
	},
);
