/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code in plain Node.js (an HTTP stand-in for n8n's waiting URLs), not node code */
/**
 * n8n's waiting URLs over HTTP, for answers a trigger takes in the chat: a POST is handed to the waiting run as n8n's
 * WaitingWebhooks does (waiting.ts); one that no longer waits gets n8n's "no action required" page. A test can hold the
 * POSTs until several arrived (answers at the same moment: n8n reads the execution as waiting for each), or script
 * what the URL answers (a proxy in front of a restarting n8n).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WaitingRun } from './waiting';

export class WaitingServer {
	/** The run the URLs belong to. */
	current?: WaitingRun;
	/** Every POST, by its path and query, in the order they arrived. */
	readonly posts: string[] = [];
	/** How many POSTs resumed the run. */
	resumes = 0;
	/** What the next POSTs get instead of n8n's answer, in order (`drop`: the connection is closed unanswered). */
	readonly script: Array<number | 'drop'> = [];
	private held: Array<() => void> = [];
	private holdUntil = 0;
	private gathered?: () => void;
	private server?: http.Server;
	base = '';

	async start(): Promise<void> {
		this.server = http.createServer((request, response) => {
			// What n8n answers when the node's webhook throws.
			this.answer(request, response).catch(() => response.writeHead(500).end());
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	async close(): Promise<void> {
		this.release();
		await new Promise<void>((resolve) => this.server?.close(() => resolve()));
	}

	/** Forgets the last test's run, counts, script and holds. */
	reset(): void {
		this.release();
		this.current = undefined;
		this.posts.splice(0);
		this.script.splice(0);
		this.resumes = 0;
	}

	/** The next POSTs wait until `count` of them arrived (resolves then), or until release(). */
	hold(count: number): Promise<void> {
		this.holdUntil = count;
		return new Promise<void>((resolve) => (this.gathered = resolve));
	}

	/** Lets every held POST go on, all in the same turn. */
	release(): void {
		this.holdUntil = 0;
		this.gathered?.();
		for (const go of this.held.splice(0)) go();
	}

	private async answer(request: http.IncomingMessage, response: http.ServerResponse) {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const body = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
		this.posts.push(request.url ?? '');
		if (this.holdUntil > 0) {
			const go = new Promise<void>((resolve) => this.held.push(resolve));
			if (this.held.length >= this.holdUntil) this.release();
			await go;
		}
		const scripted = this.script.shift();
		if (scripted === 'drop') {
			request.socket.destroy();
			return;
		}
		if (scripted !== undefined) {
			response.writeHead(scripted, { 'content-type': 'text/html' }).end(`<h1>${scripted}</h1>`);
			return;
		}
		const run = this.current;
		if (!run || !run.waiting) {
			response.writeHead(200, { 'content-type': 'text/html' }).end('<p>No action required</p>');
			return;
		}
		const answer = await run.open(`${this.base}${request.url}`, { method: 'POST', body });
		if (answer.resumed) this.resumes++;
		if (answer.response && typeof answer.response === 'object')
			response
				.writeHead(200, { 'content-type': 'application/json' })
				.end(JSON.stringify(answer.response));
		else response.writeHead(answer.status, { 'content-type': 'text/html' }).end(answer.html);
	}
}
