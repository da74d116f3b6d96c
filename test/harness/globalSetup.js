/**
 * Jest's globalSetup: one temporary folder for the run, under which each test file gets its n8n user folder
 * (test/harness/env.ts); test/harness/globalTeardown.js removes it, so a run leaves nothing in /tmp.
 */
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

module.exports = () => {
	process.env.BOTSAILOR_TEST_FOLDERS = mkdtempSync(join(tmpdir(), 'botsailor-jest-'));
};
