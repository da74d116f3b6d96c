/** Tests run the nodes inside n8n-core's real engine against the in-process API simulator. */
const { availableParallelism } = require('node:os');

module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	setupFiles: ['<rootDir>/test/harness/env.ts'],
	globalSetup: '<rootDir>/test/harness/globalSetup.js',
	globalTeardown: '<rootDir>/test/harness/globalTeardown.js',
	testTimeout: 60000,
	// More workers than cores: most test files wait (real timers: deadlines, retries' backoff, a paced batch), so
	// four files at once on 2 cores take about a quarter of the time (2026-12-02, idle: 338 s against the files'
	// 1,257 s one after another; bench/MEASUREMENTS.md, "Where the unit suite's time goes").
	maxWorkers: Math.max(4, availableParallelism() - 1),
	reporters: [
		'default',
		'<rootDir>/test/harness/progressReporter.js',
		'<rootDir>/test/reliability/totalsReporter.js',
		'<rootDir>/test/countsReporter.js',
	],
};
