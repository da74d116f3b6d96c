/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test server in plain Node.js, not node code */
/**
 * An OpenAI-compatible stand-in for the chat model of an AI Agent: a small HTTP server on 127.0.0.1
 * that answers `POST /v1/chat/completions` (and `/chat/completions`) from a script, one scripted turn
 * per request, and records every request body. An `openAiApi` credential whose Base URL is `url`
 * makes n8n's OpenAI Chat Model talk to it, so an AI Agent workflow runs for real without an account:
 * the first turn calls a tool with given arguments, n8n runs the tool, the second request carries the
 * tool's result (a `tool` role message) and the next turn answers with a final text.
 *
 * Answers plain JSON, or Server-Sent Events when the request asks for `stream: true`. On demand (`fail`) it fails
 * like a model provider: every request answered with an HTTP error, or never answered (a timeout on n8n's side).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedToolCall {
	/** The tool's name as the model sees it (n8n: the node's name with spaces turned into `_`). */
	name: string;
	arguments: Record<string, unknown>;
}

/** How the model fails, for every request until cleared: an HTTP error with OpenAI's error shape, or no answer at all. */
export type Failure = { status: number; message: string } | 'hang';

/** One answer of the model: tool calls, or a final text. */
export type Turn = { toolCalls: ScriptedToolCall[]; text?: string } | { text: string };

export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
	[key: string]: unknown;
}

export interface ChatRequest {
	model?: string;
	messages: ChatMessage[];
	tools?: Array<{
		type: string;
		function: { name: string; description?: string; parameters?: unknown };
	}>;
	stream?: boolean;
	[key: string]: unknown;
}

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

export const STAND_IN_MODEL = 'gpt-4o-mini';

function contentText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) {
		return content
			.map((part) =>
				part && typeof part === 'object' && 'text' in part
					? String((part as { text: unknown }).text)
					: JSON.stringify(part),
			)
			.join('');
	}
	return content === undefined || content === null ? '' : JSON.stringify(content);
}

async function readJson(request: http.IncomingMessage): Promise<unknown> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	const text = Buffer.concat(chunks).toString('utf8');
	return text ? JSON.parse(text) : {};
}

function json(response: http.ServerResponse, status: number, body: unknown): void {
	const text = JSON.stringify(body);
	response.writeHead(status, {
		'content-type': 'application/json',
		'content-length': Buffer.byteLength(text),
	});
	response.end(text);
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

			const id = `chatcmpl-standin-${++sequence}`;
			const created = Math.floor(Date.now() / 1000);
			const model = body.model ?? STAND_IN_MODEL;
			const toolCalls =
				'toolCalls' in turn
					? turn.toolCalls.map((call, index) => ({
							id: `call_standin_${sequence}_${index}`,
							type: 'function',
							function: { name: call.name, arguments: JSON.stringify(call.arguments) },
						}))
					: undefined;
			const content = turn.text ?? null;
			const finishReason = toolCalls ? 'tool_calls' : 'stop';
			const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };

			if (!body.stream) {
				return json(response, 200, {
					id,
					object: 'chat.completion',
					created,
					model,
					choices: [
						{
							index: 0,
							message: {
								role: 'assistant',
								content,
								...(toolCalls ? { tool_calls: toolCalls } : {}),
								refusal: null,
							},
							logprobs: null,
							finish_reason: finishReason,
						},
					],
					usage,
				});
			}
			response.writeHead(200, {
				'content-type': 'text/event-stream',
				'cache-control': 'no-cache',
				connection: 'keep-alive',
			});
			const event = (choices: unknown[], extra: Record<string, unknown> = {}) =>
				response.write(
					`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`,
				);
			event([
				{
					index: 0,
					delta: { role: 'assistant', content: content === null ? null : '' },
					logprobs: null,
					finish_reason: null,
				},
			]);
			if (content) event([{ index: 0, delta: { content }, logprobs: null, finish_reason: null }]);
			toolCalls?.forEach((call, index) =>
				event([
					{
						index: 0,
						delta: { tool_calls: [{ index, ...call }] },
						logprobs: null,
						finish_reason: null,
					},
				]),
			);
			event([{ index: 0, delta: {}, logprobs: null, finish_reason: finishReason }]);
			if ((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage)
				event([], { usage });
			response.end('data: [DONE]\n\n');
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
