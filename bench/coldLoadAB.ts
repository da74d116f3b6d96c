/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- the bench is a command-line script in plain Node.js, not node code */
/**
 * Cold load of two builds of this package, taking turns in fresh Node processes, to compare a change with the
 * build before it on a machine that is not quiet (bench row 5 compares us with other packages instead).
 *
 *   npx tsx bench/coldLoadAB.ts <dist before> <dist after> [loads of each, default 41]
 *
 * Each load requires n8n-workflow first (n8n has it loaded), then times the `require` of the two nodes, the trigger
 * and the credential: CPU time (user + system, steady under other load) and wall time. Both dist folders must sit
 * inside this checkout (e.g. `.cache/ab/before`), so that they resolve n8n-workflow and zod from its node_modules.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const LOAD = `
require('n8n-workflow');
const cpu = process.cpuUsage();
const wall = process.hrtime.bigint();
const dist = process.argv[1];
for (const file of [
	'nodes/BotSailor/BotSailor.node.js',
	'nodes/BotSailorTrigger/BotSailorTrigger.node.js',
	'nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node.js',
	'credentials/BotSailorApi.credentials.js',
])
	require(dist + '/' + file);
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ cpu: (used.user + used.system) / 1000, wall: Number(process.hrtime.bigint() - wall) / 1e6 }));
`;

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const [before, after, count = '41'] = process.argv.slice(2);
if (!before || !after) {
	process.stderr.write(
		'usage: npx tsx bench/coldLoadAB.ts <dist before> <dist after> [loads of each]\n',
	);
	process.exit(2);
}
const builds = { before: resolve(before), after: resolve(after) };
const loads: Record<keyof typeof builds, Array<{ cpu: number; wall: number }>> = {
	before: [],
	after: [],
};
for (let turn = 0; turn < Number(count); turn++)
	for (const name of turn % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const))
		loads[name].push(
			JSON.parse(execFileSync(process.execPath, ['-e', LOAD, builds[name]], { encoding: 'utf8' })),
		);
const summary = (name: keyof typeof builds) => ({
	cpu: median(loads[name].map((load) => load.cpu)),
	wall: median(loads[name].map((load) => load.wall)),
});
const [was, now] = [summary('before'), summary('after')];
process.stdout.write(
	[
		`loads of each: ${count}, medians (ms)`,
		`before: CPU ${was.cpu.toFixed(1)}, wall ${was.wall.toFixed(1)}`,
		`after:  CPU ${now.cpu.toFixed(1)}, wall ${now.wall.toFixed(1)}`,
		`after / before: CPU ${(now.cpu / was.cpu).toFixed(2)}, wall ${(now.wall / was.wall).toFixed(2)}`,
	].join('\n') + '\n',
);
