/**
 * Row 12: Send Text × N with Wait for Delivery, statuses arriving 1–10 s after each send (the simulator's
 * delivery-statuses, SPEC-GAP: test/simulator/statuses.ts), against the same sends without it in the same run.
 * Measured: status requests per message (goal ≤ 3), the run's wall time after the slowest status arrived
 * (goal ≤ 2 s), messages sent more than once (goal 0), and every item's outcome.
 * A second line: Status Updates From "Webhook Trigger Events, Reads as Backstop", the simulator posting its Message
 * Status webhooks over HTTP to the BotSailor Webhook Trigger in this process (n8n-core's WebhookContext, as the
 * tests drive it: test/webhookTrigger/webhookHarness.ts), which feeds the status hub the wait listens to.
 */
// The explicit .ts: under tsx, `BotSailorWebhookTrigger.node` would resolve to the codex file (.node.json).
/* eslint-disable @typescript-eslint/no-require-imports */
const { BotSailorWebhookTrigger } =
	require('../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node.ts') as typeof import('../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node');
/* eslint-enable @typescript-eslint/no-require-imports */
import { clearStatusHub } from '../nodes/shared/triggers/statusEvents';
import { runNode } from '../test/harness/harness';
import { startReceiver } from '../test/webhookTrigger/receiver';
import { WebhookRunner } from '../test/webhookTrigger/webhookHarness';
import { fmt, timed, type SimProcess } from './lib';
import { sendTextNode, sendTextParameters } from './sendTextNode';

const URL_CHECK = 'bench-status-secret';

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
	const runner = new WebhookRunner({
		webhookType: new BotSailorWebhookTrigger(),
		parameters: { event: 'incomingMessage', secret: URL_CHECK },
	});
	await runner.activate();
	const receiver = await startReceiver(() => runner);
	const run = async (prefix: string, wait: boolean, events = false) => {
		await sim.control('reset');
		await sim.control('clear-requests');
		clearStatusHub();
		await sim.control('webhooks', {
			phone_number_id: phoneNumberId,
			urls: events ? { message_status: `${receiver.url}?secret=${URL_CHECK}` } : {},
		});
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
					...(events ? { deliveryStatusSource: 'webhookEvents' } : {}),
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
			const delivery = item.json.delivery as { status?: string; source?: string } | undefined;
			const status = `${String(delivery?.status)} (${String(delivery?.source)})`;
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
	const fromEvents = await run('1997', true, true);
	await sim.control('delivery-statuses', { off: true });
	await sim.control('webhooks', { phone_number_id: phoneNumberId, urls: {} });
	await receiver.close();
	const eventsLabel = `12. Send Text × ${count}, Wait for Delivery from the Webhook Trigger's status events (reads as backstop), statuses 1–10 s after each send`;
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
		[
			eventsLabel,
			'0 ms',
			'status requests per message',
			fmt(fromEvents.statusReads / count, 2),
			`${fmt(waiting.statusReads / count, 2)} (Status Reads, same run)`,
			'–',
			'≤ 3',
		],
		[
			eventsLabel,
			'0 ms',
			'wall time after the slowest status arrived (s)',
			fmt(fromEvents.afterSlowestMs / 1000, 2),
			`slowest status at ${fmt(fromEvents.slowestStatusMs / 1000, 2)} s; run ${fmt(fromEvents.wallMs / 1000, 2)} s`,
			'–',
			'≤ 2 s',
		],
		[
			eventsLabel,
			'0 ms',
			'messages sent twice; sends',
			`${fromEvents.sentTwice}; ${fromEvents.sends}`,
			'–',
			'–',
			'0',
		],
		[eventsLabel, '0 ms', 'outcomes', fromEvents.statuses, '–', '–', `delivered ${count}`],
	];
}
