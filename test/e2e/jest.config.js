/**
 * `npm run test:e2e`: a real n8n (N8N_VERSION, default the pinned 2.41.1; scripts/provision-n8n.sh) with the packed
 * package installed. Which files run on which n8n: test/e2e/versions.js (docs/testing.md says why).
 */
const { PINNED, e2eFilesFor } = require('./versions');

const version = process.env.N8N_VERSION || PINNED;
const { run, notRun } = e2eFilesFor(version);
for (const { file, reason } of notRun)
	process.stdout.write(`NOT RUN on n8n ${version}: test/e2e/${file}.e2e.test.ts: ${reason}\n`);

module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: run.map((file) => `**/${file}.e2e.test.ts`),
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	setupFiles: ['<rootDir>/test/e2e/freshConnections.ts'],
	testTimeout: 300000,
	maxWorkers: 1,
	verbose: true,
};
