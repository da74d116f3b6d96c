/*
 * A jest reporter: says at once how many test files will run and, as each file finishes, how many are done and the
 * time so far (on stderr, next to the default reporter's lines), so `npm test` is never silent for minutes: the first
 * files take a while because ts-jest compiles them.
 */
class Progress {
	onRunStart(results) {
		this.started = Date.now();
		this.done = 0;
		this.total = results.numTotalTestSuites;
		process.stderr.write(
			`jest: ${this.total} test files; the first results come once ts-jest has compiled them (about a minute) …\n`,
		);
	}

	onTestFileResult(test, result) {
		this.done++;
		const seconds = Math.round((Date.now() - this.started) / 1000);
		const failed = result.numFailingTests || result.testExecError ? ' FAILED' : '';
		process.stderr.write(`jest: [${this.done}/${this.total}] ${seconds} s${failed}\n`);
	}
}

module.exports = Progress;
