/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test infrastructure runs in plain Node.js, not inside n8n */
/* Runs before each test file: keeps n8n-core's files out of the home folder. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setSafeRegexEngine } from 'n8n-workflow';

// Under the run's folder (test/harness/globalSetup.js), which the run removes at its end.
process.env.N8N_USER_FOLDER ??= mkdtempSync(
	join(process.env.BOTSAILOR_TEST_FOLDERS ?? tmpdir(), 'botsailor-n8n-'),
);
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
process.env.N8N_LOG_LEVEL ??= 'silent';

// n8n-workflow's default regex engine runs each regex of a parameter check (a resource locator's) in a vm with a
// 250 ms wall-clock limit: on a loaded 2-core machine an ordinary check outlasts it and the run fails with "Regular
// expression execution timed out" (seen in the operation catalog). The regexes are the node's own, fixed ones: the
// tests run them plainly, through the hook n8n-workflow offers for an engine of one's own.
setSafeRegexEngine({
	exec: (pattern, input, flags) => new RegExp(pattern, flags).exec(input),
	test: (pattern, input, flags) => new RegExp(pattern, flags).test(input),
	replace: (pattern, input, flags, replacement) =>
		input.replace(new RegExp(pattern, flags), replacement),
	matchAll: (pattern, input, flags) => [
		...input.matchAll(new RegExp(pattern, flags?.includes('g') ? flags : `${flags ?? ''}g`)),
	],
	split: (pattern, input, flags) => input.split(new RegExp(pattern, flags)),
});
