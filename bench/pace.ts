/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the bench is a command-line script in plain Node.js, not node code */
/**
 * Row 10: a campaign of Send Template items at a real-world round trip (300 ms ± 30 %) against platforms whose
 * limits are 3, 10, 30 and 60 concurrent requests, and one whose limit drops from 30 to 10 halfway: the adaptive
 * pace (pace.ts, the credential's default ceiling) beside the ideal (limit ÷ latency, at most WhatsApp's 80 msg/s)
 * and beside the fixed 6 in flight of earlier versions.
 * SPEC-GAP: the spec shows no rate limit; the limit is the simulator's concurrency cap (429 above it, no Retry-After).
 * And a campaign where Meta refuses some customers (issue 55): 5 % answer 131056 (pair rate limit) once, 2 % answer
 * 131049 (marketing limit) every time, both relayed as HTTP 429 (SPEC-GAP: test/simulator/state.ts metaRefusals):
 * the others keep the pace, nobody gets a message twice.
 */
import { paces } from '../nodes/BotSailor/sending/pace';
import { DEFAULT_SENDS_IN_FLIGHT } from '../nodes/shared/http/credential';
import { runNode } from '../test/harness/harness';
import { fmt, timed, type SimProcess } from './lib';
import { sendTextNode } from './sendTextNode';

export const PACE_LATENCY_MS = 300;
export const PACE_JITTER = 0.3;
/** WhatsApp Cloud API's default throughput per business number (messages a second). */
export const WHATSAPP_MSG_PER_S = 80;

interface Scenario {
	limit: number;
	/** The limit from halfway through the run on. */
	dropTo?: number;
}
export const PACE_SCENARIOS: Scenario[] = [
	{ limit: 3 },
	{ limit: 10 },
	{ limit: 30 },
	{ limit: 60 },
	{ limit: 30, dropTo: 10 },
];

const idealRate = (limit: number) => Math.min(limit / (PACE_LATENCY_MS / 1000), WHATSAPP_MSG_PER_S);

/** The ideal throughput of a run: its halves at their limits' ideal rates. */
function ideal({ limit, dropTo }: Scenario): number {
	if (dropTo === undefined) return idealRate(limit);
	return 2 / (1 / idealRate(limit) + 1 / idealRate(dropTo));
}

interface Measured {
	delivered: number;
	lost: number;
	duplicated: number;
	requests: number;
	limited: number;
	throughput: number;
	failed?: string;
	/** After the drop: the last moment the platform had more in flight than the new limit, ms after the drop. */
	adaptMs?: number;
	/** After the drop: 429s answered from the drop on. */
	limitedAfterDrop?: number;
	/** With Meta's refusals: the customers not refused, delivered per second until the last of them was (at othersMs). */
	othersThroughput?: number;
	othersMs?: number;
	wallMs?: number;
	/** With Meta's refusals: 131056 customers delivered (after their cooldown), 131049 customers delivered (must be 0). */
	pairDelivered?: number;
	limitedDelivered?: number;
}

/** Who Meta refuses in the refusal line: 5 % answer 131056 once, 2 % 131049 always (by index, no overlap). */
export const isPairLimited = (index: number) => index % 20 === 7;
export const isMarketingLimited = (index: number) => index % 50 === 3;

async function campaign(
	sim: SimProcess,
	scenario: Scenario,
	count: number,
	adaptive: boolean,
	phoneNumberId: string,
	prefix: string,
	refusals = false,
): Promise<Measured> {
	await sim.control('reset');
	await sim.control('latency', { ms: PACE_LATENCY_MS, jitter: PACE_JITTER });
	await sim.control('concurrency-cap', { max: scenario.limit });
	await sim.control('clear-requests');
	await sim.control('in-flight', { reset: true });
	const phoneOf = (index: number) => `${prefix}${String(index).padStart(6, '0')}`;
	const indexes = Array.from({ length: count }, (_, index) => index);
	if (refusals) {
		const numbers = (test: (index: number) => boolean, code: number) =>
			Object.fromEntries(indexes.filter(test).map((index) => [phoneOf(index), code]));
		await sim.control('meta-refusals', {
			numbers: numbers(isPairLimited, 131056),
			times: 1,
			http_status: 429,
		});
		await sim.control('meta-refusals', { numbers: numbers(isMarketingLimited, 131049) });
	}
	// Each run starts as a fresh process would: at 6 (or fixed at 6).
	paces.clear();
	const templates = await sim.control<
		Array<{ template_id: string; template_name: string; phone_number_id: string }>
	>('state', { collection: 'templates' });
	const template = templates.find(
		(entry) => entry.template_name === 'welcome_offer' && entry.phone_number_id === phoneNumberId,
	)!;
	const before = (await sim.control<{ messages: number }>('state')).messages;
	let dropAt: number | undefined;
	let lastOver: number | undefined;
	let limitedBeforeDrop = 0;
	let watching = scenario.dropTo !== undefined || refusals;
	// With refusals: (time, messages delivered) samples, to find when the last customer not refused was delivered.
	const samples: Array<[number, number]> = [];
	const watcher = (async () => {
		while (watching) {
			await new Promise((resolve) => setTimeout(resolve, refusals ? 100 : 20));
			if (refusals) {
				const { messages } = await sim.control<{ messages: number }>('state');
				samples.push([performance.now(), messages - before]);
			} else if (dropAt === undefined) {
				const { messages } = await sim.control<{ messages: number }>('state');
				if (messages - before >= count / 2) {
					limitedBeforeDrop = (await sim.control<{ overCapacity: number }>('in-flight'))
						.overCapacity;
					await sim.control('concurrency-cap', { max: scenario.dropTo });
					dropAt = performance.now();
				}
			} else {
				const report = await sim.control<{ inFlight: number }>('in-flight');
				if (report.inFlight > scenario.dropTo!) lastOver = performance.now();
			}
		}
	})();
	const nodeType = sendTextNode(adaptive ? {} : { adaptive: false, concurrency: 6 });
	const started = performance.now();
	const run = await timed(() =>
		runNode({
			nodeType,
			typeVersion: 1.1,
			// Meta's refusals fail their items; the campaign goes on.
			continueOnFail: refusals,
			credentials: {
				baseUrl: sim.url,
				apiToken: sim.token,
				apiForm: 'current',
			},
			items: indexes.map((index) => ({ json: { phone: phoneOf(index), name: `Ava ${index}` } })),
			parameters: {
				resource: 'message',
				operation: 'sendTemplate',
				phoneNumberId: { __rl: true, mode: 'id', value: phoneNumberId },
				phoneNumber: '={{ $json.phone }}',
				templateId: { __rl: true, mode: 'id', value: String(template.template_id) },
				variableSource: 'mapper',
				templateVariables: {
					mappingMode: 'defineBelow',
					value: {
						'templateVariable-first_name-1': '={{ $json.name }}',
						'templateVariable-discount-2': '10%',
					},
				},
			} as never,
		}),
	);
	watching = false;
	await watcher;
	const report = await sim.control<{ overCapacity: number }>('in-flight');
	const messages = await sim.control<
		Array<{ sender: string; whatsapp_bot_subscriber_subscriber_id: string }>
	>('state', { collection: 'messages' });
	const counts = new Map<string, number>();
	for (const message of messages)
		if (
			message.sender === 'bot' &&
			message.whatsapp_bot_subscriber_subscriber_id.startsWith(prefix)
		)
			counts.set(
				message.whatsapp_bot_subscriber_subscriber_id,
				(counts.get(message.whatsapp_bot_subscriber_subscriber_id) ?? 0) + 1,
			);
	const requests = (await sim.control<Array<{ path: string }>>('requests')).filter(
		(request) => request.path === '/whatsapp/send/template',
	).length;
	await sim.control('clear-faults');
	let others: Partial<Measured> = {};
	if (refusals) {
		const refused = new Set(
			indexes.filter((index) => isPairLimited(index) || isMarketingLimited(index)).map(phoneOf),
		);
		const ours = messages.filter(
			(message) =>
				message.sender === 'bot' &&
				message.whatsapp_bot_subscriber_subscriber_id.startsWith(prefix),
		);
		// Messages are kept in the order the platform accepted them: the position of the last one to a customer not refused.
		let last = 0;
		ours.forEach((message, position) => {
			if (!refused.has(message.whatsapp_bot_subscriber_subscriber_id)) last = position + 1;
		});
		const at = samples.find(([, delivered]) => delivered >= last)?.[0] ?? performance.now();
		const deliveredTo = (test: (index: number) => boolean) =>
			indexes.filter((index) => test(index) && counts.has(phoneOf(index))).length;
		others = {
			othersThroughput: ((count - refused.size) / (at - started)) * 1000,
			othersMs: at - started,
			pairDelivered: deliveredTo(isPairLimited),
			limitedDelivered: deliveredTo(isMarketingLimited),
		};
	}
	return {
		...others,
		delivered: counts.size,
		lost: count - counts.size,
		duplicated: [...counts.values()].reduce((sum, n) => sum + n - 1, 0),
		requests,
		limited: report.overCapacity,
		throughput: (counts.size / run.wallMs) * 1000,
		wallMs: run.wallMs,
		failed: run.result.error?.message,
		adaptMs: dropAt === undefined ? undefined : Math.max(0, (lastOver ?? dropAt) - dropAt),
		limitedAfterDrop: dropAt === undefined ? undefined : report.overCapacity - limitedBeforeDrop,
	};
}

/** Bench row 10's line for Meta's refusals: 5 % of customers answer 131056 once, 2 % 131049, platform limit 10. */
export async function refusalRow(
	sim: SimProcess,
	options: { items: number; phoneNumberId: string; log: (text: string) => void },
): Promise<string[]> {
	const scenario = { limit: 10 };
	// The same campaign without refusals first, in the same conditions (a loaded machine slows both alike).
	options.log(
		`row 10, Meta's refusals: the same campaign without refusals, ${options.items} items`,
	);
	const plain = await campaign(sim, scenario, options.items, true, options.phoneNumberId, '1969');
	options.log(`row 10, Meta's refusals: adaptive pace, ${options.items} items`);
	const ours = await campaign(
		sim,
		scenario,
		options.items,
		true,
		options.phoneNumberId,
		'1968',
		true,
	);
	const target = ideal(scenario);
	const pair = Array.from({ length: options.items }, (_, index) => index).filter(
		isPairLimited,
	).length;
	const limited = Array.from({ length: options.items }, (_, index) => index).filter(
		isMarketingLimited,
	).length;
	const row = [
		`10. Campaign: Send Template × ${options.items}, platform limit 10; Meta refuses 5 % once with 131056 and 2 % with 131049 (both as HTTP 429)`,
		'300 ms ± 30 %',
		`the customers not refused: delivered per second until the last of them, vs ideal ${fmt(target, 1)} msg/s (limit ÷ latency)`,
		`${fmt(ours.othersThroughput ?? 0, 1)} msg/s; 131056 customers delivered ${ours.pairDelivered} of ${pair} (after their cooldown), 131049 customers delivered ${ours.limitedDelivered} of ${limited}; requests ${ours.requests}, platform 429s ${ours.limited}; lost ${ours.lost - limited}, duplicated ${ours.duplicated}`,
		`ideal ${fmt(target, 1)} msg/s; the same campaign without refusals: ${fmt(plain.throughput, 1)} msg/s`,
		`${fmt((100 * (ours.othersThroughput ?? 0)) / target)} % of ideal; ${fmt((100 * (ours.othersThroughput ?? 0)) / plain.throughput)} % of the campaign without refusals`,
		'≥ 85 % of ideal for the others; 131049 never resent; duplicated 0',
	];
	options.log(row.join(' | '));
	options.log(
		`row 10, Meta's refusals: the others were all delivered at ${fmt(ours.othersMs ?? 0)} ms, the run took ${fmt(ours.wallMs ?? 0)} ms; without refusals ${fmt(plain.wallMs ?? 0)} ms`,
	);
	return row;
}

export async function paceRows(
	sim: SimProcess,
	options: {
		items: number;
		fixedItems: number;
		phoneNumberId: string;
		log: (text: string) => void;
	},
): Promise<string[][]> {
	const rows: string[][] = [];
	for (const scenario of PACE_SCENARIOS) {
		const name =
			scenario.dropTo === undefined
				? `limit ${scenario.limit}`
				: `limit ${scenario.limit} → ${scenario.dropTo} halfway`;
		options.log(`row 10, ${name}: adaptive pace, ${options.items} items`);
		const ours = await campaign(sim, scenario, options.items, true, options.phoneNumberId, '1966');
		options.log(`row 10, ${name}: fixed 6, ${options.fixedItems} items`);
		const fixed = await campaign(
			sim,
			scenario,
			options.fixedItems,
			false,
			options.phoneNumberId,
			'1967',
		);
		const target = ideal(scenario);
		const share = (limited: number, requests: number) =>
			`${fmt((100 * limited) / Math.max(1, requests), 2)} %`;
		rows.push([
			`10. Campaign: Send Template × ${options.items}, 300 ms ± 30 %, platform ${name} (429 above)`,
			'300 ms ± 30 %',
			`adaptive pace (default ceiling ${DEFAULT_SENDS_IN_FLIGHT}) vs ideal ${fmt(target, 1)} msg/s (limit ÷ latency, ≤ ${WHATSAPP_MSG_PER_S}); fixed 6 (earlier versions, ${options.fixedItems} items)`,
			`${fmt(ours.throughput, 1)} msg/s; 429s ${ours.limited} of ${ours.requests} requests (${share(ours.limited, ours.requests)}); delivered ${ours.delivered}, lost ${ours.lost}, duplicated ${ours.duplicated}${ours.adaptMs === undefined ? '' : `; after the drop: over the new limit for ${fmt(ours.adaptMs)} ms, ${ours.limitedAfterDrop} 429s`}${ours.failed ? `; execution failed: "${ours.failed.slice(0, 60)}"` : ''}`,
			`ideal ${fmt(target, 1)} msg/s; fixed 6: ${fmt(fixed.throughput, 1)} msg/s, 429s ${share(fixed.limited, fixed.requests)}, not delivered ${fixed.lost}, duplicated ${fixed.duplicated}${fixed.failed ? ` (execution failed: "${fixed.failed.slice(0, 70)}")` : ''}`,
			`${fmt((100 * ours.throughput) / target)} % of ideal; ×${fmt(ours.throughput / fixed.throughput, 1)} fixed 6`,
			`≥ 85 % of ideal; ≤ 2 % 429s; lost 0, duplicated 0${scenario.dropTo === undefined ? '' : '; under the new limit within 2 s'}`,
		]);
		options.log(rows[rows.length - 1].join(' | '));
	}
	rows.push(await refusalRow(sim, options));
	return rows;
}
