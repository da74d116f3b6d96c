/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- the bench is a command-line script in plain Node.js, not node code */
/**
 * `npm run bench` (BENCH_QUICK=1 for small counts): every scenario side by side in one run, each
 * with and without 20 ms simulated latency (row 10: 300 ms ± 30 %, bench/pace.ts); prints one table and writes
 * bench/RESULTS.md.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'botsailor-bench-'));
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';

import type { INodeType } from 'n8n-workflow';
import { createPoller, runNode } from '../test/harness/harness';
import { deliveryWaitRows } from './deliveryWait';
import {
	httpListParameters,
	httpRequestNode,
	httpSendParameters,
	HTTP_REQUEST_VERSION,
} from './httpRequest';
import { fmt, ROOT, startSimProcess, timed, type SimProcess } from './lib';
import { memoryRows } from './memory';
import { packageRows } from './package';
import { paceRows } from './pace';
import { reactionRows } from './reaction';
import { replyGuardRows } from './replyGuards';
import { realN8nSendRow } from './realN8n';
import { sendTextNode, sendTextParameters } from './sendTextNode';
import { windowRows } from './window';

// The explicit .ts: under tsx, `BotSailorTrigger.node` would resolve to the codex file BotSailorTrigger.node.json.
/* eslint-disable @typescript-eslint/no-require-imports */
const { BotSailorTrigger } =
	require('../nodes/BotSailorTrigger/BotSailorTrigger.node.ts') as typeof import('../nodes/BotSailorTrigger/BotSailorTrigger.node');
/* eslint-enable @typescript-eslint/no-require-imports */

const QUICK = process.env.BENCH_QUICK === '1';
/** BENCH_ROWS=1,4 runs only those rows (nothing is written to RESULTS files then). */
const ONLY = process.env.BENCH_ROWS?.split(',').map(Number);
const wanted = (row: number) => !ONLY || ONLY.includes(row);
const N = {
	send: QUICK ? 100 : 1_000,
	subscribers: QUICK ? 1_000 : 10_000,
	bulk: QUICK ? 500 : 5_000,
	pace: QUICK ? 500 : 5_000,
	paceFixed: QUICK ? 200 : 1_000,
	triggerScales: QUICK ? [1_000] : [1_000, 100_000],
	triggerK: [0, 1, 10, 100],
};
const PHONE_NUMBER_ID = '104382179270221';
const LATENCIES = [0, 20];

type Row = [
	scenario: string,
	latency: string,
	measure: string,
	ours: string,
	reference: string,
	ratio: string,
	goal: string,
];
const rows: Row[] = [];
const log = (text: string) => process.stderr.write(`bench: ${text}\n`);

const creds = (sim: SimProcess) => ({
	baseUrl: sim.url,
	apiToken: sim.token,
	apiForm: 'current' as const,
});
const sendItems = (count: number, prefix: string) =>
	Array.from({ length: count }, (_, index) => ({
		json: { phone: `${prefix}${String(index).padStart(6, '0')}`, text: `Hello ${index}` },
	}));

async function setLatency(sim: SimProcess, ms: number) {
	await sim.control('latency', { ms });
}

/** Row 1 in-process: the same items through our Send Text and through HTTP Request, CPU of this process only. */
async function perItemInProcess(sim: SimProcess, http: INodeType, latency: number) {
	const ours = sendTextNode({});
	const run = (nodeType: INodeType, parameters: object, count: number, prefix: string) =>
		timed(() =>
			runNode({
				nodeType,
				credentials: creds(sim),
				items: sendItems(count, prefix),
				parameters: parameters as never,
			}),
		);
	const oursParameters = sendTextParameters(PHONE_NUMBER_ID);
	const httpParameters = httpSendParameters(sim.url, sim.token, PHONE_NUMBER_ID);
	await run(ours, oursParameters, 50, '1990'); // warm-up (JIT, module loads)
	await run(http, httpParameters, 50, '1991');
	const a = await run(ours, oursParameters, N.send, '1992');
	const b = await run(http, httpParameters, N.send, '1993');
	if (a.result.error || b.result.error)
		throw new Error(`send failed: ${a.result.error?.message ?? b.result.error?.message}`);
	const label = `1. Send Text × ${N.send} vs HTTP Request ${HTTP_REQUEST_VERSION} (in-process engine)`;
	const lat = `${latency} ms`;
	rows.push([
		label,
		lat,
		'wall time (ms)',
		fmt(a.wallMs),
		fmt(b.wallMs),
		fmt(a.wallMs / b.wallMs, 2),
		'–',
	]);
	rows.push([
		label,
		lat,
		'CPU per item (ms)',
		fmt(a.cpuMs / N.send, 3),
		fmt(b.cpuMs / N.send, 3),
		fmt(a.cpuMs / b.cpuMs, 2),
		'≤ 1.0',
	]);
}

/** Peak RSS of this process while fn runs (sampled every 5 ms). */
async function withPeakRss<T>(
	fn: () => Promise<T>,
): Promise<{ value: T; peakMb: number; deltaMb: number }> {
	const start = process.memoryUsage().rss;
	let peak = start;
	const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
	try {
		const value = await fn();
		peak = Math.max(peak, process.memoryUsage().rss);
		return { value, peakMb: peak / 2 ** 20, deltaMb: (peak - start) / 2 ** 20 };
	} finally {
		clearInterval(timer);
	}
}

async function requestsTo(sim: SimProcess, path: string): Promise<number> {
	const requests = await sim.control<Array<{ path: string }>>('requests');
	return requests.filter((request) => request.path === path).length;
}

/** Row 2: Subscriber → Get Many (Return All) vs HTTP Request with its pagination settings. */
async function returnAll(sim: SimProcess, http: INodeType, latency: number) {
	await sim.control('reset');
	await setLatency(sim, latency);
	const existing = await sim.control<Array<{ phone_number_id: string }>>('state', {
		collection: 'subscribers',
	});
	const ofNumber = existing.filter((entry) => entry.phone_number_id === PHONE_NUMBER_ID).length;
	await sim.control('subscribers', {
		phone_number_id: PHONE_NUMBER_ID,
		count: N.subscribers - ofNumber,
	});
	const path = '/whatsapp/subscriber/list';
	const measure = async (nodeType: INodeType | undefined, parameters: object) => {
		await sim.control('clear-requests');
		const run = await withPeakRss(() =>
			timed(() => runNode({ nodeType, credentials: creds(sim), parameters: parameters as never })),
		);
		if (run.value.result.error) throw new Error(`list failed: ${run.value.result.error.message}`);
		return {
			...run,
			wallMs: run.value.wallMs,
			items: run.value.result.items.length,
			requests: await requestsTo(sim, path),
		};
	};
	const a = await measure(sendTextNode(false), {
		resource: 'subscriber',
		operation: 'getMany',
		phoneNumberId: { __rl: true, mode: 'id', value: PHONE_NUMBER_ID },
		returnAll: true,
	});
	const b = await measure(http, httpListParameters(sim.url, sim.token, PHONE_NUMBER_ID));
	const label = `2. Subscriber Get Many, Return All, ${N.subscribers} subscribers vs HTTP Request pagination`;
	const lat = `${latency} ms`;
	rows.push([
		label,
		lat,
		'requests made',
		String(a.requests),
		String(b.requests),
		fmt(a.requests / b.requests, 2),
		`${Math.ceil(N.subscribers / 100)}`,
	]);
	rows.push([
		label,
		lat,
		'output items',
		String(a.items),
		`${b.items} (one per page)`,
		'–',
		`${N.subscribers}`,
	]);
	rows.push([
		label,
		lat,
		'wall time (ms)',
		fmt(a.wallMs),
		fmt(b.wallMs),
		fmt(a.wallMs / b.wallMs, 2),
		'–',
	]);
	rows.push([
		label,
		lat,
		'peak RSS (MB, +growth)',
		`${fmt(a.peakMb)} (+${fmt(a.deltaMb)})`,
		`${fmt(b.peakMb)} (+${fmt(b.deltaMb)})`,
		fmt(a.deltaMb / Math.max(b.deltaMb, 1), 2),
		'–',
	]);
}

/** Row 3: requests and CPU of one trigger poll, idle and with k subscribers active since the last poll. */
async function triggerCost(sim: SimProcess, latency: number) {
	for (const scale of N.triggerScales) {
		await sim.control('reset');
		await setLatency(sim, latency);
		const existing = await sim.control<Array<{ phone_number_id: string }>>('state', {
			collection: 'subscribers',
		});
		const base = existing.length;
		const ofNumber = existing.filter((entry) => entry.phone_number_id === PHONE_NUMBER_ID).length;
		await sim.control('subscribers', { phone_number_id: PHONE_NUMBER_ID, count: scale - ofNumber });
		const poller = createPoller(
			new BotSailorTrigger(),
			{ event: 'newMessage', phoneNumberId: { __rl: true, mode: 'id', value: PHONE_NUMBER_ID } },
			creds(sim),
		);
		await poller.poll(); // first activation: starts from now
		let next = 0;
		for (const k of N.triggerK) {
			for (let index = 0; index < k; index++) {
				// Bulk subscribers are numbered from `base`: a message from k distinct existing subscribers.
				await sim.control('message', {
					phone_number_id: PHONE_NUMBER_ID,
					phone_number: `3361${String(base + next++).padStart(8, '0')}`,
					text: 'New!',
				});
			}
			await sim.control('clear-requests');
			const run = await timed(() => poller.poll());
			const requests = (await sim.control<unknown[]>('requests')).length;
			const label = `3. Trigger New Message poll, ${scale} subscribers`;
			rows.push([
				label,
				`${latency} ms`,
				k === 0 ? 'idle poll: requests / CPU ms' : `k = ${k} active: requests / CPU ms / items`,
				`${requests} / ${fmt(run.cpuMs, 1)}${k ? ` / ${run.result.length}` : ''}`,
				'–',
				'–',
				k === 0 ? 'small, independent of scale' : `items = ${k}`,
			]);
		}
	}
}

/** Row 4: 5,000 sends against a platform that answers 429 above 10 concurrent requests (SPEC-GAP: the spec shows no rate limit; docs/spec-gaps.md). */
async function bulkSafety(sim: SimProcess, latency: number) {
	const variants: Array<[string, INodeType]> = [
		['tool path: declarative engine, RoutingNode (what execute runs)', sendTextNode(false)],
		['workflow: bulk path (customOperations)', sendTextNode({})],
	];
	for (const [name, nodeType] of variants) {
		await sim.control('reset');
		await setLatency(sim, latency);
		await sim.control('concurrency-cap', { max: 10 });
		await sim.control('clear-requests');
		const prefix = '1777';
		const run = await timed(() =>
			runNode({
				nodeType,
				credentials: creds(sim),
				items: sendItems(N.bulk, prefix),
				parameters: sendTextParameters(PHONE_NUMBER_ID) as never,
			}),
		);
		const messages = await sim.control<
			Array<{ sender: string; whatsapp_bot_subscriber_subscriber_id: string }>
		>('state', { collection: 'messages' });
		const counts = new Map<string, number>();
		for (const message of messages) {
			if (
				message.sender === 'bot' &&
				message.whatsapp_bot_subscriber_subscriber_id.startsWith(prefix)
			) {
				counts.set(
					message.whatsapp_bot_subscriber_subscriber_id,
					(counts.get(message.whatsapp_bot_subscriber_subscriber_id) ?? 0) + 1,
				);
			}
		}
		const once = [...counts.values()].filter((count) => count === 1).length;
		const duplicated = [...counts.values()].reduce((sum, count) => sum + Math.max(0, count - 1), 0);
		const lost = N.bulk - counts.size;
		const requests = await requestsTo(sim, '/whatsapp/send');
		const throughput = (counts.size / run.wallMs) * 1000;
		const outcome = run.result.error
			? `execution failed: "${run.result.error.message.slice(0, 60)}"`
			: `execution ok, ${run.result.items.length} items`;
		rows.push([
			`4. Bulk Send Text × ${N.bulk}, platform cap 10 concurrent (429 above)`,
			`${latency} ms`,
			name,
			`delivered once ${once}, lost ${lost}, duplicated ${duplicated}; ${requests} requests; ${fmt(throughput)} msg/s; ${outcome}`,
			'–',
			'–',
			'lost 0, duplicated 0',
		]);
	}
	await sim.control('concurrency-cap', { max: null });
}

/** Row 6: 5,000 sends of which 1% are processed by the platform and then answered 504 by its gateway. */
async function lostAnswers(sim: SimProcess, latency: number) {
	await sim.control('reset');
	await setLatency(sim, latency);
	await sim.control('concurrency-cap', { max: 10 });
	await sim.control('fault', { path: '/whatsapp/send', kind: 'processThen504', everyNth: 100 });
	await sim.control('clear-requests');
	const prefix = '1888';
	const run = await timed(() =>
		runNode({
			nodeType: sendTextNode({}),
			credentials: creds(sim),
			items: sendItems(N.bulk, prefix),
			parameters: sendTextParameters(PHONE_NUMBER_ID) as never,
			continueOnFail: true,
		}),
	);
	const messages = await sim.control<
		Array<{ sender: string; whatsapp_bot_subscriber_subscriber_id: string }>
	>('state', { collection: 'messages' });
	const counts = new Map<string, number>();
	for (const message of messages) {
		if (
			message.sender === 'bot' &&
			message.whatsapp_bot_subscriber_subscriber_id.startsWith(prefix)
		) {
			counts.set(
				message.whatsapp_bot_subscriber_subscriber_id,
				(counts.get(message.whatsapp_bot_subscriber_subscriber_id) ?? 0) + 1,
			);
		}
	}
	const duplicated = [...counts.values()].reduce((sum, count) => sum + Math.max(0, count - 1), 0);
	const requests = await requestsTo(sim, '/whatsapp/send');
	const reported = run.result.items.filter((item) =>
		String(item.json.error ?? '').startsWith('The message may have been delivered'),
	).length;
	const successes = run.result.items.filter((item) => item.json.success === true).length;
	rows.push([
		`6. Bulk Send Text × ${N.bulk}, 1% processed then answered 504 (Continue On Fail)`,
		`${latency} ms`,
		'workflow: bulk path (customOperations)',
		`delivered ${counts.size}, duplicated ${duplicated}; ${requests} requests; ${successes} success items; ${reported} "may have been delivered" items`,
		'–',
		'–',
		`duplicated 0; ${N.bulk / 100} reported`,
	]);
	await sim.control('clear-faults');
}

/**
 * Row 9: Message Status Changed following 100 delivered messages (100 subscribers, read receipts off: never
 * "read"), requests per idle poll in their first hour and after it; the n8n host's clock is moved on here.
 */
async function idleStatusCost(sim: SimProcess) {
	await sim.control('reset');
	await setLatency(sim, 0);
	const realNow = Date.now;
	let offsetMs = 0;
	Date.now = () => realNow() + offsetMs;
	try {
		const poller = createPoller(
			new BotSailorTrigger(),
			{
				event: 'messageStatusChanged',
				phoneNumberId: { __rl: true, mode: 'id', value: PHONE_NUMBER_ID },
			},
			creds(sim),
		);
		const requestsOf = async (poll: () => Promise<unknown>) => {
			await sim.control('clear-requests');
			const run = await timed(poll);
			return {
				requests: (await sim.control<unknown[]>('requests')).length,
				cpuMs: run.cpuMs,
				result: run.result,
			};
		};
		await poller.poll();
		const subscribers = (
			await sim.control<Array<{ phone_number_id: string; chat_id: string }>>('state', {
				collection: 'subscribers',
			})
		)
			.filter((entry) => entry.phone_number_id === PHONE_NUMBER_ID)
			.slice(0, 100);
		const sent: string[] = [];
		for (const { chat_id } of subscribers) {
			sent.push(
				(
					await sim.control<{ wa_message_id: string }>('message', {
						phone_number_id: PHONE_NUMBER_ID,
						phone_number: chat_id,
						text: 'Your order shipped',
						sender: 'bot',
					})
				).wa_message_id,
			);
		}
		await poller.poll();
		await poller.poll();
		for (const wa_message_id of sent)
			await sim.control('message-status', { wa_message_id, status: 'delivered' });
		const reported = ((await poller.poll()) as unknown[]).length;
		const young = await requestsOf(() => poller.poll());
		offsetMs += 61 * 60_000;
		const idle: Array<{ requests: number; cpuMs: number }> = [];
		for (let poll = 0; poll < 10; poll++) {
			idle.push(await requestsOf(() => poller.poll()));
			offsetMs += 60_000;
		}
		// One of them is read: polls (one a minute) until it is reported.
		await sim.control('message-status', { wa_message_id: sent[50], status: 'read' });
		let polls = 0;
		let found = false;
		while (!found && polls < 200) {
			found = ((await poller.poll()) as Array<{ json: { wa_message_id?: string } }>).some(
				(item) => item.json.wa_message_id === sent[50],
			);
			polls++;
			offsetMs += 60_000;
		}
		offsetMs += 24 * 60 * 60_000;
		await poller.poll();
		const after = await requestsOf(() => poller.poll());
		const followed = (Object.values(poller.staticData())[0] as { state: { tracked: unknown[] } })
			.state.tracked.length;
		const label =
			'9. Trigger Message Status Changed, 100 delivered messages followed (100 subscribers, read receipts off)';
		const maxIdle = Math.max(...idle.map((entry) => entry.requests));
		rows.push([
			label,
			'0 ms',
			`idle poll in their first hour: requests / CPU ms (${reported} delivered reported before)`,
			`${young.requests} / ${fmt(young.cpuMs, 1)}`,
			'–',
			'–',
			'every poll checks each',
		]);
		rows.push([
			label,
			'0 ms',
			'idle poll after one hour: requests, max of 10 polls / CPU ms, median',
			`${maxIdle} / ${fmt(idle.map((entry) => entry.cpuMs).sort((a, b) => a - b)[5], 1)}`,
			'–',
			'–',
			'≤ 3',
		]);
		rows.push([
			label,
			'0 ms',
			'one of them read after one hour: polls until reported (1 request each beyond the walk)',
			found ? String(polls) : `not within ${polls}`,
			'–',
			'–',
			'≤ 100',
		]);
		rows.push([
			label,
			'0 ms',
			`25 h after delivery: messages followed / idle poll requests`,
			`${followed} / ${after.requests}`,
			'–',
			'–',
			'0 / 2',
		]);
	} finally {
		Date.now = realNow;
	}
}

function table(): string {
	const header: Row = [
		'Scenario',
		'Latency',
		'Measure',
		'n8n-nodes-botsailor',
		'Reference',
		'Ratio ours / ref',
		'Goal',
	];
	const line = (cells: string[]) =>
		`| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
	return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

async function main() {
	const started = performance.now();
	const sim = await startSimProcess();
	const http = httpRequestNode();
	try {
		for (const latency of wanted(1) ? LATENCIES : []) {
			await sim.control('reset');
			await setLatency(sim, latency);
			log(`row 1, latency ${latency} ms`);
			const real = await realN8nSendRow(sim, {
				items: N.send,
				latency,
				phoneNumberId: PHONE_NUMBER_ID,
			});
			if (real) rows.push(...(real as Row[]));
			else if (http) await perItemInProcess(sim, http, latency);
			else
				rows.push([
					'1. Send Text vs HTTP Request',
					`${latency} ms`,
					'not measured',
					'n8n 2.41.1 not provisioned (.cache/n8n-2.41.1)',
					'–',
					'–',
					'≤ 1.0',
				]);
		}
		for (const latency of wanted(2) ? LATENCIES : []) {
			log(`row 2, latency ${latency} ms`);
			if (http) await returnAll(sim, http, latency);
		}
		for (const latency of wanted(3) ? LATENCIES : []) {
			log(`row 3, latency ${latency} ms`);
			await triggerCost(sim, latency);
		}
		for (const latency of wanted(4) ? LATENCIES : []) {
			log(`row 4, latency ${latency} ms`);
			await bulkSafety(sim, latency);
		}
		for (const latency of wanted(6) ? LATENCIES : []) {
			log(`row 6, latency ${latency} ms`);
			await lostAnswers(sim, latency);
		}
		if (wanted(7)) {
			log('row 7');
			await sim.control('reset');
			await setLatency(sim, 0);
			rows.push(
				...((await reactionRows(sim, {
					messages: 50,
					pollMinutes: QUICK ? 1 : 3,
					phoneNumberId: PHONE_NUMBER_ID,
				})) as Row[]),
			);
		}
		if (wanted(8)) {
			log('row 8');
			await sim.control('reset');
			rows.push(...((await memoryRows(sim, 50, QUICK ? 1 : 3)) as Row[]));
		}
		if (wanted(9)) {
			log('row 9');
			await idleStatusCost(sim);
		}
		if (wanted(10)) {
			log('row 10');
			rows.push(
				...((await paceRows(sim, {
					items: N.pace,
					fixedItems: N.paceFixed,
					phoneNumberId: PHONE_NUMBER_ID,
					log,
				})) as Row[]),
			);
		}
		if (wanted(11)) {
			log('row 11');
			rows.push(
				...((await windowRows(sim, { count: N.send, phoneNumberId: PHONE_NUMBER_ID })) as Row[]),
			);
		}
		if (wanted(12)) {
			log('row 12');
			rows.push(
				...((await deliveryWaitRows(sim, {
					count: N.send,
					phoneNumberId: PHONE_NUMBER_ID,
				})) as Row[]),
			);
		}
		if (wanted(13)) {
			log('row 13');
			rows.push(
				...((await replyGuardRows(sim, {
					count: 200,
					phoneNumberId: PHONE_NUMBER_ID,
					operation: 'sendText',
				})) as Row[]),
				...((await replyGuardRows(sim, { count: 200, phoneNumberId: PHONE_NUMBER_ID })) as Row[]),
			);
		}
	} finally {
		await sim.stop();
	}
	if (wanted(5)) {
		log('row 5');
		rows.push(...((await packageRows()) as Row[]));
	}
	const minutes = (performance.now() - started) / 60_000;
	const text = [
		'# Benchmark results',
		'',
		`\`npm run bench\`${QUICK ? ' (quick mode, BENCH_QUICK=1: smaller counts)' : ''} on Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; total ${fmt(minutes, 1)} min.`,
		'Simulator in its own process (its CPU is not counted); latency = `sim.faults.latencyMs` added to every request.',
		'',
		table(),
		'',
	].join('\n');
	process.stdout.write(`${text}\n`);
	if (!ONLY) writeFileSync(join(ROOT, 'bench', QUICK ? 'RESULTS.quick.md' : 'RESULTS.md'), text);
}

main().then(
	() => process.exit(0),
	(error) => {
		process.stderr.write(`bench failed: ${(error as Error).stack}\n`);
		process.exit(1);
	},
);
