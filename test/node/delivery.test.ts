import { NodeApiError, WorkflowExpression } from 'n8n-workflow';
import { sendTextNode, sendTextParameters } from '../../bench/sendTextNode';
import { DELIVERY_DEFAULTS } from '../../nodes/BotSailor/sending/delivery';
import { Limiter } from '../../nodes/BotSailor/sending/limiter';
import { connectionVerdict, isRetryableSend, outcomeOf } from '../../nodes/shared/http/failures';
import { retryWait } from '../../nodes/shared/http/retry';
import { runNode } from '../harness/harness';
import { sendTextItems } from '../harness/deliveryStatuses';
import { useSimulator } from '../harness/simulatorFixture';
import { NUMBER } from '../harness/params';

const fx = useSimulator();
const withDelivery = sendTextNode({});
const plain = sendTextNode(false);

function sentTo() {
	const counts = new Map<string, number>();
	const ours = fx.sim.state.messages.filter(
		(entry) =>
			entry.sender === 'bot' && entry.whatsapp_bot_subscriber_subscriber_id.startsWith('1999000'),
	);
	for (const message of ours) {
		counts.set(
			message.whatsapp_bot_subscriber_subscriber_id,
			(counts.get(message.whatsapp_bot_subscriber_subscriber_id) ?? 0) + 1,
		);
	}
	return counts;
}

function send(
	nodeType = withDelivery,
	count = 1,
	extra: { continueOnFail?: boolean; parameters?: Record<string, unknown> } = {},
) {
	return runNode({
		nodeType,
		credentials: fx.credentials,
		items: sendTextItems(count),
		continueOnFail: extra.continueOnFail,
		parameters: { ...sendTextParameters(NUMBER), ...extra.parameters } as never,
	});
}

describe('delivery: Send Text on the bulk path (customOperations)', () => {
	it('sends the same request and outputs exactly what unwrap("confirmation") gives', async () => {
		const before = await send(plain);
		const plainRequest = fx.sim.requests[0];
		fx.sim.reset();
		const after = await send(withDelivery);
		expect(after.error).toBeUndefined();
		expect(fx.sim.requests).toHaveLength(1);
		expect(fx.sim.requests[0]).toMatchObject({
			method: 'POST',
			path: '/whatsapp/send',
			body: plainRequest.body,
			tokenIn: ['body'],
		});
		expect(fx.sim.requests[0].body).toEqual({
			phone_number_id: NUMBER,
			phone_number: '19990000000',
			message: 'Hello 0',
		});
		expect(after.items).toEqual(before.items);
		expect(after.items[0].json).toMatchObject({ success: true });
		expect(after.items[0].pairedItem).toEqual({ item: 0 });
	});

	it('delivers 300 items exactly once against a platform capped at 10 concurrent requests', async () => {
		// Latency keeps requests in flight on the simulator, so its cap of 10 bites.
		fx.sim.faults.maxConcurrent = 10;
		fx.sim.faults.latencyMs = 5;
		fx.sim.faults.peakInFlight = 0;
		const { items: output, error } = await send(withDelivery, 300);
		expect(error).toBeUndefined();
		expect(output).toHaveLength(300);
		expect(output.map((item) => item.pairedItem)).toEqual(
			Array.from({ length: 300 }, (_, item) => ({ item })),
		);
		const counts = sentTo();
		expect(counts.size).toBe(300);
		expect([...counts.values()].every((count) => count === 1)).toBe(true);
		expect(fx.sim.faults.peakInFlight).toBeLessThanOrEqual(DELIVERY_DEFAULTS.concurrency);
	});

	it('decrypts the credential once per run, where the plain declarative operation decrypts it per item', async () => {
		const executor = await send(withDelivery, 50);
		expect(executor.items).toHaveLength(50);
		expect(executor.credentialLoads).toBe(1);
		const declarative = await send(plain, 50);
		expect(declarative.items).toHaveLength(50);
		expect(declarative.credentialLoads).toBeGreaterThanOrEqual(50);
	});

	it('evaluates each expression parameter once per item (RoutingNode evaluates it several times)', async () => {
		const evaluations = jest.spyOn(WorkflowExpression.prototype, 'getParameterValue');
		const count = (expression: string) =>
			evaluations.mock.calls.filter(([value]) => value === expression).length;
		try {
			await send(withDelivery, 20);
			expect(count('={{ $json.phone }}')).toBe(20);
			expect(count('={{ $json.text }}')).toBe(20);
			evaluations.mockClear();
			await send(plain, 20);
			expect(count('={{ $json.phone }}')).toBeGreaterThanOrEqual(40);
		} finally {
			evaluations.mockRestore();
		}
	});

	it.each([
		['the bulk path', withDelivery],
		['the declarative path', plain],
	])(
		'keeps at most the credential’s Max Sends in Flight in flight on %s',
		async (_path, nodeType) => {
			fx.sim.faults.latencyMs = 5;
			fx.sim.faults.resetReport();
			const { items: output, error } = await runNode({
				nodeType,
				credentials: { ...fx.credentials, maxSendsInFlight: 2 },
				items: sendTextItems(60),
				parameters: sendTextParameters(NUMBER) as never,
			});
			expect(error).toBeUndefined();
			expect(output).toHaveLength(60);
			expect(sentTo().size).toBe(60);
			expect(fx.sim.faults.report()).toMatchObject({ peakInFlight: 2, overCapacity: 0 });
		},
	);

	it('holds on the declarative path too (a tool run through execute): same cap, every item delivered once', async () => {
		fx.sim.faults.maxConcurrent = 10;
		fx.sim.faults.latencyMs = 5;
		fx.sim.faults.peakInFlight = 0;
		const { items: output, error } = await send(plain, 300, { continueOnFail: true });
		expect(error).toBeUndefined();
		expect(output.filter((item) => item.json.error !== undefined)).toEqual([]);
		const counts = sentTo();
		expect(counts.size).toBe(300);
		expect([...counts.values()].every((count) => count === 1)).toBe(true);
		expect(fx.sim.faults.peakInFlight).toBeLessThanOrEqual(DELIVERY_DEFAULTS.concurrency);
	});

	it.each([
		['429 answers', { kind: 'rate429' as const, times: 2 }, 3],
		['a 503 page', { kind: 'unavailable503' as const, times: 1 }, 2],
	])('retries after %s and delivers once', async (_name, fault, requests) => {
		fx.sim.faults.add('/whatsapp/send', fault);
		const { items: output, error } = await send(withDelivery, 1);
		expect(error).toBeUndefined();
		expect(output[0].json).toMatchObject({ success: true });
		expect(fx.sim.requests).toHaveLength(requests);
		expect(sentTo().get('19990000000')).toBe(1);
	});

	it('does not retry a 500 (the platform may have sent the message before failing)', async () => {
		fx.sim.faults.add('/whatsapp/send', { kind: 'html500', times: 1 });
		const { error } = await send(withDelivery, 1);
		expect(error?.name).toBe('NodeApiError');
		expect(fx.sim.requests).toHaveLength(1);
	});

	it('gives up after the last retry with an error naming the cause: 429, the attempts, nothing delivered, what to lower', async () => {
		fx.sim.faults.add('/whatsapp/send', { kind: 'rate429' });
		const { error } = await runNode({
			nodeType: sendTextNode({ retries: 2, baseDelayMs: 1 }),
			credentials: { ...fx.credentials, baseUrl: `${fx.sim.url}/` },
			items: sendTextItems(1),
			parameters: sendTextParameters(NUMBER) as never,
		});
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(
			'Not sent: the platform answered HTTP 429 Too Many Requests (the platform’s rate limit) to all 3 attempts',
		);
		expect(error?.description).toMatch(
			/Nothing was delivered .*"Too Many Requests".*Lower Max Sends in Flight in the BotSailor credential .*workers × Max Sends in Flight/,
		);
		expect(fx.sim.requests).toHaveLength(3);
		expect(sentTo().size).toBe(0);
	});

	it('under Continue On Fail an exhausted 429 retry is an error item naming the cause; the other items are delivered once', async () => {
		fx.sim.faults.add('/whatsapp/send', { kind: 'rate429', retryAfterSeconds: 0, times: 2 }); // both attempts of item 0
		const { items: output, error } = await runNode({
			nodeType: sendTextNode({ retries: 1, baseDelayMs: 1, concurrency: 1 }),
			credentials: fx.credentials,
			continueOnFail: true,
			items: sendTextItems(3),
			parameters: sendTextParameters(NUMBER) as never,
		});
		expect(error).toBeUndefined();
		expect(output.map((item) => item.json.error ?? 'delivered')).toEqual([
			'Not sent: the platform answered HTTP 429 Too Many Requests (the platform’s rate limit) to all 2 attempts',
			'delivered',
			'delivered',
		]);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect([...sentTo().entries()]).toEqual([
			['19990000001', 1],
			['19990000002', 1],
		]);
	});

	it('names a Retry-After longer than it waits, and a 503 that does not end', async () => {
		fx.sim.faults.add('/whatsapp/send', { kind: 'rate429', retryAfterSeconds: 120, times: 1 });
		const waited = await send(withDelivery, 1, { continueOnFail: true });
		expect(waited.items[0].json.error).toBe(
			'Not sent: the platform answered HTTP 429 Too Many Requests (the platform’s rate limit) and asked to wait 120 s (Retry-After), longer than the node waits',
		);
		fx.sim.reset();
		fx.sim.faults.add('/whatsapp/send', { kind: 'unavailable503', retryAfterSeconds: 0 });
		const unavailable = await runNode({
			nodeType: sendTextNode({ retries: 1, baseDelayMs: 1 }),
			credentials: fx.credentials,
			continueOnFail: true,
			items: sendTextItems(1),
			parameters: sendTextParameters(NUMBER) as never,
		});
		expect(unavailable.items[0].json.error).toBe(
			'Not sent: the platform answered HTTP 503 Service Unavailable to all 2 attempts',
		);
		expect(String(unavailable.items[0].error?.description)).toMatch(
			/^BotSailor .*Nothing was delivered.*Run the item again once the platform answers\.$/,
		);
	});

	it('never retries a dropped connection: that item fails as "may have been delivered", the others are delivered once', async () => {
		fx.sim.faults.add('/whatsapp/send', { kind: 'drop', times: 1 });
		const { items: output, error } = await send(withDelivery, 3, { continueOnFail: true });
		expect(error).toBeUndefined();
		expect(fx.sim.requests).toHaveLength(3);
		const failed = output.filter((item) => item.json.error !== undefined);
		expect(failed).toHaveLength(1);
		expect(String(failed[0].json.error)).toMatch(
			/^The message may have been delivered: The connection to the platform failed/,
		);
		expect(sentTo().size).toBe(2);
	});

	it('never retries a timed-out request', async () => {
		fx.sim.faults.add('/whatsapp/send', { kind: 'timeout', times: 1 });
		const { items: output } = await send(withDelivery, 1, {
			continueOnFail: true,
			parameters: { requestOptions: { timeout: 300 } },
		});
		// At most the one request: on a loaded machine the deadline can cut it before the simulator records it.
		expect(fx.sim.requests.length).toBeLessThanOrEqual(1);
		expect(String(output[0].json.error)).toMatch(/timed out|failed/);
	});

	it('does not retry an API refusal (status "0" on HTTP 200)', async () => {
		fx.sim.faults.add('/whatsapp/send', {
			kind: 'status0',
			message: 'Subscriber has opted out.',
			times: 1,
		});
		const { error } = await send(withDelivery, 1);
		expect(error?.message).toBe('Subscriber has opted out.');
		expect(fx.sim.requests).toHaveLength(1);
	});
});

describe('delivery building blocks', () => {
	it('retries only what proves nothing was done: 429, 503 and connections never made', () => {
		const node = {
			id: '1',
			name: 'n',
			type: 't',
			typeVersion: 1,
			position: [0, 0] as [number, number],
			parameters: {},
		};
		const withCode = (httpCode: string) => new NodeApiError(node, { message: 'x' }, { httpCode });
		const connection = (code: string) =>
			Object.assign(withCode('0'), { context: { connection: code } });
		expect(['429', '503'].map((code) => outcomeOf(withCode(code)))).toEqual(['notSent', 'notSent']);
		expect(['500', '502', '504'].map((code) => outcomeOf(withCode(code)))).toEqual([
			'unknown',
			'unknown',
			'unknown',
		]);
		expect(['200', '400', '401', '404'].map((code) => outcomeOf(withCode(code)))).toEqual([
			'refused',
			'refused',
			'refused',
			'refused',
		]);
		// Issue 34: an unknown host (DNS) proves nothing left but is not retried: trying again cannot help.
		const verdict = (code: string) =>
			Object.assign(withCode('0'), {
				context: { connection: code, ...connectionVerdict(code) },
			});
		expect(
			['ECONNREFUSED', 'EAI_AGAIN', 'ENOTFOUND', 'EPROTO', 'CERT_HAS_EXPIRED'].map((code) => [
				outcomeOf(verdict(code)),
				isRetryableSend(verdict(code)),
			]),
		).toEqual([
			['notSent', true],
			['notSent', true],
			['notSent', false],
			['notSent', false],
			['notSent', false],
		]);
		expect(
			['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'UNKNOWN'].map((code) =>
				outcomeOf(connection(code)),
			),
		).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);
		expect(isRetryableSend(new Error('socket hang up'))).toBe(false);
	});

	it('backs off exponentially with jitter, capped', () => {
		const delays = { baseDelayMs: 100, maxDelayMs: 1000 };
		expect(retryWait(undefined, 0, delays, () => 0)).toBe(50);
		expect(retryWait(undefined, 0, delays, () => 1)).toBe(100);
		expect(retryWait(undefined, 3, delays, () => 0.5)).toBe(600);
		expect(retryWait(undefined, 10, delays, () => 1)).toBe(1000);
	});

	it('keeps at most max holders and serves waiters in order', async () => {
		const limiter = new Limiter(2);
		const order: number[] = [];
		await limiter.acquire();
		await limiter.acquire();
		const waiters = [1, 2].map((n) => limiter.acquire().then(() => order.push(n)));
		expect(limiter.inFlight).toBe(2);
		limiter.release();
		limiter.release();
		await Promise.all(waiters);
		expect(order).toEqual([1, 2]);
		expect(limiter.inFlight).toBe(2);
	});
});
