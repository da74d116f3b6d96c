/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test infrastructure runs in plain Node.js, not inside n8n */
/**
 * An HTTP stand-in for n8n's production webhook URL in-process: the simulator's outgoing webhooks POST
 * to it, it parses the body as n8n's body parser does (JSON, form-encoded, text; {} for other types) and hands the delivery to a
 * WebhookRunner, answering with what the node answered.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookRunner } from './webhookHarness';

export interface Receiver {
	/** The node's Production URL (Incoming Message and the other fields). */
	url: string;
	/** The node's Outgoing Message Production URL. */
	outgoingUrl: string;
	/** Every request received, with the answer given. */
	received: Array<{ query: Record<string, string>; body: unknown; status: number }>;
	close(): Promise<void>;
}

export async function startReceiver(target: () => WebhookRunner): Promise<Receiver> {
	const received: Receiver['received'] = [];
	const server = http.createServer(async (request, response) => {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const raw = Buffer.concat(chunks);
		const url = new URL(request.url ?? '/', 'http://receiver');
		const contentType = String(request.headers['content-type'] ?? '')
			.split(';')[0]
			.trim();
		let body: unknown = {};
		try {
			if (contentType === 'application/json') body = JSON.parse(raw.toString('utf8'));
			else if (contentType === 'application/x-www-form-urlencoded')
				body = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
			else if (contentType === 'text/plain') body = raw.toString('utf8');
		} catch {
			response.writeHead(422).end('{"message":"Failed to parse request body"}');
			return;
		}
		const query = Object.fromEntries(url.searchParams);
		const webhook = url.pathname.endsWith('/outgoing') ? 'setup' : 'default';
		const answer = await target().deliver({ body, contentType, query, raw, webhook });
		received.push({ query, body, status: answer.status });
		response
			.writeHead(answer.status, { 'content-type': 'application/json' })
			.end(JSON.stringify(answer.body));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/webhook/hook-1/webhook`,
		outgoingUrl: `http://127.0.0.1:${port}/webhook/hook-1/outgoing`,
		received,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/**
 * A test file's receiver and a fresh, active WebhookRunner of the Webhook Trigger with these parameters before each
 * test (the simulator's webhooks post to `receiver.url`).
 */
export function useWebhookReceiver(make: () => WebhookRunner): {
	readonly receiver: Receiver;
	readonly runner: WebhookRunner;
} {
	const current = {} as { receiver: Receiver; runner: WebhookRunner };
	beforeAll(async () => {
		current.receiver = await startReceiver(() => current.runner);
	});
	afterAll(async () => await current.receiver.close());
	beforeEach(async () => {
		current.runner = make();
		await current.runner.activate();
		current.receiver.received.splice(0);
	});
	return current;
}
