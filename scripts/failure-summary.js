/**
 * One line for a failed provisioning step (scripts/provision-n8n.sh): the step, the tool's own reason (found in the
 * step's log, where npm and node-gyp print it dozens of lines above the end) and the fix to try. Plain JavaScript: the
 * provisioning runs it with bare Node, before the project's dependencies may be installed.
 * CLI: `node scripts/failure-summary.js <step> <log file> [nodedir] < <the step's output>` prints the line.
 */

/**
 * The causes, most specific first: each finds the tool's line in the output and says what to try.
 * `nodedir` is the header folder handed to node-gyp (npm_config_nodedir), when there is one.
 */
const CAUSES = [
	{
		line: /ENOSPC|No space left on device/,
		fix: () =>
			'free some disk space (n8n takes about 3 GB) or set BOTSAILOR_CACHE to a folder on a larger disk, then run again',
	},
	{
		// a nodedir without Node's headers: node-gyp's own gyp says so in a line of its own, before "configure error"
		line: /^gyp: .*common\.gypi not found.*/m,
		reason: (found) => `node-gyp found no Node headers (${found})`,
		fix: ({ nodedir }) =>
			`point npm_config_nodedir at a folder holding include/node of the Node that runs n8n${nodedir ? ` (it is ${nodedir})` : ''}, or unset it: the provisioning then hands over that Node's own headers; then run again`,
	},
	{
		// node-gyp fetching Node's headers (no nodedir, or one without include/node) from nodejs.org or a mirror
		line: /gyp ERR!.*(?:nodejs\.org|headers|dist-url|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNREFUSED|ECONNRESET|self.signed|certificate)/i,
		reason: (found) => `node-gyp could not get Node's headers (${found})`,
		fix: ({ nodedir }) =>
			nodedir
				? `check that ${nodedir}/include/node holds the headers of the Node that runs n8n (npm_config_nodedir), then run again`
				: 'set npm_config_nodedir to the folder holding include/node of the Node that runs n8n (the Node 24 scripts/node24.sh installs ships them), then run again',
	},
	{
		line: /Could not find any Python|gyp ERR! stack Error: .*[Pp]ython/,
		fix: () => 'install Python 3 (node-gyp needs it to build native modules), then run again',
	},
	{
		line: /(?:make|g\+\+|c\+\+|cc|gcc): (?:not found|command not found)|gyp ERR!.*not found: (?:make|g\+\+|c\+\+)/,
		fix: () =>
			'install a C++ toolchain (make and g++, e.g. `apt-get install build-essential`), then run again',
	},
	{
		// the compiler's first error: headers of another Node version than the one being built for, most often
		line: /^[^\s].*\.(?:cc|cpp|c|h):\d+:\d+: (?:fatal )?error: .*/m,
		reason: (found) => `compiling failed: ${found}`,
		fix: ({ nodedir }) =>
			`check that the headers node-gyp used${nodedir ? ` (${nodedir}/include/node)` : ''} are those of the Node that runs n8n, then run again`,
	},
	{
		line: /was compiled against a different Node\.js version.*|NODE_MODULE_VERSION \d+.*/,
		fix: () =>
			'a native module was built for another Node: run again (the native modules are rebuilt for the Node that runs n8n)',
	},
	{
		line: /npm error (?:code )?E404.*|npm error 404 .*/,
		fix: () =>
			'the npm registry lacks a package this n8n needs: use the pinned N8N_VERSION (2.41.1) or check the registry (npm config get registry)',
	},
	{
		line: /npm error (?:code )?(?:ETIMEDOUT|ECONNRESET|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EPROTO|ERR_SOCKET_TIMEOUT|E5\d\d|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN).*|npm error network .*/,
		reason: (found, output) => {
			// npm prints the code, then the request that failed: both are the tool's own words
			const detail = /npm error (?:network |FetchError: )?.*request to .*/.exec(output);
			return detail && detail[0] !== found ? `${found}; ${detail[0]}` : found;
		},
		fix: () =>
			"check the connection to the npm registry (npm config get registry; a proxy needs npm's proxy settings), then run again: what was downloaded stays in npm's cache",
	},
	{
		line: /npm error (?:code )?(?:EACCES|EPERM).*/,
		fix: () =>
			'the folder is not writable by you: fix its owner, or set BOTSAILOR_CACHE to a folder of yours',
	},
	{
		line: /gyp ERR! (?:stack Error|configure error|build error).*/,
		fix: () => "read node-gyp's lines in the log above this one, then run again",
	},
	{
		line: /npm error (?!code\b|A complete log|Lifecycle script|path |command ).+/,
		fix: () => "read npm's lines in the log, then run again",
	},
];

/** The first line of the output that the pattern matches (or the match itself, for a multi-line pattern). */
function firstLine(output, pattern) {
	const multi = pattern.flags.includes('m');
	if (multi) return pattern.exec(output)?.[0];
	return output
		.split('\n')
		.map((line) => pattern.exec(line)?.[0] && line.trim())
		.find(Boolean);
}

/**
 * What a step's output says went wrong: `{ reason, fix }`, the reason in the tool's own words (one line, at most
 * 300 characters). Unknown output gives its last non-empty line.
 */
function summarise(output, context = {}) {
	for (const cause of CAUSES) {
		const found = firstLine(output, cause.line);
		if (!found) continue;
		const reason = cause.reason ? cause.reason(found.trim(), output) : found.trim();
		return { reason: clip(reason), fix: cause.fix(context) };
	}
	const last = output
		.split('\n')
		.map((line) => line.trim())
		.filter(Boolean)
		.pop();
	return {
		reason: clip(last ?? 'no output'),
		fix: 'read the log, then run again (a step that failed is redone; what was done is kept)',
	};
}

function clip(text) {
	const flat = text.replace(/\s+/g, ' ');
	return flat.length > 300 ? `${flat.slice(0, 297)}...` : flat;
}

/** The one line a failure ends with. */
function failureLine(step, output, context = {}) {
	const { reason, fix } = summarise(output, context);
	return `${step} failed: ${reason}. Try: ${fix}.${context.log ? ` Full log: ${context.log}` : ''}`;
}

module.exports = { summarise, failureLine };

if (require.main === module) {
	const [step, log, nodedir] = process.argv.slice(2);
	const output = require('node:fs').readFileSync(0, 'utf8');
	process.stdout.write(`${failureLine(step, output, { log, nodedir: nodedir || undefined })}\n`);
}
