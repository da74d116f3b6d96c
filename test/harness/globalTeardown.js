/** Jest's globalTeardown: removes the run's temporary folder (test/harness/globalSetup.js). */
const { rmSync } = require('node:fs');

module.exports = () => {
	const folder = process.env.BOTSAILOR_TEST_FOLDERS;
	if (folder) rmSync(folder, { recursive: true, force: true });
};
