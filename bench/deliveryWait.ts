/**
 * Row 12: Send Text × N with Wait for Delivery, statuses arriving 1–10 s after each send (the simulator's
 * delivery-statuses, SPEC-GAP: test/simulator/statuses.ts), against the same sends without it in the same run.
 * Measured: status requests per message (goal ≤ 3), the run's wall time after the slowest status arrived
 * (goal ≤ 2 s), messages sent more than once (goal 0), and every item's outcome.
 */
import { runNode } from '../test/harness/harness';
import { fmt, timed, type SimProcess } from './lib';
import { sendTextNode, sendTextParameters } from './sendTextNode';

type Row = [string, string, string, string, string, string, string];

interface Recorded {
	path: string;
	body?: Record<string, unknown>;
}

export async function deliveryWaitRows(
	sim: SimProcess,
	{ count, phoneNumberId }: { count: number; phoneNumberId: string },
): Promise<Row[]> {
	const node = sendTextNode({});
	const credentials = { baseUrl: sim.url, apiToken: sim.token, apiForm: 'current' as const };
	const items = (prefix: string) =>
		Array.from({ length: count }, (_, index) => ({
			json: { phone: `${prefix}${String(index).padStart(6, '0')}`, text: `Hello ${index}` },
		}));
	const run = async (prefix: string, wait: boolean) => {
		await sim.control('reset');
		await sim.control('clear-requests');
		await sim.control('delivery-statuses', { delivered_after_ms: [1_000, 10_000], seed: 46 });
		const started = Date.now();
		const measured = await timed(() =>
			runNode({
				nodeType: node,
				credentials,
				items: items(prefix),
				parameters: {
					...sendTextParameters(phoneNumberId),
					...(wait ? { waitForDelivery: true, deliveryMaxWait: 60 } : {}),
				} as never,
			}),
		);
		const ended = Date.now();
		if (measured.result.error) throw new Error(`row 12: ${measured.result.error.message}`);
		const requests = await sim.control<Recorded[]>('requests');
		const report = await sim.control<{ changes: number; last_change_at: number }>(
			'delivery-statuses',
			{ report: true },
		);
		const sends = requests.filter((request) => request.path === '/whatsapp/send');
		const perNumber = new Map<string, number>();
		for (const request of sends) {
			const phone = String(request.body?.phone_number);
			perNumber.set(phone, (perNumber.get(phone) ?? 0) + 1);
		}
		const statuses = new Map<string, number>();
		for (const item of measured.result.items) {
			const status = String((item.json.delivery as { status?: string } | undefined)?.status);
			statuses.set(status, (statuses.get(status) ?? 0) + 1);
		}
		return {
			wallMs: measured.wallMs,
			sends: sends.length,
			sentTwice: [...perNumber.values()].filter((times) => times > 1).length,
			statusReads: requests.filter((request) => request.path === '/whatsapp/get/message-status')
				.length,
			slowestStatusMs: report.last_change_at - started,
			afterSlowestMs: ended - report.last_change_at,
			statuses: [...statuses].map(([status, times]) => `${status} ${times}`).join(', '),
		};
	};
	await run('1994', true); // warm-up
	const plain = await run('1995', false);
	const waiting = await run('1996', true);
	await sim.control('delivery-statuses', { off: true });
	const label = `12. Send Text × ${count}, Wait for Delivery, statuses 1–10 s after each send (vs the same sends without it)`;
	return [
		[
			label,
			'0 ms',
			'status requests per message',
			fmt(waiting.statusReads / count, 2),
			`${fmt(plain.statusReads / count, 2)} (without)`,
			'–',
			'≤ 3',
		],
		[
			label,
			'0 ms',
			'wall time after the slowest status arrived (s)',
			fmt(waiting.afterSlowestMs / 1000, 2),
			`slowest status at ${fmt(waiting.slowestStatusMs / 1000, 2)} s; run ${fmt(waiting.wallMs / 1000, 2)} s (without: ${fmt(plain.wallMs / 1000, 2)} s)`,
			'–',
			'≤ 2 s',
		],
		[
			label,
			'0 ms',
			'messages sent twice; sends',
			`${waiting.sentTwice}; ${waiting.sends}`,
			`${plain.sentTwice}; ${plain.sends} (without)`,
			'–',
			'0',
		],
		[label, '0 ms', 'outcomes', waiting.statuses, '–', '–', `delivered ${count}`],
	];
}
