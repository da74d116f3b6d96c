/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- the bench is a command-line script in plain Node.js, not node code */
/** Row 5: published size (npm pack --dry-run) and cold load time of the nodes + credentials, next to peer packages. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fmt, median, ROOT } from './lib';

const PEERS_DIR = join(ROOT, '.cache', 'peers');
const PEERS = ['n8n-nodes-evolution-api', '@respond-io/n8n-nodes-respond-io'];
const RUNS = 15;

/** n8n-workflow is preloaded (n8n has it loaded already); only the package's own files are timed. */
const LOADER = `
const { join } = require('node:path');
const dir = process.argv[1];
const pkg = require(join(dir, 'package.json'));
require(require.resolve('n8n-workflow', { paths: [dir] }));
const files = [...(pkg.n8n.nodes || []), ...(pkg.n8n.credentials || [])];
const start = process.hrtime.bigint();
for (const file of files) require(join(dir, file));
process.stdout.write(String(Number(process.hrtime.bigint() - start) / 1e6));
`;

/**
 * The median cold load of each package folder, each in a fresh process, the packages taking turns run by
 * run (ours, peer, peer, ours, …), so that the machine's load at any moment weighs on all of them alike.
 */
function loadMs(dirs: string[]): number[] {
	const times = dirs.map((): number[] => []);
	for (let run = 0; run < RUNS; run++)
		dirs.forEach((dir, index) =>
			times[index].push(
				Number(execFileSync(process.execPath, ['-e', LOADER, dir], { encoding: 'utf8' })),
			),
		);
	return times.map(median);
}

function unpackedSize(dir: string): number {
	const [result] = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: dir,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}),
	) as Array<{ unpackedSize: number; entryCount: number }>;
	return result.unpackedSize;
}

/** The peers from the npm registry, once, into .cache/peers (their own peer n8n-workflow resolves to ours). */
function installPeers(): void {
	if (PEERS.every((name) => existsSync(join(PEERS_DIR, 'node_modules', name)))) return;
	mkdirSync(PEERS_DIR, { recursive: true });
	if (!existsSync(join(PEERS_DIR, 'package.json')))
		writeFileSync(join(PEERS_DIR, 'package.json'), '{"private":true}\n');
	try {
		execFileSync(
			'npm',
			['install', '--ignore-scripts', '--legacy-peer-deps', '--no-audit', '--no-fund', ...PEERS],
			{ cwd: PEERS_DIR, stdio: 'ignore' },
		);
	} catch {
		// No registry: the row then shows the peers as not measured.
	}
}

/** Ours / the best peer, or – when no peer could be measured. */
function ratio(ours: number, best: number): string {
	return Number.isFinite(best) ? fmt(ours / best, 2) : '–';
}

export async function packageRows(): Promise<string[][]> {
	if (!existsSync(join(ROOT, 'dist', 'nodes', 'BotSailor', 'BotSailor.node.js')))
		execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
	installPeers();
	const measured = PEERS.map((name) => join(PEERS_DIR, 'node_modules', name)).filter((dir) =>
		existsSync(dir),
	);
	const loads = loadMs([ROOT, ...measured]);
	const ours = { size: unpackedSize(ROOT), load: loads[0] };
	const peers = PEERS.map((name) => {
		const dir = join(PEERS_DIR, 'node_modules', name);
		if (!existsSync(dir)) return { name, size: NaN, load: NaN };
		const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
		return {
			name: `${name}@${meta.version}`,
			size: unpackedSize(dir),
			load: loads[1 + measured.indexOf(dir)],
		};
	});
	const nodes = (
		JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
			n8n: { nodes: string[]; credentials: string[] };
		}
	).n8n;
	const label = `5. Package (${nodes.nodes.length} nodes + ${nodes.credentials.length} credential)`;
	const smallest = Math.min(...peers.map((peer) => peer.size).filter(Number.isFinite));
	const fastest = Math.min(...peers.map((peer) => peer.load).filter(Number.isFinite));
	return [
		[
			label,
			'–',
			'unpacked size (kB)',
			fmt(ours.size / 1000, 1),
			peers.map((peer) => `${peer.name}: ${fmt(peer.size / 1000, 1)}`).join('; '),
			ratio(ours.size, smallest),
			'smallest',
		],
		[
			label,
			'–',
			`cold load of nodes + credentials (ms, median of ${RUNS}, packages taking turns)`,
			fmt(ours.load, 1),
			peers.map((peer) => `${peer.name}: ${fmt(peer.load, 1)}`).join('; '),
			ratio(ours.load, fastest),
			'fastest',
		],
	];
}
