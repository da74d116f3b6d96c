/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test infrastructure runs in plain Node.js, not inside n8n */
/** Shared checks of the reliability matrix: secret scanning, operation names, tallies. */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodePropertyOptions } from 'n8n-workflow';
import { BotSailor } from '../../nodes/BotSailor/BotSailor.node';

/** Every resource/operation of the node description with its display names. */
export function describedOperations(): Array<{ resource: string; operation: string; label: string; parameterNames: Set<string> }> {
	const { properties } = new BotSailor().description;
	const resources = (properties.find((property) => property.name === 'resource')?.options ?? []) as INodePropertyOptions[];
	const result = [];
	for (const resource of resources) {
		const operationProperties = properties.filter((property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource.value));
		for (const option of operationProperties.flatMap((property) => (property.options ?? []) as INodePropertyOptions[])) {
			const shown = properties.filter(
				(property) => (property.displayOptions?.show?.resource ?? [resource.value]).includes(resource.value) && (property.displayOptions?.show?.operation ?? [option.value]).includes(option.value),
			);
			const parameterNames = new Set<string>();
			const collect = (entries: unknown[]) => {
				for (const entry of entries as Array<{ displayName?: string; options?: unknown[]; values?: unknown[] }>) {
					if (entry.displayName) parameterNames.add(entry.displayName);
					if (Array.isArray(entry.options)) collect(entry.options);
					if (Array.isArray(entry.values)) collect(entry.values);
				}
			};
			collect(shown);
			result.push({ resource: String(resource.value), operation: String(option.value), label: `${resource.name} → ${option.name}`, parameterNames });
		}
	}
	return result;
}

/** Paths inside `value` where `secret` occurs: own properties (enumerable or not), Buffers, cycles handled. */
export function secretPaths(value: unknown, secret: string, path = '$', seen = new WeakSet<object>(), depth = 0): string[] {
	if (typeof value === 'string') return value.includes(secret) ? [path] : [];
	if (Buffer.isBuffer(value)) return value.toString('utf8').includes(secret) ? [path] : [];
	if (!value || typeof value !== 'object' || depth > 12) return [];
	if (seen.has(value)) return [];
	seen.add(value);
	const found: string[] = [];
	for (const key of Object.getOwnPropertyNames(value)) {
		let child: unknown;
		try {
			child = (value as Record<string, unknown>)[key];
		} catch {
			continue;
		}
		found.push(...secretPaths(child, secret, `${path}.${key}`, seen, depth + 1));
	}
	return found;
}

/** Where the secret leaks from an error or output: deep scan plus its JSON form. */
export function leaks(value: unknown, secret: string): string[] {
	const found = secretPaths(value, secret);
	let json = '';
	try {
		json = JSON.stringify(value) ?? '';
	} catch {
		json = '';
	}
	if (json.includes(secret)) found.push('JSON.stringify');
	return found;
}

/** Per-category counts, written to RESULTS.md and stdout by `flushTally`. */
export interface Tally {
	[category: string]: { tried: number; failed: number };
}

export function newTally(): Tally {
	return {};
}

export function count(tally: Tally, category: string, failed: boolean): void {
	tally[category] ??= { tried: 0, failed: 0 };
	tally[category].tried++;
	if (failed) tally[category].failed++;
}

const RESULTS_DIR = join(__dirname, 'results');

/** Saves this file's tally, then rewrites RESULTS.md from every file's latest tally and prints the totals. */
export function flushTally(file: string, tally: Tally, seconds: number): void {
	if (!existsSync(RESULTS_DIR)) mkdirSync(RESULTS_DIR);
	writeFileSync(join(RESULTS_DIR, `${file}.json`), JSON.stringify({ tally, seconds, at: new Date().toISOString() }, null, 1));
	const all: Tally = {};
	const rows: string[] = [];
	for (const name of readdirSync(RESULTS_DIR).filter((entry) => entry.endsWith('.json')).sort()) {
		const saved = JSON.parse(readFileSync(join(RESULTS_DIR, name), 'utf8')) as { tally: Tally; seconds: number; at: string };
		for (const [category, counts] of Object.entries(saved.tally)) {
			all[category] = counts;
			rows.push(`| ${category} | ${counts.tried} | ${counts.failed} | ${name.replace(/\.json$/, '')} |`);
		}
	}
	const tried = Object.values(all).reduce((sum, counts) => sum + counts.tried, 0);
	const failed = Object.values(all).reduce((sum, counts) => sum + counts.failed, 0);
	const markdown = [
		'# Reliability matrix results',
		'',
		'Written by `npm test` (test/reliability/*.test.ts). One row per category; the last run of each file (no timings, so the file only changes when the matrix does).',
		'',
		'| Category | Cases tried | Failures | Test file |',
		'|---|---|---|---|',
		...rows,
		`| **Total** | **${tried}** | **${failed}** | |`,
		'',
	].join('\n');
	writeFileSync(join(__dirname, 'RESULTS.md'), markdown);
	const mine = Object.entries(tally).map(([category, counts]) => `${category}: ${counts.tried} tried, ${counts.failed} failed`).join('; ');
	process.stdout.write(`\n[reliability] ${file} (${seconds.toFixed(1)} s): ${mine}\n`);
}
