/** `npm run test:e2e`: a real n8n 2.41.1 (scripts/provision-n8n.sh) with the packed package installed. */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	testTimeout: 300000,
	maxWorkers: 1,
	verbose: true,
};
