/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- the bench is a command-line script in plain Node.js, not node code */
/** Bench plumbing: a simulator in its own process (so its CPU is not counted), its control API, CPU and time. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SIMULATOR_TEST_CREDENTIAL } from '../test/simulator/server';

export const ROOT = resolve(__dirname, '..');

export interface SimProcess {
	url: string;
	token: string;
	control<T = unknown>(action: string, input?: unknown): Promise<T>;
	stop(): Promise<void>;
}

/** `npm run simulator` on a free port, in a child process. */
export async function startSimProcess(): Promise<SimProcess> {
	const child: ChildProcess = spawn(
		process.execPath,
		[join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(ROOT, 'test/simulator/main.ts')],
		{
			env: { ...process.env, SIMULATOR_PORT: '0' },
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	const url = await new Promise<string>((done, fail) => {
		let out = '';
		child.stdout!.on('data', (chunk: Buffer) => {
			out += chunk.toString();
			const match = /Base URL:\s+(\S+)/.exec(out);
			if (match) done(match[1]);
		});
		child.on('exit', (code) => fail(new Error(`simulator exited with ${code}: ${out}`)));
	});
	const control = async <T>(action: string, input: unknown = {}): Promise<T> => {
		const response = await fetch(`${url}/__control/${action}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(input),
		});
		const body = (await response.json()) as { result: T };
		return body.result;
	};
	return {
		url,
		token: SIMULATOR_TEST_CREDENTIAL,
		control,
		stop: async () => {
			child.kill('SIGTERM');
			await new Promise((done) => child.once('exit', done));
		},
	};
}

/** CPU of this process (user + system), in ms. */
export function ownCpuMs(): number {
	const usage = process.cpuUsage();
	return (usage.user + usage.system) / 1000;
}

/** CPU of waited-for child processes (and their waited-for children), in ms, from /proc (Linux). */
export function childrenCpuMs(): number {
	const stat = readFileSync('/proc/self/stat', 'utf8');
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	// After the command name: field 16 (cutime) and 17 (cstime) are index 13 and 14 here; clock ticks of 10 ms.
	return (Number(fields[13]) + Number(fields[14])) * 10;
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export async function timed<T>(
	fn: () => Promise<T>,
): Promise<{ result: T; wallMs: number; cpuMs: number }> {
	const cpu = ownCpuMs();
	const start = performance.now();
	const result = await fn();
	return { result, wallMs: performance.now() - start, cpuMs: ownCpuMs() - cpu };
}

export const fmt = (value: number, digits = 0) =>
	Number.isFinite(value) ? value.toFixed(digits) : '–';
