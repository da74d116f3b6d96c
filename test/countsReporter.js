/*
 * A jest reporter: at the end of a run, the test counts apart — the package's own tests (its nodes in n8n's engine,
 * its scripts and documents) and the simulator's contract tests (test/simulator/: the simulator against the spec,
 * no node code runs), so that a count quoted for the package never includes the simulator's.
 */
const { sep } = require('node:path');

class TestCounts {
	onRunComplete(_contexts, results) {
		const simulatorDir = `${sep}test${sep}simulator${sep}`;
		const tally = {
			package: { passed: 0, failed: 0, skipped: 0 },
			simulator: { passed: 0, failed: 0, skipped: 0 },
		};
		for (const file of results.testResults) {
			const bucket = file.testFilePath.includes(simulatorDir) ? tally.simulator : tally.package;
			bucket.passed += file.numPassingTests;
			bucket.failed += file.numFailingTests;
			bucket.skipped += file.numPendingTests + file.numTodoTests;
		}
		const line = ({ passed, failed, skipped }) =>
			`${passed} passed, ${failed} failed, ${skipped} skipped`;
		process.stdout.write(
			`\nTest counts: the package's own tests ${line(tally.package)}; the simulator's contract tests (test/simulator/, no node code) ${line(tally.simulator)}\n`,
		);
	}
}

module.exports = TestCounts;
