/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- the bench is a command-line script in plain Node.js, not node code */
/**
 * Row 1 in a real n8n 2.41.1 (`n8n execute --id`, packed package installed as a community package):
 * three workflows with the same generated items — items only (baseline), Send Text, HTTP Request.
 * n8n's CPU per item = (CPU of the run − CPU of the baseline run) / items, which removes n8n's
 * start-up cost and the item generator; CPU read from /proc for the waited-for n8n process tree.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	cliOk,
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	execute,
	importCredential,
	installCommunityPackage,
	instance,
	pack,
	provision,
	PACKAGE_NAME,
	type N8nInstance,
} from '../test/e2e/n8n';
import { httpSendParameters, HTTP_REQUEST_VERSION } from './httpRequest';
import { childrenCpuMs, fmt, ROOT, type SimProcess } from './lib';
import { sendTextParameters } from './sendTextNode';

const MARKER = join(ROOT, '.cache', 'n8n-2.41.1', '.provisioned');
let prepared: N8nInstance | undefined;

function workflow(
	id: string,
	items: number,
	prefix: string,
	target?: { type: string; typeVersion: number; parameters: object; credentials?: object },
) {
	const code = `return Array.from({ length: ${items} }, (_, i) => ({ json: { phone: '${prefix}' + String(i).padStart(6, '0'), text: 'Hello ' + i } }));`;
	const nodes: object[] = [
		{
			id: `${id}-t`,
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: `${id}-c`,
			name: 'Items',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [200, 0],
			parameters: { jsCode: code },
		},
	];
	const connections: Record<string, object> = {
		Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
	};
	if (target) {
		nodes.push({ id: `${id}-s`, name: 'Send', position: [400, 0], ...target });
		connections.Items = { main: [[{ node: 'Send', type: 'main', index: 0 }]] };
	}
	return {
		id,
		name: `bench ${id}`,
		active: false,
		nodes,
		connections,
		settings: { saveDataSuccessExecution: 'none' },
	};
}

async function prepare(sim: SimProcess): Promise<N8nInstance> {
	if (prepared) return prepared;
	const paths = provision();
	const folder = join(ROOT, '.cache', 'bench-n8n');
	rmSync(folder, { recursive: true, force: true });
	mkdirSync(folder, { recursive: true });
	const n8n = instance(paths, folder, 5699);
	// Always a fresh build: the packed package must be the current source, not an earlier dist/.
	execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
	installCommunityPackage(n8n, pack(join(ROOT, '.cache', 'bench-pack')));
	await importCredential(n8n, { baseUrl: sim.url, apiToken: sim.token });
	prepared = n8n;
	return n8n;
}

/** Rows for one latency, or undefined when the pinned n8n is not provisioned (the caller falls back). */
export async function realN8nSendRow(
	sim: SimProcess,
	{ items, latency, phoneNumberId }: { items: number; latency: number; phoneNumberId: string },
): Promise<string[][] | undefined> {
	if (process.env.BENCH_IN_PROCESS === '1' || !existsSync(MARKER)) return undefined;
	const n8n = await prepare(sim);
	const dir = join(n8n.userFolder, `wf-${latency}`);
	mkdirSync(dir, { recursive: true });
	const ours = {
		type: `${PACKAGE_NAME}.botSailor`,
		typeVersion: 1,
		parameters: sendTextParameters(phoneNumberId),
		credentials: { botSailorApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
	};
	const http = {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: HTTP_REQUEST_VERSION,
		parameters: httpSendParameters(sim.url, sim.token, phoneNumberId),
	};
	const flows = {
		base: workflow(`BenchBase${latency}`, items, '1880', undefined),
		ours: workflow(`BenchOurs${latency}`, items, '1881', ours),
		http: workflow(`BenchHttp${latency}`, items, '1882', http),
	};
	for (const [name, flow] of Object.entries(flows))
		writeFileSync(join(dir, `${name}.json`), JSON.stringify(flow));
	await cliOk(n8n, ['import:workflow', '--separate', `--input=${dir}`]);
	const measure = async (id: string) => {
		const cpu = childrenCpuMs();
		const start = performance.now();
		await execute(n8n, id);
		return { wallMs: performance.now() - start, cpuMs: childrenCpuMs() - cpu };
	};
	const base = await measure(flows.base.id);
	const a = await measure(flows.ours.id);
	const b = await measure(flows.http.id);
	const perItem = (run: { cpuMs: number }) => Math.max(0, run.cpuMs - base.cpuMs) / items;
	const label = `1. Send Text × ${items} vs HTTP Request ${HTTP_REQUEST_VERSION} (real n8n 2.41.1, n8n execute)`;
	const lat = `${latency} ms`;
	return [
		[
			label,
			lat,
			`wall time of n8n execute (ms; items-only baseline ${fmt(base.wallMs)})`,
			fmt(a.wallMs),
			fmt(b.wallMs),
			fmt(a.wallMs / b.wallMs, 2),
			'–',
		],
		[
			label,
			lat,
			'n8n CPU per item (ms, minus baseline)',
			fmt(perItem(a), 3),
			fmt(perItem(b), 3),
			fmt(perItem(a) / perItem(b), 2),
			'≤ 1.0',
		],
	];
}
