/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test infrastructure runs in plain Node.js, not inside n8n */
/**
 * A chat model stand-in for the demo (issue 51): the simulator answers OpenAI's chat-completions protocol at
 * `<simulator>/openai/v1` (an OpenAI credential's Base URL), so the AI examples run without an API key. Not part of
 * BotSailor's API. It is deterministic: it answers from a short shop FAQ, calls the tools it is offered the way the
 * AI receptionist's prompt asks (read the transcript, send one reply, hand over when the customer asks for a person)
 * or, for a prompt that asks for a draft (the AI-draft example), reads the transcript and answers with the draft, and
 * every answer says that it comes from a stand-in.
 *
 * The wire format (one JSON answer, or Server-Sent Events for `stream: true`) is shared with the e2e suite's scripted
 * stand-in (test/e2e/openaiStandIn.ts).
 */
import type http from 'node:http';

export interface ScriptedToolCall {
	/** The tool's name as the model sees it (n8n: the node's name with spaces turned into `_`). */
	name: string;
	arguments: Record<string, unknown>;
}

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

export const STAND_IN_MODEL = 'gpt-4o-mini';

export function contentText(content: unknown): string {
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

export function json(response: http.ServerResponse, status: number, body: unknown): void {
	const text = JSON.stringify(body);
	response.writeHead(status, {
		'content-type': 'application/json',
		'content-length': Buffer.byteLength(text),
	});
	response.end(text);
}

/** Writes one turn as OpenAI answers a chat completion: JSON, or Server-Sent Events when the request streams. */
export function writeCompletion(
	response: http.ServerResponse,
	body: ChatRequest,
	turn: Turn,
	sequence: number,
): void {
	const id = `chatcmpl-standin-${sequence}`;
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
}

/** Said in every answer, so nobody mistakes the demo's answers for a real model's. */
export const STAND_IN_NOTE = '(Answered by the demo’s stand-in model, not a real AI.)';

/** A customer who asks for a person, or for what only a person can decide. */
const ASKS_FOR_A_PERSON = /\b(person|human|agent|someone|complain|refund|manager)\b/i;

/** The shop's FAQ: the first entry whose pattern matches the customer's words answers. */
const FAQ: Array<[RegExp, string]> = [
	[ASKS_FOR_A_PERSON, 'I am handing you over to a person of our team, who will reply soon.'],
	[
		/\b(open|hours?|sunday|saturday|close[sd]?|when)\b/i,
		'Sunrise Bakery is open Monday to Saturday 7am to 6pm, and Sunday 8am to noon.',
	],
	[
		/\b(gluten|vegan|allerg\w*|nuts?|lactose)\b/i,
		'We bake a gluten-free loaf and vegan cookies every day; ask us about allergens in any product.',
	],
	[
		/\b(deliver\w*|shipping|ship)\b/i,
		'We deliver within 5 km for 3 USD, free for orders over 30 USD.',
	],
	[
		/\b(price|cost|how much|cake|bread|rye|order)\b/i,
		'Breads are 3 to 6 USD and celebration cakes from 25 USD; reply with what you would like and when.',
	],
];
const DEFAULT_ANSWER =
	'Thanks for your message! I can tell you about our opening hours, breads and cakes, allergens and delivery.';

/** The FAQ's answer to a question, with the stand-in note. */
export function faqAnswer(question: string): string {
	const found = FAQ.find(([pattern]) => pattern.test(question));
	return `${found ? found[1] : DEFAULT_ANSWER} ${STAND_IN_NOTE}`;
}

/** What a draft leaves to the team (the AI-draft example's prompt: never promise what only the team can decide). */
const TEAM_WILL_CONFIRM = 'A person of our team will look into this and confirm.';
const DRAFT_DEFAULT = 'Thanks for your message! A person of our team will reply soon.';

/**
 * A draft for a person to approve (the AI-draft example): the FAQ's answers to what the customer asked, at most two
 * (a cake for Saturday is both hours and cakes); a request for a person or a refund only left to the team, with no
 * hand-over and no sales answer beside it. With the stand-in note, well under the example's 600 characters.
 */
export function draftAnswer(question: string): string {
	const fitting = ASKS_FOR_A_PERSON.test(question)
		? [TEAM_WILL_CONFIRM]
		: FAQ.filter(([pattern]) => pattern.test(question))
				.map(([, answer]) => answer)
				.slice(0, 2);
	return `Hi! ${fitting.length ? fitting.join(' ') : DRAFT_DEFAULT} ${STAND_IN_NOTE}`;
}

/** A prompt that asks for a draft, not for replies sent by the model's own tools. */
const DRAFTING = /\bdrafts?\b/i;

/** A value for each parameter of a tool that the stand-in can fill: the customer's number, the reply, a reason. */
function argumentsFor(
	tool: NonNullable<ChatRequest['tools']>[number],
	values: { phone: string; answer: string },
): Record<string, unknown> {
	const properties = Object.keys(
		(tool.function.parameters as { properties?: Record<string, unknown> } | undefined)
			?.properties ?? {},
	);
	const filled: Record<string, unknown> = {};
	for (const name of properties) {
		if (/phone/i.test(name)) filled[name] = values.phone;
		else if (/message|text|reply/i.test(name)) filled[name] = values.answer;
		else if (/reason/i.test(name)) filled[name] = 'The customer asked for a person.';
	}
	return filled;
}

/**
 * The stand-in's next turn for a request. Since the customer's last message: read the transcript (a tool named
 * …transcript…) once, then send the FAQ's answer (a tool named send…text…) once, then hand over when the customer
 * asked for a person (a tool named hand…over…), then answer with the text. Without tools: the text at once. When the
 * system message asks for a draft: read the transcript once, then answer with the draft (draftAnswer), nothing else.
 */
export function faqTurn(body: ChatRequest): Turn {
	const messages = body.messages ?? [];
	let last = -1;
	messages.forEach((message, index) => {
		if (message.role === 'user') last = index;
	});
	const question = last < 0 ? '' : contentText(messages[last].content);
	const called = new Set(
		messages
			.slice(last + 1)
			.flatMap((message) => message.tool_calls ?? [])
			.map((call) => call.function.name),
	);
	const everything = messages.map((message) => contentText(message.content)).join('\n');
	const phone = /\b\d{10,15}\b/.exec(everything)?.[0] ?? '';
	const drafting = messages.some(
		(message) =>
			['system', 'developer'].includes(message.role) && DRAFTING.test(contentText(message.content)),
	);
	const answer = drafting ? draftAnswer(question) : faqAnswer(question);
	const tools = body.tools ?? [];
	const wanted = drafting
		? [/transcript/i]
		: [/transcript/i, /send.*text/i].concat(
				ASKS_FOR_A_PERSON.test(question) ? [/hand.*over/i] : [],
			);
	const next = wanted
		.map((pattern) => tools.find((tool) => pattern.test(tool.function.name)))
		.find((tool) => tool && !called.has(tool.function.name));
	if (next)
		return {
			toolCalls: [{ name: next.function.name, arguments: argumentsFor(next, { phone, answer }) }],
		};
	return { text: answer };
}

let sequence = 0;

/**
 * Serves the stand-in under `/openai` (`/openai/v1/models`, `/openai/v1/chat/completions`); false for other paths. No
 * key is checked: any API key in the credential works.
 */
export function serveModel(
	method: string,
	path: string,
	raw: Buffer,
	response: http.ServerResponse,
): boolean {
	if (!path.startsWith('/openai/')) return false;
	const route = path.slice('/openai'.length).replace(/\/+$/, '');
	if (method === 'GET' && route === '/v1/models') {
		json(response, 200, {
			object: 'list',
			data: [{ id: STAND_IN_MODEL, object: 'model', created: 1700000000, owned_by: 'stand-in' }],
		});
		return true;
	}
	if (method !== 'POST' || route !== '/v1/chat/completions') {
		json(response, 404, {
			error: { message: `stand-in: no route ${method} ${route}`, type: 'invalid_request_error' },
		});
		return true;
	}
	const body = JSON.parse(raw.toString('utf8') || '{}') as ChatRequest;
	writeCompletion(response, body, faqTurn(body), ++sequence);
	return true;
}
