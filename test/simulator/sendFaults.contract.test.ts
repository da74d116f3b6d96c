/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test infrastructure runs in plain Node.js, not inside n8n */
/**
 * The faults that prove a send is never delivered twice: a gateway that loses the platform's answer after the send
 * was done (504, 502, a reset socket), 503/429 with Retry-After (nothing done), and refused connections (nothing done).
 * Real HTTP against the simulator; each test checks what the client saw and what the platform recorded.
 */
import http from 'node:http';
import axios, { type AxiosResponse } from 'axios';
import { useContractSimulator } from './contractClient';
import { NUMBER, PHONE } from '../harness/params';

const { context } = useContractSimulator();

/** Outgoing (bot) messages whose text is exactly `text`. */
function sentWithText(text: string) {
	return context.sim.state.messages.filter(
		(message) =>
			message.sender === 'bot' && JSON.parse(message.message_content).text?.body === text,
	);
}

const botMessageCount = () =>
	context.sim.state.messages.filter((message) => message.sender === 'bot').length;

/** POST /whatsapp/send as a form with the token in the body; any HTTP status resolves, a network failure rejects. */
function send(
	text: string,
	options: { agent?: http.Agent; token?: string } = {},
): Promise<AxiosResponse<unknown>> {
	const body = new URLSearchParams({
		apiToken: options.token ?? context.sim.token,
		phone_number_id: NUMBER,
		phone_number: PHONE,
		message: text,
	});
	return axios.post(`${context.sim.url}/api/v1/whatsapp/send`, body, {
		validateStatus: () => true,
		timeout: 5000,
		httpAgent: options.agent ?? new http.Agent({ keepAlive: false }),
	});
}

/** The error code of a request that must fail at the network level (ECONNRESET, ECONNREFUSED...). */
async function networkFailure(request: Promise<unknown>): Promise<string> {
	try {
		await request;
	} catch (error) {
		return String((error as { code?: string }).code);
	}
	throw new Error('the request got an HTTP answer; a network failure was expected');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits until `condition` holds (a busy machine may take far longer than the fault's latency to deliver a request). */
async function until(condition: () => boolean, what: string, limitMs = 20_000) {
	const deadline = Date.now() + limitMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`still waiting after ${limitMs} ms for ${what}`);
		await sleep(5);
	}
}

describe('processThen504 / processThen502: the send is done, the client gets a gateway error page', () => {
	it.each([
		['processThen504', 504, '504 Gateway Time-out'],
		['processThen502', 502, '502 Bad Gateway'],
	] as const)(
		'%s answers %i HTML, records exactly one message, and times: 1 lets the next send through',
		async (kind, status, title) => {
			const before = botMessageCount();
			context.sim.faults.add('/whatsapp/send', { kind, times: 1 });

			const failed = await send('gateway lost this answer');
			expect(failed.status).toBe(status);
			expect(String(failed.headers['content-type'])).toBe('text/html');
			expect(failed.data).toContain(`<title>${title}</title>`);
			expect(failed.data).toContain('<center>nginx</center>');
			const recorded = sentWithText('gateway lost this answer');
			expect(recorded).toHaveLength(1);
			expect(recorded[0]).toMatchObject({
				phone_number_id: NUMBER,
				whatsapp_bot_subscriber_subscriber_id: PHONE,
				message_status: 'sent',
			});
			expect(botMessageCount()).toBe(before + 1);

			const next = await send('second send');
			expect(next.status).toBe(200);
			expect(next.data).toEqual({
				status: '1',
				wa_message_id: expect.stringMatching(/^wamid\./),
				message: 'Message sent successfully.',
			});
			expect((next.data as { wa_message_id: string }).wa_message_id).not.toBe(
				recorded[0].wa_message_id,
			);
			expect(sentWithText('gateway lost this answer')).toHaveLength(1);
			expect(sentWithText('second send')).toHaveLength(1);
			expect(botMessageCount()).toBe(before + 2);
			expect(context.sim.requests.map((request) => request.path)).toEqual([
				'/whatsapp/send',
				'/whatsapp/send',
			]);
		},
	);

	it('without times the fault stays: every send is done once and answered 504', async () => {
		const before = botMessageCount();
		context.sim.faults.add('/whatsapp/send', { kind: 'processThen504' });
		expect((await send('first')).status).toBe(504);
		expect((await send('second')).status).toBe(504);
		expect((await send('third')).status).toBe(504);
		expect(botMessageCount()).toBe(before + 3);
		expect(sentWithText('first')).toHaveLength(1);
		expect(sentWithText('third')).toHaveLength(1);
	});

	it('processing includes the token check: a bad token is answered 504 and records nothing', async () => {
		const before = botMessageCount();
		context.sim.faults.add('/whatsapp/send', { kind: 'processThen504', times: 1 });
		expect((await send('not allowed', { token: 'wrong-token' })).status).toBe(504);
		expect(botMessageCount()).toBe(before);
		expect(sentWithText('not allowed')).toHaveLength(0);
	});

	it('processing includes parameter checks: a send the platform refuses is answered 502 and records nothing', async () => {
		const before = botMessageCount();
		context.sim.faults.add('/whatsapp/send', { kind: 'processThen502', times: 1 });
		const body = new URLSearchParams({
			apiToken: context.sim.token,
			phone_number_id: NUMBER,
			message: 'no phone number',
		});
		const response = await axios.post(`${context.sim.url}/api/v1/whatsapp/send`, body, {
			validateStatus: () => true,
		});
		expect(response.status).toBe(502);
		expect(botMessageCount()).toBe(before);
	});

	it('latencyMs: the send is recorded at once, the 504 comes after the delay', async () => {
		const latencyMs = 250;
		context.sim.faults.add('/whatsapp/send', { kind: 'processThen504', latencyMs, times: 1 });
		const started = Date.now();
		const pending = send('slow gateway');
		await until(() => sentWithText('slow gateway').length > 0, 'the send to be recorded');
		expect(sentWithText('slow gateway')).toHaveLength(1); // done while the client still waits
		const response = await pending;
		const elapsed = Date.now() - started;
		expect(response.status).toBe(504);
		expect(elapsed).toBeGreaterThanOrEqual(latencyMs - 5);
		expect(elapsed).toBeLessThan(latencyMs + 2000);
		expect(sentWithText('slow gateway')).toHaveLength(1);
	});
});

describe('processThenDrop: the send is done, the socket is destroyed without an answer', () => {
	it('the client sees a reset socket, exactly one message is recorded, and times: 1 lets the next send through', async () => {
		const before = botMessageCount();
		context.sim.faults.add('/whatsapp/send', { kind: 'processThenDrop', times: 1 });
		expect(await networkFailure(send('answer lost on the wire'))).toBe('ECONNRESET');
		expect(sentWithText('answer lost on the wire')).toHaveLength(1);
		expect(botMessageCount()).toBe(before + 1);

		const next = await send('after the drop');
		expect(next.status).toBe(200);
		expect((next.data as { status: string }).status).toBe('1');
		expect(botMessageCount()).toBe(before + 2);
		expect(sentWithText('answer lost on the wire')).toHaveLength(1);
	});

	it('with latencyMs the message is recorded before the socket is destroyed', async () => {
		context.sim.faults.add('/whatsapp/send', { kind: 'processThenDrop', latencyMs: 200, times: 1 });
		const started = Date.now();
		const failure = networkFailure(send('dropped later'));
		await until(() => sentWithText('dropped later').length > 0, 'the send to be recorded');
		expect(sentWithText('dropped later')).toHaveLength(1);
		expect(await failure).toBe('ECONNRESET');
		expect(Date.now() - started).toBeGreaterThanOrEqual(195);
	});
});

describe('503 and 429 with Retry-After: nothing is done', () => {
	it('unavailable503 with retryAfterSeconds carries Retry-After, records nothing; times: 1 then normal', async () => {
		const before = botMessageCount();
		context.sim.faults.add('/whatsapp/send', {
			kind: 'unavailable503',
			retryAfterSeconds: 7,
			times: 1,
		});
		const response = await send('during maintenance');
		expect(response.status).toBe(503);
		expect(response.headers['retry-after']).toBe('7');
		expect(String(response.headers['content-type'])).toBe('text/html');
		expect(botMessageCount()).toBe(before);
		expect(sentWithText('during maintenance')).toHaveLength(0);
		const next = await send('after maintenance');
		expect(next.status).toBe(200);
		expect(next.headers['retry-after']).toBeUndefined();
		expect(botMessageCount()).toBe(before + 1);
	});

	it('rate429 with retryAfterSeconds carries Retry-After and the JSON envelope, records nothing', async () => {
		const before = botMessageCount();
		context.sim.faults.add('/whatsapp/send', { kind: 'rate429', retryAfterSeconds: 2, times: 2 });
		for (let attempt = 0; attempt < 2; attempt++) {
			const response = await send('too fast');
			expect(response.status).toBe(429);
			expect(response.headers['retry-after']).toBe('2');
			expect(response.data).toEqual({ status: '0', message: 'Too Many Requests' });
		}
		expect(botMessageCount()).toBe(before);
		expect((await send('slower')).status).toBe(200);
		expect(botMessageCount()).toBe(before + 1);
	});

	it('without retryAfterSeconds neither carries Retry-After (the existing kinds are unchanged)', async () => {
		context.sim.faults.add('/whatsapp/send', { kind: 'unavailable503', times: 1 });
		context.sim.faults.add('/whatsapp/send', { kind: 'rate429', times: 1 });
		const unavailable = await send('a');
		const limited = await send('b');
		expect([unavailable.status, limited.status]).toEqual([503, 429]);
		expect(unavailable.headers['retry-after']).toBeUndefined();
		expect(limited.headers['retry-after']).toBeUndefined();
	});

	it('latencyMs delays the 503 as with the other kinds', async () => {
		context.sim.faults.add('/whatsapp/send', {
			kind: 'unavailable503',
			retryAfterSeconds: 1,
			latencyMs: 150,
			times: 1,
		});
		const started = Date.now();
		const response = await send('slow 503');
		expect(response.status).toBe(503);
		expect(Date.now() - started).toBeGreaterThanOrEqual(145);
		expect(sentWithText('slow 503')).toHaveLength(0);
	});
});

describe('refused connections', () => {
	it('refuseConnections(ms): ECONNREFUSED, nothing recorded, then the same URL answers after the window', async () => {
		const before = botMessageCount();
		const started = Date.now();
		context.sim.refuseConnections(300);
		expect(await networkFailure(send('while refusing'))).toBe('ECONNREFUSED');
		expect(await networkFailure(send('while refusing'))).toBe('ECONNREFUSED');
		expect(context.sim.requests).toHaveLength(0);
		expect(botMessageCount()).toBe(before);

		await context.sim.whenAccepting();
		expect(Date.now() - started).toBeGreaterThanOrEqual(295);
		const response = await send('after the window');
		expect(response.status).toBe(200);
		expect((response.data as { status: string }).status).toBe('1');
		expect(botMessageCount()).toBe(before + 1);
		expect(sentWithText('while refusing')).toHaveLength(0);
		expect(context.sim.requests).toHaveLength(1);
	});

	it('a kept-alive connection does not slip a request in while refusing', async () => {
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
		try {
			expect((await send('opens the connection', { agent })).status).toBe(200);
			const before = botMessageCount();
			context.sim.refuseConnections(300);
			await sleep(50); // the idle connection was closed by the simulator; let the client notice
			expect(await networkFailure(send('on the old connection', { agent }))).toBe('ECONNREFUSED');
			expect(botMessageCount()).toBe(before);
			await context.sim.whenAccepting();
			expect((await send('reconnected', { agent })).status).toBe(200);
			expect(botMessageCount()).toBe(before + 1);
		} finally {
			agent.destroy();
		}
	});

	it('a request already in flight when refusing starts is finished and recorded', async () => {
		// A long latency keeps the request in flight however slowly the machine delivers the next steps.
		context.sim.faults.add('/whatsapp/send', { kind: 'none', latencyMs: 1500, times: 1 });
		const before = botMessageCount();
		const agent = new http.Agent({ keepAlive: true });
		try {
			const pending = send('in flight', { agent });
			await until(() => context.sim.requests.length > 0, 'the request to arrive');
			expect(context.sim.requests).toHaveLength(1); // received, waiting out its latency
			context.sim.refuseConnections(4000); // outlasts the latency: the answer comes while refusing
			expect(await networkFailure(send('new connection'))).toBe('ECONNREFUSED');
			const response = await pending;
			expect(response.status).toBe(200);
			expect(response.headers.connection).toBe('close'); // asked for keep-alive, told the connection ends
			expect(botMessageCount()).toBe(before + 1);
			expect(sentWithText('in flight')).toHaveLength(1);
			await context.sim.whenAccepting();
		} finally {
			agent.destroy();
		}
	});

	it('the control action /__control/refuseConnections refuses for its ms, even on a pooled fetch connection', async () => {
		const before = botMessageCount();
		const started = Date.now();
		const control = await fetch(`${context.sim.url}/__control/refuseConnections`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ ms: 300 }),
		});
		expect(control.status).toBe(200);
		expect(control.headers.get('connection')).toBe('close');
		expect(await control.json()).toEqual({ ok: true, result: { refusingMs: 300 } });

		const refused = await fetch(`${context.sim.url}/api/v1/whatsapp/send`, {
			method: 'POST',
			body: new URLSearchParams({
				apiToken: context.sim.token,
				phone_number_id: NUMBER,
				phone_number: PHONE,
				message: 'refused',
			}),
		}).then(
			() => 'answered',
			(error: Error & { cause?: { code?: string } }) => error.cause?.code,
		);
		expect(refused).toBe('ECONNREFUSED');
		expect(context.sim.requests).toHaveLength(0);

		await context.sim.whenAccepting();
		expect(Date.now() - started).toBeGreaterThanOrEqual(295);
		const response = await fetch(`${context.sim.url}/api/v1/whatsapp/send`, {
			method: 'POST',
			body: new URLSearchParams({
				apiToken: context.sim.token,
				phone_number_id: NUMBER,
				phone_number: PHONE,
				message: 'accepted',
			}),
		});
		expect(await response.json()).toMatchObject({ status: '1' });
		expect(botMessageCount()).toBe(before + 1);
		expect(sentWithText('refused')).toHaveLength(0);
	});

	it('the control action rejects a missing ms and keeps accepting', async () => {
		const control = await fetch(`${context.sim.url}/__control/refuseConnections`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{}',
		});
		expect(control.status).toBe(500);
		expect(await control.text()).toContain('refuseConnections needs a number of milliseconds');
		expect((await send('still accepting')).status).toBe(200);
	});

	it('calling it again while refusing restarts the window; reset() ends it at once', async () => {
		const started = Date.now();
		context.sim.refuseConnections(100);
		await sleep(60);
		context.sim.refuseConnections(200); // now until about 260 ms after start
		await sleep(100);
		expect(await networkFailure(send('still refused'))).toBe('ECONNREFUSED');
		await context.sim.whenAccepting();
		expect(Date.now() - started).toBeGreaterThanOrEqual(255);

		context.sim.refuseConnections(60_000);
		expect(await networkFailure(send('refused for a minute'))).toBe('ECONNREFUSED');
		context.sim.reset();
		await context.sim.whenAccepting();
		expect((await send('after reset')).status).toBe(200);
		expect(sentWithText('after reset')).toHaveLength(1);
	});
});
