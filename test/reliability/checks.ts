/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test infrastructure runs in plain Node.js, not inside n8n */
/** Shared checks of the reliability matrix: secret scanning, operation names, tallies. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodePropertyOptions } from 'n8n-workflow';
import { BotSailor } from '../../nodes/BotSailor/BotSailor.node';
import type { RecordedRequest } from '../simulator/server';

/** Every resource/operation of the node description with its display names. */
export function describedOperations(): Array<{
	resource: string;
	operation: string;
	label: string;
	parameterNames: Set<string>;
}> {
	const { properties } = new BotSailor().description;
	const resources = (properties.find((property) => property.name === 'resource')?.options ??
		[]) as INodePropertyOptions[];
	const result = [];
	for (const resource of resources) {
		const operationProperties = properties.filter(
			(property) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes(resource.value),
		);
		for (const option of operationProperties.flatMap(
			(property) => (property.options ?? []) as INodePropertyOptions[],
		)) {
			const shown = properties.filter(
				(property) =>
					(property.displayOptions?.show?.resource ?? [resource.value]).includes(resource.value) &&
					(property.displayOptions?.show?.operation ?? [option.value]).includes(option.value),
			);
			const parameterNames = new Set<string>();
			const collect = (entries: unknown[]) => {
				for (const entry of entries as Array<{
					displayName?: string;
					options?: unknown[];
					values?: unknown[];
				}>) {
					if (entry.displayName) parameterNames.add(entry.displayName);
					if (Array.isArray(entry.options)) collect(entry.options);
					if (Array.isArray(entry.values)) collect(entry.values);
				}
			};
			collect(shown);
			result.push({
				resource: String(resource.value),
				operation: String(option.value),
				label: `${resource.name} → ${option.name}`,
				parameterNames,
			});
		}
	}
	return result;
}

/** Paths inside `value` where `secret` occurs: own properties (enumerable or not), Buffers, cycles handled. */
export function secretPaths(
	value: unknown,
	secret: string,
	path = '$',
	seen = new WeakSet<object>(),
	depth = 0,
): string[] {
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

/**
 * Requests whose token, as it left the process (the simulator scans the raw URL, headers and body), is
 * anywhere but once in the form body and, where the API takes a bearer, the Authorization header. A request
 * without the token in its body is listed too: then the scan could not see it, and the check would prove nothing.
 */
export function tokenMisplaced(requests: RecordedRequest[]): string[] {
	const problems: string[] = [];
	for (const request of requests) {
		const allowed = new Set([
			'body×1',
			...(request.tokenIn.includes('bearer') ? ['header:authorization'] : []),
		]);
		if (
			!request.tokenOnWire.includes('body×1') ||
			request.tokenOnWire.some((place) => !allowed.has(place))
		) {
			problems.push(
				`${request.path}: token at ${request.tokenOnWire.join(', ') || 'no place found'}`,
			);
		}
	}
	return problems;
}

/**
 * Per-category counts, written to RESULTS.md and stdout by `flushTally`. `behaviours` holds what each case
 * did, normalised (the operation's name and numbers taken out): many cases that took the same code path
 * to the same error are one behaviour, and the results say how many distinct ones the runs exercised.
 */
export interface Tally {
	[category: string]: { tried: number; failed: number; behaviours: string[] };
}

export function newTally(): Tally {
	return {};
}

export function count(tally: Tally, category: string, failed: boolean, behaviour?: string): void {
	tally[category] ??= { tried: 0, failed: 0, behaviours: [] };
	tally[category].tried++;
	if (failed) tally[category].failed++;
	if (behaviour !== undefined && !tally[category].behaviours.includes(behaviour))
		tally[category].behaviours.push(behaviour);
}

/** What an error says, with the operation's name, quoted values and numbers taken out: the shape of the behaviour. */
export function behaviourOf(
	error:
		| { name?: string; message?: string; description?: string | null; httpCode?: string | null }
		| undefined,
	label: string,
): string {
	if (!error) return 'no error';
	const normalise = (text: string) =>
		text
			.split(label)
			.join('<operation>')
			.replace(/"[^"]*"/g, '"…"')
			.replace(/\d+(\.\d+)?/g, '#');
	return `${error.name} ${error.httpCode ?? ''}: ${normalise(error.message ?? '')} | ${normalise(error.description ?? '')}`;
}

const RESULTS_DIR = join(__dirname, 'results');

/**
 * Saves this file's tally for the run (results/<file>.json) and prints it. RESULTS.md is written by the
 * jest reporter (totalsReporter.js) at the end of a run, and only when every reliability file ran and passed.
 */
export function flushTally(file: string, tally: Tally, seconds: number): void {
	if (!existsSync(RESULTS_DIR)) mkdirSync(RESULTS_DIR);
	writeFileSync(
		join(RESULTS_DIR, `${file}.json`),
		JSON.stringify({ tally, seconds, at: new Date().toISOString() }, null, 1),
	);
	const mine = Object.entries(tally)
		.map(
			([category, counts]) =>
				`${category}: ${counts.tried} tried, ${counts.behaviours.length || '–'} distinct, ${counts.failed} failed`,
		)
		.join('; ');
	process.stdout.write(`\n[reliability] ${file} (${seconds.toFixed(1)} s): ${mine}\n`);
}
