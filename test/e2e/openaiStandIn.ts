/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test server in plain Node.js, not node code */
/**
 * An OpenAI-compatible stand-in for the chat model of an AI Agent: a small HTTP server on 127.0.0.1
 * that answers `POST /v1/chat/completions` (and `/chat/completions`) from a script, one scripted turn
 * per request, and records every request body. An `openAiApi` credential whose Base URL is `url`
 * makes n8n's OpenAI Chat Model talk to it, so an AI Agent workflow runs for real without an account:
 * the first turn calls a tool with given arguments, n8n runs the tool, the second request carries the
 * tool's result (a `tool` role message) and the next turn answers with a final text.
 *
 * Answers plain JSON, or Server-Sent Events when the request asks for `stream: true` (the wire format is the
 * simulator's model stand-in's, test/simulator/model.ts). On demand (`fail`) it fails
 * like a model provider: every request answered with an HTTP error, or never answered (a timeout on n8n's side).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
	contentText,
	json,
	STAND_IN_MODEL,
	writeCompletion,
	type ChatRequest,
	type Turn,
} from '../simulator/model';

export type { ChatMessage, ChatRequest, ScriptedToolCall, Turn } from '../simulator/model';

/** How the model fails, for every request until cleared: an HTTP error with OpenAI's error shape, or no answer at all. */
export type Failure = { status: number; message: string } | 'hang';

export interface RecordedCompletion {
	path: string;
	headers: http.IncomingHttpHeaders;
	body: ChatRequest;
	/** What the stand-in answered (a turn, or the error it returned). */
	answer: Turn | { error: string };
}

export interface OpenAiStandIn {
	/** The Base URL to put in the `openAiApi` credential, e.g. http://127.0.0.1:5051/v1. */
	url: string;
	/** Every chat completion request, in order. */
	requests: RecordedCompletion[];
	/** Replaces the script: the next requests are answered with these turns, in order. */
	script(turns: Turn[]): void;
	/** Turns not used yet. */
	remaining(): number;
	/** From now on every request fails this way (undefined: answers again); `reset` clears it too. */
	fail(failure: Failure | undefined): void;
	/** The `tool` role messages of a request (default: the last one): what the model got back from its tools. */
	toolResults(request?: RecordedCompletion): Array<{ toolCallId: string; content: string }>;
	/** Forgets the script and the recorded requests. */
	reset(): void;
	close(): Promise<void>;
}

async function readJson(request: http.IncomingMessage): Promise<unknown> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	const text = Buffer.concat(chunks).toString('utf8');
	return text ? JSON.parse(text) : {};
}

/** An OpenAI-style error; 400 so that the client does not retry it. */
function refuse(response: http.ServerResponse, message: string): void {
	json(response, 400, {
		error: { message, type: 'invalid_request_error', param: null, code: 'stand_in_script' },
	});
}

export async function startOpenAiStandIn(): Promise<OpenAiStandIn> {
	const requests: RecordedCompletion[] = [];
	let turns: Turn[] = [];
	let sequence = 0;
	let failure: Failure | undefined;

	const server = http.createServer(async (request, response) => {
		const path = new URL(request.url ?? '/', 'http://stand-in').pathname.replace(/\/+$/, '');
		try {
			if (request.method === 'GET' && (path === '/v1/models' || path === '/models')) {
				return json(response, 200, {
					object: 'list',
					data: [
						{ id: STAND_IN_MODEL, object: 'model', created: 1700000000, owned_by: 'stand-in' },
					],
				});
			}
			if (
				request.method !== 'POST' ||
				(path !== '/v1/chat/completions' && path !== '/chat/completions')
			) {
				return json(response, 404, {
					error: {
						message: `stand-in: no route ${request.method} ${path}`,
						type: 'invalid_request_error',
					},
				});
			}
			const body = (await readJson(request)) as ChatRequest;
			const record: RecordedCompletion = {
				path,
				headers: request.headers,
				body,
				answer: { error: '' },
			};
			requests.push(record);
			if (failure === 'hang') {
				// Never answered: the client's timeout ends it (close() drops the connection).
				record.answer = { error: 'stand-in: no answer (hang)' };
				return;
			}
			if (failure) {
				record.answer = { error: failure.message };
				return json(response, failure.status, {
					error: { message: failure.message, type: 'server_error', param: null, code: null },
				});
			}
			const turn = turns.shift();
			if (!turn) {
				record.answer = { error: 'stand-in: the script has no turn left for this request' };
				return refuse(response, record.answer.error);
			}
			const offered = (body.tools ?? []).map((tool) => tool.function.name);
			const unknown =
				'toolCalls' in turn ? turn.toolCalls.filter((call) => !offered.includes(call.name)) : [];
			if (unknown.length) {
				record.answer = {
					error: `stand-in: the script calls ${unknown.map((call) => call.name).join(', ')}, the request offers [${offered.join(', ')}]`,
				};
				return refuse(response, record.answer.error);
			}
			record.answer = turn;

			writeCompletion(response, body, turn, ++sequence);
		} catch (error) {
			if (!response.headersSent) refuse(response, `stand-in: ${(error as Error).message}`);
			else response.end();
		}
	});
	server.keepAliveTimeout = 1000;
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;

	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		script: (next) => {
			turns = [...next];
		},
		remaining: () => turns.length,
		fail: (next) => {
			failure = next;
		},
		toolResults: (request = requests[requests.length - 1]) =>
			(request?.body.messages ?? [])
				.filter((message) => message.role === 'tool')
				.map((message) => ({
					toolCallId: String(message.tool_call_id),
					content: contentText(message.content),
				})),
		reset: () => {
			turns = [];
			failure = undefined;
			requests.splice(0);
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
