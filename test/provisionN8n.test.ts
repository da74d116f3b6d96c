/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- runs a shell script in plain Node.js, not node code */
/**
 * scripts/provision-n8n.sh around a failure: a native build that fails ends with one line naming the step, node-gyp's
 * reason and the fix; the next run keeps the installed tree and redoes only the native build; a tree that fails the
 * package check is installed again (the check stays as strict). Run in a copy of the scripts with a fake `npm` that
 * installs a three-package tree, so nothing is downloaded.
 */
import { spawnSync } from 'node:child_process';
import {
	chmodSync,
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let root: string;
let bin: string;
let cache: string;

/** npm's and node-gyp's lines for a rebuild without Node's headers (shortened). */
const GYP_FAILURE = [
	'gyp http GET https://nodejs.org/download/release/v24.1.0/node-v24.1.0-headers.tar.gz',
	'gyp ERR! configure error',
	'gyp ERR! stack Error: getaddrinfo ENOTFOUND nodejs.org',
	'npm error code 1',
	'npm error command sh -c prebuild-install -r napi || node-gyp rebuild',
].join('\n');

/** A fake `npm`: `install` writes the tree npm would (its lock, n8n, sqlite3); `rebuild` builds sqlite3's binding. */
function fakeNpm() {
	writeFileSync(
		join(bin, 'npm'),
		`#!/bin/sh
echo "$1" >> "${root}/npm-calls"
case "$1" in
  install)
    mkdir -p node_modules/.bin node_modules/n8n node_modules/sqlite3
    echo '{"packages":{"":{},"node_modules/n8n":{},"node_modules/sqlite3":{}}}' > node_modules/.package-lock.json
    echo '{"name":"n8n","version":"9.0.0"}' > node_modules/n8n/package.json
    echo "{\\"name\\":\\"sqlite3\\",\\"version\\":\\"\${SQLITE3_VERSION:-5.1.7}\\"}" > node_modules/sqlite3/package.json
    printf '#!/bin/sh\\necho 9.0.0\\n' > node_modules/.bin/n8n && chmod +x node_modules/.bin/n8n ;;
  rebuild)
    echo "\${npm_config_nodedir:-none}" >> "${root}/nodedirs"
    if [ -n "\${FAIL_REBUILD:-}" ]; then printf '%s\\n' "$FAIL_REBUILD" >&2; exit 1; fi
    mkdir -p node_modules/sqlite3/build/Release && echo "built for $N8N_VERSION" > node_modules/sqlite3/build/Release/node_sqlite3.node ;;
esac
`,
	);
	// The Node that runs the script, behind a wrapper: node.sh then hands out this folder (with the fake npm in it).
	writeFileSync(join(bin, 'node'), `#!/bin/sh\nexec "${process.execPath}" "$@"\n`);
	chmodSync(join(bin, 'npm'), 0o755);
	chmodSync(join(bin, 'node'), 0o755);
}

function provision(env: Record<string, string> = {}) {
	const result = spawnSync('bash', [join(root, 'scripts', 'provision-n8n.sh')], {
		cwd: root,
		encoding: 'utf8',
		env: {
			...process.env,
			PATH: `${bin}:/usr/bin:/bin`,
			N8N_VERSION: '9.0.0',
			BOTSAILOR_CACHE: cache,
			npm_config_nodedir: '',
			...env,
		},
	});
	const calls = existsSync(join(root, 'npm-calls'))
		? readFileSync(join(root, 'npm-calls'), 'utf8').trim().split('\n')
		: [];
	rmSync(join(root, 'npm-calls'), { force: true });
	const lines = result.stderr.trim().split('\n');
	return { ...result, calls, last: lines[lines.length - 1] };
}

const entry = (version = '9.0.0') =>
	join(
		cache,
		readdirSync(cache).find(
			(name) =>
				name.startsWith(`n8n-${version}-`) && !/\./.test(name.slice(`n8n-${version}`.length)),
		)!,
	);

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), 'botsailor-provision-'));
	bin = join(root, 'fake-bin');
	cache = join(root, 'machine-cache');
	mkdirSync(join(root, 'scripts'), { recursive: true });
	mkdirSync(bin);
	for (const file of ['provision-n8n.sh', 'node.sh', 'failure-summary.js'])
		copyFileSync(join(__dirname, '..', 'scripts', file), join(root, 'scripts', file));
	fakeNpm();
});

afterEach(() => rmSync(root, { recursive: true, force: true }));
// each test runs the script three or four times, a few node starts each: seconds, more on a loaded machine
jest.setTimeout(180_000);

test('a failed native build ends with one line (step, reason, fix); the next run keeps the installed tree and only builds', () => {
	const failed = provision({ FAIL_REBUILD: GYP_FAILURE });
	expect(failed.status).not.toBe(0);
	expect(failed.calls).toEqual(['install', 'rebuild']);
	expect(failed.last).toMatch(
		/^provision-n8n: building the native module sqlite3 for Node v\d+\.\d+\.\d+ \(npm rebuild sqlite3\) failed: node-gyp could not get Node's headers \(gyp ERR! stack Error: getaddrinfo ENOTFOUND nodejs\.org\)\. Try: set npm_config_nodedir .*\. Full log: .*\.log$/,
	);
	// the same line for the demo, which ends with it
	expect(readFileSync(join(root, '.cache', 'n8n-9.0.0.failure'), 'utf8').trim()).toBe(failed.last);

	const again = provision();
	expect(again.status).toBe(0);
	expect(again.calls).toEqual(['rebuild']); // no second install
	expect(again.stderr).toContain('keeping the installed packages');
	expect(again.stdout.trim()).toBe(join(entry(), 'node_modules', '.bin'));
	expect(existsSync(join(root, '.cache', 'n8n-9.0.0.failure'))).toBe(false);

	// provisioned: nothing to do
	expect(provision().calls).toEqual([]);
});

test('the checks stay strict: a package missing from the installed tree means a new install, even after a failed build', () => {
	expect(provision({ FAIL_REBUILD: GYP_FAILURE }).status).not.toBe(0);
	rmSync(join(entry(), 'node_modules', 'n8n', 'package.json'));
	const again = provision();
	expect(again.status).toBe(0);
	expect(again.stderr).toContain('1 installed packages are missing, e.g. node_modules/n8n');
	expect(again.calls).toEqual(['install', 'rebuild']);

	// and in a provisioned entry (without the kept build, which the last test covers)
	rmSync(join(entry(), 'node_modules', 'sqlite3', 'package.json'));
	rmSync(join(cache, 'native'), { recursive: true });
	expect(provision().calls).toEqual(['install', 'rebuild']);
});

test('a provisioned entry whose native binding is gone is rebuilt in place', () => {
	expect(provision().calls).toEqual(['install', 'rebuild']);
	rmSync(join(entry(), 'node_modules', 'sqlite3', 'build'), { recursive: true });
	rmSync(join(cache, 'native'), { recursive: true }); // the kept build (the last test) aside
	const again = provision();
	expect(again.status).toBe(0);
	expect(again.stderr).toContain('the sqlite3 native binding is not built');
	expect(again.calls).toEqual(['rebuild']);
});

test("the native builds get the headers of the Node that runs them (its prefix's include/node), and only that Node's", () => {
	const major = process.versions.node.split('.')[0];
	const headers = (version: string) => {
		mkdirSync(join(root, 'include', 'node'), { recursive: true });
		writeFileSync(
			join(root, 'include', 'node', 'node_version.h'),
			`#define NODE_MAJOR_VERSION ${version}\n#define NODE_MINOR_VERSION 1\n`,
		);
		writeFileSync(join(root, 'include', 'node', 'common.gypi'), '{}');
	};
	const nodedirs = () => readFileSync(join(root, 'nodedirs'), 'utf8').trim().split('\n');
	// the fake node sits in <root>/fake-bin, so its prefix is <root>
	headers(major);
	expect(provision().status).toBe(0);
	expect(nodedirs()).toEqual([root]);

	// headers of another major (a system Node's, say): not handed over, and the script says what node-gyp does instead
	rmSync(cache, { recursive: true });
	rmSync(join(root, 'nodedirs'));
	headers('20');
	const other = provision();
	expect(nodedirs()).toEqual(['none']);
	expect(other.stderr).toContain(`holds no headers of Node ${major}`);

	// a nodedir the caller set is kept
	rmSync(cache, { recursive: true });
	rmSync(join(root, 'nodedirs'));
	expect(provision({ npm_config_nodedir: '/opt/node-headers' }).status).toBe(0);
	expect(nodedirs()).toEqual(['/opt/node-headers']);
});

test('a binding compiled for one n8n is copied into another with the same module version on the same Node, not compiled again', () => {
	const binding = (version: string) =>
		readFileSync(
			join(entry(version), 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node'),
			'utf8',
		);
	expect(provision().calls).toEqual(['install', 'rebuild']);
	const second = provision({ N8N_VERSION: '9.0.1' });
	expect(second.status).toBe(0);
	expect(second.calls).toEqual(['install']); // no rebuild
	expect(second.stderr).toMatch(
		/sqlite3 for Node v\d+\.\d+\.\d+: built before for another n8n, copied from .*sqlite3-5\.1\.7-abi\d+-/,
	);
	expect(binding('9.0.1')).toBe(binding('9.0.0'));
	expect(provision({ N8N_VERSION: '9.0.1' }).calls).toEqual([]); // provisioned: its integrity check passes

	// another sqlite3 version is compiled
	expect(provision({ N8N_VERSION: '9.0.2', SQLITE3_VERSION: '5.1.8' }).calls).toEqual([
		'install',
		'rebuild',
	]);
	expect(binding('9.0.2')).toBe('built for 9.0.2\n');
});
