/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test infrastructure runs in plain Node.js, not inside n8n */
/**
 * The simulator's concurrency cap and its in-flight report (control API `concurrency-cap`, `in-flight`): a request
 * counts from its arrival until it is answered or abandoned, so the cap applies without any added latency; a request
 * over the cap is answered 429 at once, records nothing and consumes no fault.
 */
import http from 'node:http';
import { useContractSimulator } from './contractClient';
import { NUMBER } from '../harness/params';
import { callControl } from './control';

const { context } = useContractSimulator();

/** A send whose body is not finished: it has arrived (headers sent) and stays in flight until `finish()`. */
function openSend(text: string): { finish(): Promise<number> } {
	const body = new URLSearchParams({
		apiToken: context.sim.token,
		phone_number_id: NUMBER,
		phone_number: '15550100000',
		message: text,
	}).toString();
	const request = http.request(`${context.sim.url}/api/v1/whatsapp/send`, {
		method: 'POST',
		agent: new http.Agent({ keepAlive: false }),
		headers: {
			'content-type': 'application/x-www-form-urlencoded',
			'content-length': Buffer.byteLength(body),
		},
	});
	const answered = new Promise<number>((resolve, reject) => {
		request.on('response', (response) => {
			response.resume();
			response.on('end', () => resolve(response.statusCode ?? 0));
		});
		request.on('error', reject);
	});
	request.write(body.slice(0, 10));
	return {
		finish: async () => {
			request.end(body.slice(10));
			return await answered;
		},
	};
}

const control = <T>(action: string, input: unknown = {}) =>
	callControl<T>(context.sim, action, input);

async function until(condition: () => boolean): Promise<void> {
	for (let tries = 0; !condition(); tries++) {
		if (tries > 200) throw new Error('condition not met within 2 s');
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

describe('concurrency cap without added latency', () => {
	it('answers 429 to a request that arrives while the cap is in flight, and reports the peak', async () => {
		await control('concurrency-cap', { max: 3 });
		await control('in-flight', { reset: true });
		const open = ['a', 'b', 'c'].map(openSend);
		await until(() => context.sim.faults.inFlight === 3);
		const over = await fetch(`${context.sim.url}/api/v1/whatsapp/send`, {
			method: 'POST',
			body: new URLSearchParams({
				apiToken: context.sim.token,
				phone_number_id: NUMBER,
				phone_number: '15550100000',
				message: 'over',
			}),
		});
		expect(over.status).toBe(429);
		expect(await over.json()).toEqual({ status: '0', message: 'Too Many Requests' });
		expect(await Promise.all(open.map((request) => request.finish()))).toEqual([200, 200, 200]);
		expect(
			context.sim.state.messages.filter(
				(message) => message.sender === 'bot' && message.message_content.includes('over'),
			),
		).toEqual([]);
		expect(await control('in-flight')).toEqual({
			inFlight: 0,
			peakInFlight: 4,
			maxConcurrent: 3,
			overCapacity: 1,
		});
		// A new measurement starts from what is in flight now.
		expect(await control('in-flight', { reset: true })).toMatchObject({ peakInFlight: 4 });
		expect(await control('in-flight')).toEqual({
			inFlight: 0,
			peakInFlight: 0,
			maxConcurrent: 3,
			overCapacity: 0,
		});
	});

	it('lets the same requests through one after the other, and without a cap', async () => {
		await control('concurrency-cap', { max: 1 });
		for (const text of ['x', 'y']) expect(await openSend(text).finish()).toBe(200);
		await control('concurrency-cap', { max: null });
		const open = ['p', 'q', 'r'].map(openSend);
		await until(() => context.sim.faults.inFlight === 3);
		expect(await Promise.all(open.map((request) => request.finish()))).toEqual([200, 200, 200]);
		expect(await control('in-flight')).toMatchObject({
			inFlight: 0,
			maxConcurrent: null,
			overCapacity: 0,
		});
	});

	it('counts a request the client abandons only until it goes away', async () => {
		const body = 'apiToken=x';
		const request = http.request(`${context.sim.url}/api/v1/whatsapp/send`, {
			method: 'POST',
			headers: { 'content-length': 1000 },
		});
		request.on('error', () => undefined);
		request.write(body);
		await until(() => context.sim.faults.inFlight === 1);
		request.destroy();
		await until(() => context.sim.faults.inFlight === 0);
	});
});

/** A send, answered: its status and how long it took (ms). */
async function timedSend(text: string): Promise<{ status: number; ms: number }> {
	const started = performance.now();
	const response = await fetch(`${context.sim.url}/api/v1/whatsapp/send`, {
		method: 'POST',
		body: new URLSearchParams({
			apiToken: context.sim.token,
			phone_number_id: NUMBER,
			phone_number: '15550100000',
			message: text,
		}),
	});
	await response.arrayBuffer();
	return { status: response.status, ms: performance.now() - started };
}

describe('latency, fixed and with jitter (SPEC-GAP: the spec names no response times)', () => {
	afterEach(async () => await control('clear-faults'));

	it('holds every answer back by the latency when there is no jitter', async () => {
		await control('latency', { ms: 80 });
		const answers = await Promise.all(['f1', 'f2', 'f3', 'f4'].map(timedSend));
		expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
		for (const answer of answers) expect(answer.ms).toBeGreaterThanOrEqual(78);
		expect(context.sim.faults.latencyJitter).toBe(0);
	});

	it('spreads each answer’s latency uniformly within ± the jitter', async () => {
		await control('latency', { ms: 100, jitter: 0.3 });
		const answers = await Promise.all(Array.from({ length: 30 }, (_, n) => timedSend(`j${n}`)));
		expect(answers.every((answer) => answer.status === 200)).toBe(true);
		// Each answer waited at least its draw (a timer never fires early); how much longer depends on the machine's load.
		expect(Math.min(...answers.map((answer) => answer.ms))).toBeGreaterThanOrEqual(68);
		// The draws themselves, read without a clock: 30 from ±30 ms lie in 70–130 ms and spread well beyond a fixed latency's.
		const draws = Array.from(
			{ length: 30 },
			() => context.sim.faults.take('/none')?.latencyMs ?? 0,
		);
		expect(Math.min(...draws)).toBeGreaterThanOrEqual(70);
		expect(Math.max(...draws)).toBeLessThanOrEqual(130);
		expect(Math.max(...draws) - Math.min(...draws)).toBeGreaterThan(20);
		// `clear-faults` ends the jitter with the latency.
		await control('clear-faults');
		expect(context.sim.faults.latencyJitter).toBe(0);
	});
});

describe('a cap that changes while a run goes on (a platform that gets busier)', () => {
	afterEach(async () => await control('clear-faults'));

	it('lets the admitted requests finish and meets the next ones with the new cap', async () => {
		await control('concurrency-cap', { max: 10 });
		await control('in-flight', { reset: true });
		const open = ['d1', 'd2', 'd3', 'd4', 'd5'].map(openSend);
		await until(() => context.sim.faults.inFlight === 5);
		// The platform gets busier: from now on 3 at once.
		await control('concurrency-cap', { max: 3 });
		expect((await timedSend('over')).status).toBe(429);
		expect(await Promise.all(open.map((request) => request.finish()))).toEqual([
			200, 200, 200, 200, 200,
		]);
		// Under the new cap again: 3 at once pass, a 4th at the same moment does not.
		const next = ['n1', 'n2', 'n3'].map(openSend);
		await until(() => context.sim.faults.inFlight === 3);
		expect((await timedSend('fourth')).status).toBe(429);
		expect(await Promise.all(next.map((request) => request.finish()))).toEqual([200, 200, 200]);
		expect(await control('in-flight')).toMatchObject({ maxConcurrent: 3, overCapacity: 2 });
		// And it can be raised again in the same way.
		await control('concurrency-cap', { max: 30 });
		expect(await control('in-flight')).toMatchObject({ maxConcurrent: 30 });
	});
});
