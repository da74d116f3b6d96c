/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- the bench is a command-line script in plain Node.js, not node code */
/**
 * Row 8: peak memory (RSS growth) of sending a 50 MB document from binary data in n8n's filesystem
 * binary mode: our Send Media (upload, then send by media id) vs n8n's HTTP Request node uploading
 * the same file as multipart/form-data. Each measure runs in a fresh child process (RSS rarely shrinks,
 * so measures in one process would bleed into each other); the simulator runs in its own process.
 *
 * `tsx bench/memory.ts` alone prints the row; bench/run.ts calls memoryRows() for BENCH_ROWS=8.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IBinaryData } from 'n8n-workflow';
import { fmt, ROOT, startSimProcess, type SimProcess } from './lib';

const MB = 1024 * 1024;
const PHONE_NUMBER_ID = '104382179270221';
type Variant = 'ours' | 'http';

interface Measure {
	variant: Variant;
	fileMb: number;
	baselineMb: number;
	peakMb: number;
	growthMb: number;
	wallMs: number;
	error?: string;
}

/** A file of `size` bytes that does not compress (written in 1 MB chunks, never held whole). */
function writeFile(path: string, size: number): void {
	const fd = openSync(path, 'w');
	const chunk = Buffer.alloc(MB);
	let seed = 12345;
	for (let written = 0; written < size; written += chunk.length) {
		for (let index = 0; index < chunk.length; index += 4) {
			seed = (seed * 1103515245 + 12345) >>> 0;
			chunk.writeUInt32LE(seed, index);
		}
		writeSync(fd, chunk, 0, Math.min(chunk.length, size - written));
	}
	closeSync(fd);
}

/** Runs this script as a child process (tsx); returns its line that starts with `tag`. */
async function runChild(args: string[], env: NodeJS.ProcessEnv, tag: string): Promise<string> {
	const child = spawn(
		process.execPath,
		[join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), __filename, ...args],
		{
			env: {
				...process.env,
				N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
				N8N_DIAGNOSTICS_ENABLED: 'false',
				N8N_LOG_LEVEL: 'silent',
				...env,
			},
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	let out = '';
	child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
	const code = await new Promise<number | null>((done) => child.once('exit', done));
	const line = out.split('\n').find((entry) => entry.startsWith(`${tag} `));
	if (!line) throw new Error(`bench memory child ${args[0]} exited with ${code}: ${out}`);
	return line.slice(tag.length + 1);
}

/**
 * One measure: a first process puts the file into n8n's binary store (as a node earlier in the workflow
 * would have), a second, fresh process (the same user folder) runs the node on it: warm-up with a
 * 1 MB file, then the peak RSS over the run, sampled every 2 ms, minus the RSS before it.
 */
async function measure(
	variant: Variant,
	sim: SimProcess,
	filePath: string,
	fileMb: number,
): Promise<Measure> {
	const userFolder = mkdtempSync(join(tmpdir(), 'botsailor-bench-memory-n8n-'));
	try {
		const env = { N8N_USER_FOLDER: userFolder };
		const stored = await runChild(['store', filePath], env, 'STORED');
		return JSON.parse(
			await runChild(
				['measure', variant, sim.url, sim.token, stored, String(fileMb)],
				{ ...env, NODE_OPTIONS: '--expose-gc' },
				'MEASURE',
			),
		) as Measure;
	} finally {
		rmSync(userFolder, { recursive: true, force: true });
	}
}

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Row 8 for bench/run.ts: ours vs HTTP Request, each measured `runs` times (fresh processes, alternating); medians. */
export async function memoryRows(sim: SimProcess, fileMb = 50, runs = 3): Promise<string[][]> {
	const dir = mkdtempSync(join(tmpdir(), 'botsailor-bench-memory-'));
	try {
		const filePath = join(dir, 'brochure.pdf');
		writeFile(filePath, fileMb * MB);
		const results: Record<Variant, Measure[]> = { ours: [], http: [] };
		for (let run = 0; run < runs; run++)
			for (const variant of ['ours', 'http'] as const)
				results[variant].push(await measure(variant, sim, filePath, fileMb));
		const growth = (variant: Variant) => median(results[variant].map((entry) => entry.growthMb));
		const all = (variant: Variant) =>
			results[variant].map((entry) => fmt(entry.growthMb, 1)).join(', ');
		const ours = growth('ours');
		const http = growth('http');
		const label = `8. Send Media from binary, ${fileMb} MB document, filesystem binary mode, vs HTTP Request multipart upload (median of ${runs})`;
		const failed = [...results.ours, ...results.http]
			.filter((entry) => entry.error)
			.map((entry) => `${entry.variant}: ${entry.error}`);
		return [
			[
				label,
				'0 ms',
				'peak RSS growth (MB)',
				`+${fmt(ours, 1)} (${fmt(ours / fileMb, 2)} × file)`,
				`+${fmt(http, 1)} (${fmt(http / fileMb, 2)} × file)`,
				fmt(ours / Math.max(http, 1), 2),
				`≤ ${fmt(1.2 * fileMb)} (1.2 × file) and ≤ HTTP Request`,
			],
			[
				label,
				'0 ms',
				'each run: RSS growth (MB)',
				all('ours'),
				all('http'),
				'–',
				failed.length ? `FAILED ${[...new Set(failed)].join('; ')}` : '–',
			],
			[
				label,
				'0 ms',
				'wall time (ms, median)',
				fmt(median(results.ours.map((entry) => entry.wallMs))),
				fmt(median(results.http.map((entry) => entry.wallMs))),
				'–',
				'–',
			],
		];
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** Child `store`: the file into n8n's binary store of N8N_USER_FOLDER; prints its binary data (id, size). */
async function store(filePath: string): Promise<void> {
	const { useBinaryMode } = await import('../test/harness/harness');
	const { FileLocation } = await import('n8n-core');
	const service = await useBinaryMode('filesystem');
	const stored = await service.copyBinaryFile(
		FileLocation.ofExecution('bench-memory', 'input'),
		{ data: '', mimeType: 'application/pdf', fileName: 'brochure.pdf' },
		filePath,
	);
	process.stdout.write(`STORED ${JSON.stringify(stored)}\n`);
}

/** Child `measure`: warm up with a 1 MB file, then the peak RSS growth of the run on the stored file. */
async function child(
	variant: Variant,
	url: string,
	token: string,
	big: IBinaryData,
	fileMb: number,
): Promise<void> {
	const { runNode, useBinaryMode } = await import('../test/harness/harness');
	const { httpRequestNode } = await import('./httpRequest');
	const { FileLocation } = await import('n8n-core');
	// The explicit .ts: under tsx, `BotSailor.node` would resolve to the codex file BotSailor.node.json.
	/* eslint-disable @typescript-eslint/no-require-imports */
	const { BotSailor } =
		require('../nodes/BotSailor/BotSailor.node.ts') as typeof import('../nodes/BotSailor/BotSailor.node');
	/* eslint-enable @typescript-eslint/no-require-imports */
	const http = httpRequestNode();
	if (variant === 'http' && !http)
		throw new Error('n8n 2.41.1 is not provisioned (.cache/n8n-2.41.1): no HTTP Request node');
	const credentials = { baseUrl: url, apiToken: token, apiForm: 'current' as const };
	const ours = {
		resource: 'message',
		operation: 'sendMedia',
		phoneNumberId: { __rl: true, mode: 'id', value: PHONE_NUMBER_ID },
		phoneNumber: '15550100000',
		source: 'binary',
		binaryPropertyName: 'data',
	};
	const httpParameters = {
		method: 'POST',
		url: `${url}/api/v1/whatsapp/upload/media`,
		sendBody: true,
		contentType: 'multipart-form-data',
		bodyParameters: {
			parameters: [
				{ parameterType: 'formData', name: 'phone_number_id', value: PHONE_NUMBER_ID },
				{ parameterType: 'formData', name: 'apiToken', value: token },
				{ parameterType: 'formBinaryData', name: 'media_file', inputDataFieldName: 'data' },
			],
		},
		options: {},
	};
	const service = await useBinaryMode('filesystem');
	const run = async (stored: IBinaryData) =>
		await runNode({
			nodeType: variant === 'http' ? http : new BotSailor(),
			parameters: (variant === 'http' ? httpParameters : ours) as never,
			credentials,
			binaryMode: 'filesystem',
			items: [{ json: {}, binary: { data: { stored, mimeType: stored.mimeType } } }],
		});
	const small = join(String(process.env.N8N_USER_FOLDER), 'warm-up.pdf');
	writeFile(small, MB);
	const warm = await run(
		await service.copyBinaryFile(
			FileLocation.ofExecution('bench-memory', 'warm-up'),
			{ data: '', mimeType: 'application/pdf', fileName: 'warm-up.pdf' },
			small,
		),
	);
	if (warm.error) throw new Error(`warm-up failed: ${warm.error.message}`);
	const gc = (globalThis as { gc?: () => void }).gc;
	gc?.();
	gc?.();
	const baseline = process.memoryUsage.rss();
	let peak = baseline;
	const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 2);
	const started = performance.now();
	const result = await run(big);
	const wallMs = performance.now() - started;
	peak = Math.max(peak, process.memoryUsage.rss());
	clearInterval(timer);
	const measured: Measure = {
		variant,
		fileMb,
		baselineMb: baseline / MB,
		peakMb: peak / MB,
		growthMb: (peak - baseline) / MB,
		wallMs,
		...(result.error ? { error: result.error.message } : {}),
	};
	process.stdout.write(`MEASURE ${JSON.stringify(measured)}\n`);
}

async function main(): Promise<void> {
	const [mode, ...args] = process.argv.slice(2);
	if (mode === 'store') return await store(args[0]);
	if (mode === 'measure') {
		const [variant, url, token, stored, fileMb] = args;
		return await child(
			variant as Variant,
			url,
			token,
			JSON.parse(stored) as IBinaryData,
			Number(fileMb),
		);
	}
	const sim = await startSimProcess();
	try {
		for (const row of await memoryRows(sim, Number(process.env.BENCH_FILE_MB ?? 50)))
			process.stdout.write(`| ${row.join(' | ')} |\n`);
	} finally {
		await sim.stop();
	}
}

if (require.main === module) {
	main().then(
		() => process.exit(0),
		(error) => {
			process.stderr.write(`bench memory failed: ${(error as Error).stack}\n`);
			process.exit(1);
		},
	);
}
