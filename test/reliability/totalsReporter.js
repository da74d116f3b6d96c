/*
 * A jest reporter: at the end of a run in which every reliability file (test/reliability/*.test.ts) ran and
 * passed, writes RESULTS.md from the tallies those files saved in this run (results/*.json), and prints it.
 * A partial run (one file, a filter, a failure) writes nothing, so the file only ever holds one complete run.
 * RESULTS.md and results/ are not tracked: they are what the last complete run on this machine measured.
 */
const { existsSync, readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

class ReliabilityTotals {
	onRunComplete(_contexts, results) {
		const files = readdirSync(__dirname).filter((name) => name.endsWith('.test.ts'));
		const ran = new Map(results.testResults.map((result) => [result.testFilePath, result]));
		const complete = files.every((name) => {
			const result = ran.get(join(__dirname, name));
			return (
				result &&
				result.numFailingTests === 0 &&
				!result.testExecError &&
				result.numPendingTests === 0
			);
		});
		if (!complete) {
			if (files.some((name) => ran.has(join(__dirname, name))))
				process.stdout.write('\nReliability matrix: partial run, RESULTS.md not written.\n');
			return;
		}
		const rows = [];
		let tried = 0;
		let failed = 0;
		let distinct = 0;
		for (const name of files.map((file) => file.replace(/\.test\.ts$/, ''))) {
			const path = join(__dirname, 'results', `${name}.json`);
			const saved = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
			if (!saved || Date.parse(saved.at) < results.startTime) {
				process.stdout.write(
					`\nReliability matrix: ${name} saved no tally in this run, RESULTS.md not written.\n`,
				);
				return;
			}
			for (const [category, counts] of Object.entries(saved.tally)) {
				const behaviours = counts.behaviours.length;
				rows.push(
					`| ${category} | ${counts.tried} | ${behaviours || '–'} | ${counts.failed} | ${name} |`,
				);
				tried += counts.tried;
				failed += counts.failed;
				distinct += behaviours;
			}
		}
		const markdown = [
			'# Reliability matrix results',
			'',
			`Written by a complete \`npm test\` run on ${new Date(results.startTime).toISOString().slice(0, 10)} (test/reliability/*.test.ts; not tracked).`,
			'"Distinct behaviours": the different outcomes the cases of a row produced, each an error of one code path',
			'with the operation name and numbers taken out (– where a row counts checks, not outcomes).',
			'',
			'| Category | Cases run | Distinct behaviours | Failures | Test file |',
			'|---|---|---|---|---|',
			...rows,
			`| **Total** | **${tried}** | **${distinct}** | **${failed}** | |`,
			'',
		].join('\n');
		writeFileSync(join(__dirname, 'RESULTS.md'), markdown);
		process.stdout.write(
			`\nReliability matrix (test/reliability/RESULTS.md):\n${rows.map((row) => `  ${row}`).join('\n')}\n  total: ${tried} cases, ${distinct} distinct behaviours, ${failed} failures\n`,
		);
	}
}

module.exports = ReliabilityTotals;
