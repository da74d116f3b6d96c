/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test infrastructure runs in plain Node.js, not inside n8n */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { draftAnswer, faqTurn, STAND_IN_NOTE, type ChatRequest } from './model';
import { startSimulator, type Simulator } from './server';

const tool = (name: string, ...keys: string[]) => ({
	type: 'function',
	function: {
		name,
		parameters: {
			type: 'object',
			properties: Object.fromEntries(keys.map((key) => [key, { type: 'string' }])),
		},
	},
});
/** The tools the AI receptionist example gives its agent (examples/ai-receptionist.json). */
const RECEPTIONIST_TOOLS = [
	tool('Get_Transcript', 'phone_number'),
	tool('Get_Subscriber', 'phone_number'),
	tool('Update_CRM_Deal', 'phone_number', 'title', 'lead_score'),
	tool('Hand_Over_to_a_Person', 'phone_number', 'reason'),
	tool('Send_Text', 'phone_number', 'message'),
];
const SYSTEM = {
	role: 'system',
	content: 'You answer the customer whose phone number is 15550100002 (use it for every tool).',
};

/** The AI-draft example's agent: its one tool, and its system message as n8n fills it in for Ava. */
const DRAFT_TOOLS = [tool('Get_Transcript', 'phone_number')];
const DRAFT_SYSTEM = {
	role: 'system',
	content: String(
		(
			JSON.parse(
				readFileSync(join(__dirname, '..', '..', 'examples', 'ai-draft-approval.json'), 'utf8'),
			) as { nodes: Array<{ name: string; parameters: { options?: { systemMessage?: string } } }> }
		).nodes.find((node) => node.name === 'Draft a Reply')?.parameters.options?.systemMessage,
	)
		.replace(/^=/, '')
		.replace('{{ $json.phone_number }}', '15550100001'),
};

/** The agent's loop: the stand-in's turn, then each tool call answered as n8n would. */
function converse(
	question: string,
	system = SYSTEM,
	tools = RECEPTIONIST_TOOLS,
): ChatRequest['messages'] {
	const messages: ChatRequest['messages'] = [system, { role: 'user', content: question }];
	for (let round = 0; round < 6; round++) {
		const turn = faqTurn({ messages, tools });
		if (!('toolCalls' in turn)) {
			messages.push({ role: 'assistant', content: turn.text });
			return messages;
		}
		const calls = turn.toolCalls.map((call, index) => ({
			id: `c${round}${index}`,
			type: 'function',
			function: { name: call.name, arguments: JSON.stringify(call.arguments) },
		}));
		messages.push({ role: 'assistant', content: null, tool_calls: calls });
		for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: '[]' });
	}
	throw new Error('the stand-in never answered with a text');
}

const calls = (messages: ChatRequest['messages']) =>
	messages.flatMap((message) =>
		(message.tool_calls ?? []).map((call) => [
			call.function.name,
			JSON.parse(call.function.arguments) as unknown,
		]),
	);

describe("the simulator's chat model stand-in (the demo's AI examples without an API key)", () => {
	it('reads the transcript, sends the FAQ answer once to the customer, then ends with it; it says it is a stand-in', () => {
		const messages = converse('Are you open on Sunday?');
		const answer = `Sunrise Bakery is open Monday to Saturday 7am to 6pm, and Sunday 8am to noon. ${STAND_IN_NOTE}`;
		expect(calls(messages)).toEqual([
			['Get_Transcript', { phone_number: '15550100002' }],
			['Send_Text', { phone_number: '15550100002', message: answer }],
		]);
		expect(messages.at(-1)).toEqual({ role: 'assistant', content: answer });
	});

	it('hands over when the customer asks for a person; answers anything else from the FAQ, always the same', () => {
		expect(calls(converse('I want to talk to a person')).map(([name]) => name)).toEqual([
			'Get_Transcript',
			'Send_Text',
			'Hand_Over_to_a_Person',
		]);
		const question = { messages: [{ role: 'user', content: 'Do you deliver?' }] };
		expect(faqTurn(question)).toEqual(faqTurn(question));
		expect(faqTurn(question)).toEqual({
			text: `We deliver within 5 km for 3 USD, free for orders over 30 USD. ${STAND_IN_NOTE}`,
		});
		expect(faqTurn({ messages: [{ role: 'user', content: 'xyz' }] })).toMatchObject({
			text: expect.stringContaining(STAND_IN_NOTE),
		});
	});

	it('drafts for the AI-draft example: reads the transcript, then answers with the draft only, which says it is a stand-in', () => {
		const question = 'Hi! Can I still order a birthday cake for Saturday?';
		const messages = converse(question, DRAFT_SYSTEM, DRAFT_TOOLS);
		expect(calls(messages)).toEqual([['Get_Transcript', { phone_number: '15550100001' }]]);
		const draft = `Hi! Sunrise Bakery is open Monday to Saturday 7am to 6pm, and Sunday 8am to noon. Breads are 3 to 6 USD and celebration cakes from 25 USD; reply with what you would like and when. ${STAND_IN_NOTE}`;
		expect(messages.at(-1)).toEqual({ role: 'assistant', content: draft });
		expect(draftAnswer(question)).toBe(draft);
		expect(draft.length).toBeLessThanOrEqual(600);
		// What only the team can decide is left to the team, and nothing is handed over or sent by the model.
		const refund = converse('I want a refund, let me talk to a person', DRAFT_SYSTEM, [
			...DRAFT_TOOLS,
			tool('Hand_Over_to_a_Person', 'phone_number', 'reason'),
			tool('Send_Text', 'phone_number', 'message'),
		]);
		expect(calls(refund).map(([name]) => name)).toEqual(['Get_Transcript']);
		expect(refund.at(-1)!.content).toBe(
			`Hi! A person of our team will look into this and confirm. ${STAND_IN_NOTE}`,
		);
		expect(draftAnswer('I want a refund for yesterday’s cake')).toBe(
			`Hi! A person of our team will look into this and confirm. ${STAND_IN_NOTE}`,
		);
		expect(draftAnswer('xyz')).toBe(draftAnswer('xyz'));
		expect(draftAnswer('xyz')).toContain(STAND_IN_NOTE);
		// The receptionist's prompt is not a drafting one: it still sends its answer itself.
		expect(calls(converse(question)).map(([name]) => name)).toEqual([
			'Get_Transcript',
			'Send_Text',
		]);
	});

	describe('over HTTP, as n8n’s OpenAI Chat Model calls it (Base URL <simulator>/openai/v1)', () => {
		let sim: Simulator;
		beforeAll(async () => (sim = await startSimulator()));
		afterAll(async () => await sim.close());
		const post = (body: object) =>
			fetch(`${sim.url}/openai/v1/chat/completions`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', authorization: 'Bearer any-key' },
				body: JSON.stringify(body),
			});

		it('answers a chat completion with a tool call, and lists its model', async () => {
			const response = await post({
				model: 'gpt-4o-mini',
				messages: [SYSTEM, { role: 'user', content: 'price of rye bread?' }],
				tools: RECEPTIONIST_TOOLS,
			});
			expect(response.status).toBe(200);
			const body = (await response.json()) as {
				choices: Array<{ message: { tool_calls: unknown[] }; finish_reason: string }>;
			};
			expect(body.choices[0]).toMatchObject({
				finish_reason: 'tool_calls',
				message: {
					tool_calls: [
						{ function: { name: 'Get_Transcript', arguments: '{"phone_number":"15550100002"}' } },
					],
				},
			});
			const models = (await (await fetch(`${sim.url}/openai/v1/models`)).json()) as {
				data: Array<{ id: string }>;
			};
			expect(models.data.map((model) => model.id)).toEqual(['gpt-4o-mini']);
		});

		it('streams as Server-Sent Events when asked', async () => {
			const response = await post({
				stream: true,
				messages: [{ role: 'user', content: 'Do you have vegan cookies?' }],
			});
			expect(response.headers.get('content-type')).toBe('text/event-stream');
			const text = await response.text();
			expect(text).toContain('We bake a gluten-free loaf and vegan cookies every day');
			expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
		});
	});
});
