/** Tests run the nodes inside n8n-core's real engine against the in-process API simulator. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	setupFiles: ['<rootDir>/test/harness/env.ts'],
	testTimeout: 60000,
	reporters: [
		'default',
		'<rootDir>/test/harness/progressReporter.js',
		'<rootDir>/test/reliability/totalsReporter.js',
		'<rootDir>/test/countsReporter.js',
	],
};
