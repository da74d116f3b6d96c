/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test infrastructure runs in plain Node.js, not inside n8n */
/**
 * A world kept across restarts (the demo, issue 51): every record (subscribers, conversations with their statuses,
 * labels, notes, orders …), the clock and the id counters, as JSON in one file. Not kept: the webhooks' settings (the
 * demo points them at its workflow at every start), their delivery log, the status timers, and the bytes of files
 * uploaded at run time (the seed's sample files are made again by the seed).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { SimState } from './state';

const NOT_KEPT = new Set(['webhooks', 'statuses']);

/** What is kept of a world, as JSON text. */
function snapshot(state: SimState): string {
	return JSON.stringify(
		Object.fromEntries(Object.entries(state).filter(([key]) => !NOT_KEPT.has(key))),
	);
}

/**
 * A saver of the world (read through `world`, as a simulator's reset replaces it): each call writes it to `file` when
 * it changed since the last write, as a whole file or none (written beside it, then renamed). Answers whether it wrote.
 */
export function stateSaver(world: () => SimState, file: string): () => boolean {
	let saved = '';
	return () => {
		const text = snapshot(world());
		if (text === saved) return false;
		writeFileSync(`${file}.tmp`, text);
		renameSync(`${file}.tmp`, file);
		saved = text;
		return true;
	};
}

/** Puts a kept world into `state` (a freshly seeded one); false when there is no such file. */
export function restoreState(state: SimState, file: string): boolean {
	if (!existsSync(file)) return false;
	const kept = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
	for (const [key, value] of Object.entries(kept))
		if (!NOT_KEPT.has(key) && key in state)
			(state as unknown as Record<string, unknown>)[key] = value;
	state.sync();
	return true;
}
