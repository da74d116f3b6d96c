/**
 * scripts/failure-summary.js: the one line a failed provisioning step ends with names the step, the tool's own
 * reason (found among npm's and node-gyp's lines, wherever it is) and the fix to try. The outputs are the tools' own,
 * shortened.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript, run by scripts/provision-n8n.sh
const { summarise, failureLine } = require('../scripts/failure-summary') as {
	summarise: (
		output: string,
		context?: { nodedir?: string; log?: string },
	) => { reason: string; fix: string };
	failureLine: (
		step: string,
		output: string,
		context?: { nodedir?: string; log?: string },
	) => string;
};

/** npm's tail after any failing install script: the generic lines the summary must look past. */
const NPM_SCRIPT_FAILED = `npm error code 1
npm error path /cache/n8n/node_modules/sqlite3
npm error command failed
npm error command sh -c prebuild-install -r napi || node-gyp rebuild
npm error A complete log of this run can be found in: /root/.npm/_logs/debug-0.log`;

const HEADERS_DOWNLOAD = `prebuild-install warn install request to https://github.com/TryGhost/node-sqlite3/releases/download/v5.1.7/sqlite3-v5.1.7-napi-v6-linux-x64.tar.gz failed, reason: getaddrinfo ENOTFOUND github.com
gyp info it worked if it ends with ok
gyp info using node-gyp@11.2.0
gyp info using node@24.11.1 | linux | x64
gyp info find Python using Python version 3.11.7 found at "/usr/bin/python3"
gyp http GET https://nodejs.org/download/release/v24.11.1/node-v24.11.1-headers.tar.gz
gyp WARN install got an error, rolling back install
gyp ERR! configure error
gyp ERR! stack FetchError: request to https://nodejs.org/download/release/v24.11.1/node-v24.11.1-headers.tar.gz failed, reason: connect ETIMEDOUT 104.20.22.46:443
gyp ERR! stack     at ClientRequest.<anonymous> (/usr/lib/node_modules/npm/node_modules/minipass-fetch/lib/index.js:130:14)
gyp ERR! System Linux 6.1.0
gyp ERR! command "/cache/node24/bin/node" "/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js" "rebuild"
gyp ERR! cwd /cache/n8n/node_modules/sqlite3
gyp ERR! not ok
${NPM_SCRIPT_FAILED}`;

const WRONG_HEADERS = `gyp info spawn make
make: Entering directory '/cache/n8n/node_modules/isolated-vm/build'
  CXX(target) Release/obj.target/isolated_vm/src/external_copy/external_copy.o
In file included from ../src/isolate/environment.h:2,
../src/isolate/environment.h:45:22: error: 'class v8::Isolate' has no member named 'GetCppHeap'
   45 |   auto heap = isolate->GetCppHeap();
../src/isolate/holder.cc:10:5: error: second error, not the first
make: *** [isolated_vm.target.mk:160: Release/obj.target/isolated_vm/src/external_copy/external_copy.o] Error 1
gyp ERR! build error
gyp ERR! stack Error: \`make\` failed with exit code: 2
${NPM_SCRIPT_FAILED}`;

const REGISTRY_TIMEOUT = `npm http fetch GET 200 https://registry.npmjs.org/n8n 812ms (cache miss)
npm error code ETIMEDOUT
npm error errno ETIMEDOUT
npm error network request to https://registry.npmjs.org/@n8n%2fn8n-nodes-langchain failed, reason: connect ETIMEDOUT 104.16.0.35:443
npm error network This is a problem related to network connectivity.
npm error network In most cases you are behind a proxy or have bad network settings.
npm error A complete log of this run can be found in: /root/.npm/_logs/debug-0.log`;

describe('failure summary (scripts/failure-summary.js)', () => {
	it("node-gyp without Node's headers: its own network error, and where headers on disk are handed over", () => {
		const { reason, fix } = summarise(HEADERS_DOWNLOAD);
		expect(reason).toBe(
			"node-gyp could not get Node's headers (gyp ERR! stack FetchError: request to https://nodejs.org/download/release/v24.11.1/node-v24.11.1-headers.tar.gz failed, reason: connect ETIMEDOUT 104.20.22.46:443)",
		);
		expect(fix).toContain('npm_config_nodedir');
		// with a nodedir given, the fix names that folder
		expect(summarise(HEADERS_DOWNLOAD, { nodedir: '/opt/node24' }).fix).toContain(
			'/opt/node24/include/node',
		);
	});

	it('a nodedir without headers (a real run, npm_config_nodedir pointing at an empty folder): gyp\'s own line, not "configure error"', () => {
		const output = `gyp: /tmp/no-headers/common.gypi not found (cwd: /cache/n8n/node_modules/sqlite3) while reading includes of binding.gyp while trying to load binding.gyp
gyp ERR! configure error
gyp ERR! stack Error: \`gyp\` failed with exit code: 1
gyp ERR! node-gyp -v v8.4.1
gyp ERR! not ok
${NPM_SCRIPT_FAILED}`;
		const { reason, fix } = summarise(output, { nodedir: '/tmp/no-headers' });
		expect(reason).toBe(
			'node-gyp found no Node headers (gyp: /tmp/no-headers/common.gypi not found (cwd: /cache/n8n/node_modules/sqlite3) while reading includes of binding.gyp while trying to load binding.gyp)',
		);
		expect(fix).toMatch(/npm_config_nodedir .*\(it is \/tmp\/no-headers\), or unset it/);
	});

	it("a compile error: the compiler's first error, and the headers to check", () => {
		const { reason, fix } = summarise(WRONG_HEADERS, { nodedir: '/usr' });
		expect(reason).toBe(
			"compiling failed: ../src/isolate/environment.h:45:22: error: 'class v8::Isolate' has no member named 'GetCppHeap'",
		);
		expect(fix).toContain('/usr/include/node');
	});

	it("the registry out of reach: npm's code and the request that failed, and that downloads are kept", () => {
		const { reason, fix } = summarise(REGISTRY_TIMEOUT);
		expect(reason).toBe(
			'npm error code ETIMEDOUT; npm error network request to https://registry.npmjs.org/@n8n%2fn8n-nodes-langchain failed, reason: connect ETIMEDOUT 104.16.0.35:443',
		);
		expect(fix).toMatch(/npm config get registry.*proxy.*run again/);
	});

	it.each([
		[
			'a full disk',
			`npm error code ENOSPC\nnpm error syscall write\nnpm error nospc ENOSPC: no space left on device, write`,
			'npm error code ENOSPC',
			/BOTSAILOR_CACHE/,
		],
		[
			'a package missing from the registry',
			`npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/@n8n%2fai-utilities - Not found`,
			'npm error code E404',
			/N8N_VERSION/,
		],
		[
			'no Python for node-gyp',
			`gyp ERR! find Python\ngyp ERR! find Python Python is not set from command line or npm configuration\ngyp ERR! configure error\ngyp ERR! stack Error: Could not find any Python installation to use\n${NPM_SCRIPT_FAILED}`,
			'gyp ERR! stack Error: Could not find any Python installation to use',
			/install Python 3/,
		],
		[
			'no compiler',
			`gyp info spawn make\nmake: g++: No such file or directory\n/bin/sh: 1: g++: not found\ngyp ERR! build error\n${NPM_SCRIPT_FAILED}`,
			'/bin/sh: 1: g++: not found',
			/make and g\+\+/,
		],
		[
			'a module built for another Node',
			`Error: The module '/cache/n8n/node_modules/sqlite3/build/Release/node_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 137.`,
			'was compiled against a different Node.js version using',
			/rebuilt for the Node that runs n8n/,
		],
	])('%s', (_, output, reason, fix) => {
		const summary = summarise(output);
		expect(summary.reason).toBe(reason);
		expect(summary.fix).toMatch(fix);
	});

	it('output it does not know: its last line, never an empty reason', () => {
		expect(summarise('starting\nSegmentation fault (core dumped)\n\n').reason).toBe(
			'Segmentation fault (core dumped)',
		);
		expect(summarise('').reason).toBe('no output');
	});

	it('the line: the step, the reason, the fix, the log, in that order, on one line', () => {
		const line = failureLine('building sqlite3 (npm rebuild sqlite3)', HEADERS_DOWNLOAD, {
			log: '/cache/n8n.log',
		});
		expect(line).not.toContain('\n');
		expect(line).toMatch(
			/^building sqlite3 \(npm rebuild sqlite3\) failed: node-gyp could not get Node's headers \(.*ETIMEDOUT.*\)\. Try: .*\. Full log: \/cache\/n8n\.log$/,
		);
	});
});
