/**
 * Wait for Delivery (nodes/BotSailor/sending/deliveryWait.ts), through n8n's engine against the simulator, on both
 * send paths: the workflow run (bulk path) and the node type's execute (the declarative path an AI tool runs).
 * SPEC-GAP: the statuses, their delays and the failed_reason texts are the simulator's assumption
 * (test/simulator/statuses.ts: WhatsApp Cloud API's model and documented error codes).
 */
import { sendTextNode, sendTextParameters } from '../../bench/sendTextNode';
import { TAIL_GAP_MS } from '../../nodes/BotSailor/sending/deliveryWait';
import { runNode } from '../harness/harness';
import { NUMBER } from '../harness/params';
import { deliveryStatuses, sendTextItems } from '../harness/deliveryStatuses';
import { useSimulator } from '../harness/simulatorFixture';

const fx = useSimulator();
const PATHS = ['workflow', 'execute'] as const;
const FAILING = '19990000002';

const statuses = (input: Parameters<typeof deliveryStatuses>[1]) => deliveryStatuses(fx.sim, input);

async function send(
	path: (typeof PATHS)[number],
	count: number,
	parameters: Record<string, unknown> = {},
	extra: {
		continueOnFail?: boolean;
		retryOnFail?: { maxTries: number; waitBetweenTries?: number };
	} = {},
) {
	return await runNode({
		credentials: fx.credentials,
		items: sendTextItems(count),
		path,
		continueOnFail: extra.continueOnFail,
		retryOnFail: extra.retryOnFail,
		parameters: {
			...sendTextParameters(NUMBER),
			waitForDelivery: true,
			deliveryMaxWait: 20,
			...parameters,
		} as never,
	});
}

const sends = () => fx.sim.requests.filter((request) => request.path === '/whatsapp/send');
const statusReads = () =>
	fx.sim.requests.filter((request) => request.path === '/whatsapp/get/message-status');

describe.each(PATHS)('Wait for Delivery (%s path)', (path) => {
	it('puts delivered, read and failed (with the reason) on the items; Output the Item passes a failure on', async () => {
		statuses({
			delivered_after_ms: [50, 300],
			read_after_ms: 10,
			fail_numbers: { [FAILING]: 131026 },
		});
		const { items: output, error } = await send(path, 4, { onDeliveryFailed: 'output' });
		expect(error).toBeUndefined();
		expect(output).toHaveLength(4);
		expect(output.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		for (const [index, item] of output.entries()) {
			const delivery = item.json.delivery as Record<string, unknown>;
			expect(item.json.wa_message_id).toMatch(/^wamid\./);
			if (index === 2) {
				expect(delivery).toMatchObject({ status: 'failed' });
				expect(delivery.failed_reason).toMatch(/^\(#131026\) Message undeliverable/);
			} else {
				expect(['delivered', 'read']).toContain(delivery.status);
				expect(delivery.failed_reason).toBeUndefined();
			}
			// A run of a few messages reads them every TAIL_GAP_MS (deliveryWait.ts), from its first second on.
			expect(delivery.waited_ms).toBeGreaterThanOrEqual(TAIL_GAP_MS - 50);
			expect(delivery.timed_out).toBeUndefined();
		}
		// One schedule for the run: the four messages are read together in the first round, once each.
		expect(sends()).toHaveLength(4);
		expect(statusReads()).toHaveLength(4);
	});

	it('status reads that hang: Max Wait ends the wait with what it has, no read outlives it (issue 50, point 6)', async () => {
		statuses({ delivered_after_ms: 50 });
		// The platform never answers a status read (the client gives up): the wait ends at its own deadline.
		fx.sim.faults.add('/whatsapp/get/message-status', { kind: 'timeout' });
		const { items: output, error } = await send(path, 2, { deliveryMaxWait: 3 });
		expect(error).toBeUndefined();
		for (const item of output)
			expect(item.json.delivery).toMatchObject({
				status: 'unknown',
				timed_out: true,
				error: 'No status read answered within Max Wait',
			});
		expect(sends()).toHaveLength(2);
	});

	it('status reads that hang: Options → Timeout ends each read, the outcome names it (issue 50, point 6)', async () => {
		statuses({ delivered_after_ms: 50 });
		fx.sim.faults.add('/whatsapp/get/message-status', { kind: 'timeout' });
		const { items: output, error } = await runNode({
			// The node as n8n loads it: with the Options n8n adds to a declarative node (Timeout among them).
			nodeType: sendTextNode({}),
			credentials: fx.credentials,
			items: sendTextItems(1),
			path,
			parameters: {
				...sendTextParameters(NUMBER),
				waitForDelivery: true,
				deliveryMaxWait: 3_600,
				requestOptions: { timeout: 2_000 },
			} as never,
		});
		expect(error).toBeUndefined();
		const delivery = output[0].json.delivery as Record<string, unknown>;
		expect(delivery).toMatchObject({ status: 'unknown', source: 'status read' });
		expect(String(delivery.error)).toMatch(/timed out: no complete answer within 2 s/);
		expect(delivery.timed_out).toBeUndefined();
		// A timed-out read may have reached the platform, so it is not repeated (a read, but no answer proves anything).
		expect(statusReads()).toHaveLength(1);
		expect(sends()).toHaveLength(1);
	});

	it('watches a run of 60 sends with one poller (one schedule), at most 3 status reads per message', async () => {
		statuses({ delivered_after_ms: [100, 2_500], seed: 7 });
		const { items: output, error } = await send(path, 60);
		expect(error).toBeUndefined();
		expect(output.map((item) => (item.json.delivery as { status: string }).status)).toEqual(
			Array(60).fill('delivered'),
		);
		expect(statusReads().length).toBeLessThanOrEqual(3 * 60);
		expect(sends()).toHaveLength(60);
	});

	it('Fail the Item: with Continue On Fail the failed message is an error item; nothing is sent again', async () => {
		statuses({ delivered_after_ms: 50, fail_numbers: { [FAILING]: 131047 } });
		const { items: output, error } = await send(
			path,
			3,
			{ onDeliveryFailed: 'fail' },
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(output).toHaveLength(3);
		expect(output[2].pairedItem).toEqual({ item: 2 });
		expect(String(output[2].json.error)).toMatch(
			/^The message was not delivered: \(#131047\) Re-engagement message/,
		);
		expect((output[0].json.delivery as Record<string, unknown>).status).toBe('delivered');
		expect(sends()).toHaveLength(3);
	});

	it('Fail the Item without Continue On Fail fails the run; Retry On Fail reads again but never sends again', async () => {
		statuses({ delivered_after_ms: 50, fail_numbers: { [FAILING]: 131026 } });
		const { error } = await send(
			path,
			3,
			{ onDeliveryFailed: 'fail' },
			{ retryOnFail: { maxTries: 2, waitBetweenTries: 0 } },
		);
		expect(error?.message).toMatch(/^The message was not delivered: \(#131026\)/);
		// Two attempts of the node: three sends in all, each message once; the statuses were read on both attempts.
		expect(sends()).toHaveLength(3);
		expect(new Set(sends().map((request) => request.body.phone_number)).size).toBe(3);
		expect(statusReads().length).toBeGreaterThanOrEqual(6);
	});

	it('a status read that errors leaves the outcome unknown, with the reason, and sends nothing again', async () => {
		statuses({ delivered_after_ms: 50 });
		fx.sim.faults.add('/whatsapp/get/message-status', {
			kind: 'status0',
			message: 'Message not found.',
		});
		const { items: output, error } = await send(path, 2);
		expect(error).toBeUndefined();
		expect(output).toHaveLength(2);
		for (const item of output)
			expect(item.json.delivery).toMatchObject({ status: 'unknown', error: 'Message not found.' });
		expect(sends()).toHaveLength(2);
		expect(statusReads()).toHaveLength(2);
	});

	it('Max Wait runs out: the last status read, timed_out', async () => {
		statuses({ silent_rate: 1 });
		const { items: output, error } = await send(path, 1, { deliveryMaxWait: 1 });
		expect(error).toBeUndefined();
		expect(output[0].json.delivery).toMatchObject({ status: 'sent', timed_out: true });
		expect((output[0].json.delivery as { waited_ms: number }).waited_ms).toBeGreaterThanOrEqual(
			1_000,
		);
		expect(statusReads()).toHaveLength(1);
		expect(sends()).toHaveLength(1);
	});

	it('a Max Wait out of range fails the item before anything is sent', async () => {
		const { items: output, error } = await send(
			path,
			1,
			{ deliveryMaxWait: 0 },
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(String(output[0].json.error)).toBe('Max Wait (Seconds) is out of range');
		expect(fx.sim.requests).toHaveLength(0);
	});
});

describe('Wait for Delivery is off by default', () => {
	it('sends without reading any status, and the output has no delivery', async () => {
		statuses({ delivered_after_ms: 10 });
		const { items: output, error } = await runNode({
			credentials: fx.credentials,
			items: sendTextItems(2),
			parameters: sendTextParameters(NUMBER) as never,
		});
		expect(error).toBeUndefined();
		expect(output.map((item) => item.json.delivery)).toEqual([undefined, undefined]);
		expect(statusReads()).toHaveLength(0);
	});
});
