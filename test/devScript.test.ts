/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- runs a shell script in plain Node.js, not node code */
/**
 * scripts/dev.sh, which `npm test`, `npm run demo` and `npm run build` go through: a Node older than 20
 * gets one line with the command that fixes it; `npm ci` runs when node_modules is missing or older than
 * package-lock.json and not otherwise; package-lock.json is never touched. Run in a copy of the script
 * with a fake `node` and `npm` first on the PATH, so nothing is installed.
 */
import { spawnSync } from 'node:child_process';
import {
	chmodSync,
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	utimesSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let root: string;
let bin: string;

/** A fake `node` reporting `version`, and a fake `npm` that records its arguments and, for `ci`, installs. */
function fakeTools(version: string) {
	writeFileSync(
		join(bin, 'node'),
		`#!/bin/sh\nif [ "$1" = "-p" ]; then echo ${version}; else echo v${version}; fi\n`,
	);
	writeFileSync(
		join(bin, 'npm'),
		`#!/bin/sh\necho "$@" >> "${root}/npm-calls"\nif [ "$1" = ci ]; then mkdir -p node_modules && echo '{}' > node_modules/.package-lock.json; fi\n`,
	);
	chmodSync(join(bin, 'node'), 0o755);
	chmodSync(join(bin, 'npm'), 0o755);
}

function run(command = 'echo ran', ...args: string[]) {
	const result = spawnSync('bash', [join(root, 'scripts', 'dev.sh'), command, ...args], {
		cwd: root,
		encoding: 'utf8',
		env: { ...process.env, PATH: `${bin}:/usr/bin:/bin` },
	});
	const calls = existsSync(join(root, 'npm-calls'))
		? readFileSync(join(root, 'npm-calls'), 'utf8').trim().split('\n')
		: [];
	rmSync(join(root, 'npm-calls'), { force: true });
	return { ...result, calls };
}

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), 'botsailor-dev-sh-'));
	bin = join(root, 'fake-bin');
	mkdirSync(join(root, 'scripts'));
	mkdirSync(bin);
	copyFileSync(join(__dirname, '..', 'scripts', 'dev.sh'), join(root, 'scripts', 'dev.sh'));
	// Node 24 "from the npm registry": the fake tools' directory.
	writeFileSync(join(root, 'scripts', 'node24.sh'), `#!/bin/sh\necho ${bin}\n`);
	writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion":3}\n');
	fakeTools('24.1.0');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

test('a Node older than 20 gets one line naming what is needed and the command, and nothing runs', () => {
	fakeTools('18.19.0');
	const result = run();
	expect(result.status).toBe(1);
	expect(result.stdout).toBe('');
	expect(result.stderr.trim().split('\n')).toHaveLength(1);
	expect(result.stderr).toMatch(
		/needs Node\.js 20 or newer with npm \(found 18\.19\.0\).*`nvm install 24`/,
	);
	expect(result.calls).toEqual([]);
});

test('a fresh clone: npm ci once (never npm install), then the command with its arguments', () => {
	const lock = readFileSync(join(root, 'package-lock.json'), 'utf8');
	const first = run('echo ran', 'test/x.test.ts');
	expect(first.status).toBe(0);
	expect(first.calls).toEqual(['ci --no-audit --no-fund --loglevel=error']);
	expect(first.stdout.trim()).toBe('ran test/x.test.ts');
	expect(readFileSync(join(root, 'package-lock.json'), 'utf8')).toBe(lock);

	const second = run();
	expect(second.status).toBe(0);
	expect(second.calls).toEqual([]);
});

test('a package-lock.json newer than node_modules (a pull that changed it): npm ci again', () => {
	run();
	writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion":3,"changed":true}\n');
	const later = new Date(Date.now() + 60_000);
	utimesSync(join(root, 'package-lock.json'), later, later);
	expect(run().calls).toEqual(['ci --no-audit --no-fund --loglevel=error']);
});

test('node_modules installed by hand after the lockfile counts as fresh', () => {
	mkdirSync(join(root, 'node_modules'));
	const earlier = new Date(Date.now() - 60_000);
	utimesSync(join(root, 'package-lock.json'), earlier, earlier);
	writeFileSync(join(root, 'node_modules', '.package-lock.json'), '{}');
	expect(run().calls).toEqual([]);
});

test('--with-n8n (the demo): n8n is provisioned beside npm ci, and only when npm ci runs', () => {
	// A fake provisioning that records it ran (the real one is tested in test/provisionN8n.test.ts).
	writeFileSync(
		join(root, 'scripts', 'provision-n8n.sh'),
		`echo started >> "${root}/provisioned"\n`,
	);
	const first = run('--with-n8n', 'echo "command: $DEV_SH_PROVISIONING"');
	expect(first.status).toBe(0);
	expect(first.calls).toEqual(['ci --no-audit --no-fund --loglevel=error']);
	// the command learns that a provisioning runs beside it (its own waits for it quietly)
	expect(first.stdout.trim()).toBe('command: 1');
	expect(first.stderr).toContain('provisioning n8n beside npm ci');
	for (let tries = 0; !existsSync(join(root, 'provisioned')) && tries < 100; tries++)
		spawnSync('sleep', ['0.1']);
	expect(readFileSync(join(root, 'provisioned'), 'utf8')).toBe('started\n');

	const second = run('--with-n8n', 'echo "command: $DEV_SH_PROVISIONING"');
	expect(second.calls).toEqual([]);
	expect(second.stdout.trim()).toBe('command:');
	expect(readFileSync(join(root, 'provisioned'), 'utf8')).toBe('started\n');
});

test('the failing command fails npm test', () => {
	expect(run('exit 3').status).toBe(3);
});

test('npm run dev is the node-cli template’s `n8n-node dev` (n8n with the node, rebuilt on change), through dev.sh', () => {
	const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
		scripts: Record<string, string>;
	};
	expect(pkg.scripts.dev).toBe("bash scripts/dev.sh 'n8n-node dev'");
	// The command exists in the node-cli this package pins.
	expect(
		existsSync(
			join(
				__dirname,
				'..',
				'node_modules',
				'@n8n',
				'node-cli',
				'dist',
				'commands',
				'dev',
				'index.js',
			),
		),
	).toBe(true);
});
