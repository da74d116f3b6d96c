/* A jest reporter: after the whole run, prints the reliability matrix totals (written by test/reliability/checks.ts). */
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

class ReliabilityTotals {
	onRunComplete() {
		const file = join(__dirname, 'RESULTS.md');
		if (!existsSync(file)) return;
		const rows = readFileSync(file, 'utf8').split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Category'));
		process.stdout.write(`\nReliability matrix (test/reliability/RESULTS.md):\n${rows.map((row) => `  ${row}`).join('\n')}\n`);
	}
}

module.exports = ReliabilityTotals;
