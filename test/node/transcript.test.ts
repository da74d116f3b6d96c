/**
 * Message → Get Transcript and Get Unanswered (issue 29): the conversation as a model reads it, through n8n's
 * engine (a workflow run) and the tool path (the node type's `execute`: RoutingNode, no customOperations), in
 * both page orders the simulator serves (SPEC-GAP: the spec does not say which page holds the newest messages).
 */
import type { IDataObject } from 'n8n-workflow';
import { runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { addMessage } from '../simulator/control';
import type { SimState } from '../simulator/state';
import { NUMBER, numberFromList } from '../harness/params';

const fx = useSimulator({ seed: { subscribersPerNumber: 5 } });
const PHONE = '15550188001';
const ORDERS: Array<SimState['conversationOrder']> = ['newestFirst', 'oldestFirst'];

const say = (
	text: string,
	sender = 'user',
	extra: Partial<Parameters<typeof addMessage>[1]> = {},
) =>
	addMessage(fx.sim.state, {
		phone_number_id: NUMBER,
		phone_number: PHONE,
		text,
		sender,
		...extra,
	});

const reads = () =>
	fx.sim.requests.filter((request) => request.path === '/whatsapp/get/conversation');

async function transcript(extra: IDataObject = {}, path: 'workflow' | 'execute' = 'workflow') {
	return await runNode({
		parameters: {
			resource: 'message',
			operation: 'getTranscript',
			phoneNumberId: numberFromList,
			phoneNumber: PHONE,
			...extra,
		},
		credentials: fx.credentials,
		path,
	});
}

async function unanswered(messageId?: string, path: 'workflow' | 'execute' = 'workflow') {
	return await runNode({
		parameters: {
			resource: 'message',
			operation: 'getUnanswered',
			phoneNumberId: numberFromList,
			phoneNumber: PHONE,
			...(messageId ? { messageId } : {}),
		},
		credentials: fx.credentials,
		path,
	});
}

describe('Message → Get Transcript', () => {
	it('tags every role, shows media and templates as a model reads them, oldest line first', async () => {
		say('Hi, do you deliver on Sundays?');
		say('We deliver every day from 9 to 18.', 'bot');
		say('', 'system', { text: 'Conversation was assigned to Sam Support' });
		say('Hello, this is Sam. Which address?', 'agent', { agent_name: 'Sam Support' });
		say('', 'user', {
			content: {
				type: 'image',
				image: { link: 'https://cdn.example/cake.jpg', caption: 'This cake please' },
			},
		});
		say('', 'user', { content: { type: 'audio', audio: { id: '77', voice: true } } });
		say('', 'user', {
			content: {
				type: 'document',
				document: { link: 'https://cdn.example/a.pdf', filename: 'order.pdf' },
			},
		});
		say('', 'sequence', {
			content: {
				type: 'template',
				template: {
					name: 'reminder',
					language: { code: 'en' },
					components: [{ type: 'body', text: 'Your order ships tomorrow.' }],
				},
			},
		});
		for (const path of ['workflow', 'execute'] as const) {
			fx.sim.clearRequests();
			const { items, error } = await transcript({}, path);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
			expect(items[0].json.transcript).toBe(
				[
					'customer: Hi, do you deliver on Sundays?',
					'bot: We deliver every day from 9 to 18.',
					'system: Conversation was assigned to Sam Support',
					'agent Sam Support: Hello, this is Sam. Which address?',
					'customer: [photo: This cake please]',
					'customer: [voice note]',
					'customer: [document: order.pdf]',
					'bot: Your order ships tomorrow.',
				].join('\n'),
			);
			expect(items[0].json).toMatchObject({ count: 8, truncated: false, phone_number: PHONE });
			const messages = items[0].json.messages as IDataObject[];
			expect(messages[3]).toMatchObject({ role: 'agent', name: 'Sam Support', sender: 'agent' });
			expect(messages[7]).toMatchObject({
				role: 'bot',
				sender: 'sequence',
				message_type: 'template',
			});
			expect(reads()).toHaveLength(1);
		}
	});

	it('leaves panel events out when asked, and starts lines with times when asked', async () => {
		say('Hello');
		say('', 'system', { text: 'Label added: VIP' });
		const { items } = await transcript({
			options: { includePanelEvents: false, includeTimes: true },
		});
		expect(items[0].json.transcript).toMatch(
			/^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\] customer: Hello$/,
		);
	});

	describe.each(ORDERS)('a long conversation, pages %s', (order) => {
		it('the last N messages read only the pages that hold them', async () => {
			const all = Array.from({ length: 230 }, (_, index) =>
				say(`m${index}`, index % 2 ? 'bot' : 'user'),
			);
			fx.sim.state.conversationOrder = order;
			const { items, error } = await transcript({ lastMessages: 60, maxCharacters: 100_000 });
			expect(error).toBeUndefined();
			const lines = String(items[0].json.transcript).split('\n');
			expect(lines).toHaveLength(60);
			expect(lines[0]).toBe('customer: m170');
			expect(lines[59]).toBe('bot: m229');
			expect(items[0].json.first_at).toBe(all[170].conversation_time);
			expect(items[0].json.last_at).toBe(all[229].conversation_time);
			// Newest first: pages 1 and 2. Oldest first: the last page is found, then the one before it.
			const pages = reads().map((request) => Number(request.body.offset));
			if (order === 'newestFirst') expect(pages).toEqual([1, 2]);
			else {
				// The reader's search for the last page (about 2·log2(pages) reads, page 4 among them), each page once; not page 3.
				expect(pages.length).toBe(new Set(pages).size);
				expect(pages).toContain(5);
				expect(pages).not.toContain(3);
			}
		});

		it('the character budget keeps the newest messages and says it cut', async () => {
			for (let index = 0; index < 120; index++) say(`message number ${index}`);
			fx.sim.state.conversationOrder = order;
			const { items } = await transcript({ lastMessages: 1000, maxCharacters: 1500 });
			const text = String(items[0].json.transcript);
			expect(JSON.stringify(items[0].json).length).toBeLessThanOrEqual(1500);
			expect(text.endsWith('customer: message number 119')).toBe(true);
			expect(items[0].json.truncated).toBe(true);
			// 1,500 characters are a few messages: one page is enough in either order.
			expect(new Set(reads().map((request) => request.body.offset)).size).toBeLessThanOrEqual(
				order === 'newestFirst' ? 1 : 5,
			);
		});

		it('since a time: the messages from then on, read no further back', async () => {
			const all = Array.from({ length: 120 }, (_, index) => say(`t${index}`));
			fx.sim.state.conversationOrder = order;
			const { items } = await transcript({
				range: 'since',
				since: all[100].conversation_time.replace(' ', 'T'),
			});
			expect(items[0].json.count).toBe(20);
			expect(String(items[0].json.transcript).split('\n')[0]).toBe('customer: t100');
			if (order === 'newestFirst') expect(reads()).toHaveLength(1);
		});
	});

	it('the newest message alone over the budget: its beginning, cut', async () => {
		say('x'.repeat(500));
		const { items } = await transcript({ maxCharacters: 600 });
		expect(JSON.stringify(items[0].json).length).toBeLessThanOrEqual(600);
		expect(String(items[0].json.transcript)).toMatch(/^customer: x{100,}…$/);
		expect(items[0].json).toMatchObject({ count: 1, truncated: true });
	});

	it.each([
		[{ lastMessages: 0 }, /^Last Messages must be a whole number from 1 to 1000/],
		[{ maxCharacters: 'lots' }, /^Max Characters must be a whole number/],
		[{ range: 'since', since: 'yesterday' }, /^Since must be a date and time/],
		[{ phoneNumber: 'call me' }, /^Subscriber /],
	])('refuses %j before any request', async (extra, message) => {
		const { error } = await transcript(extra);
		expect(error?.message).toMatch(message);
		expect(fx.sim.requests).toHaveLength(0);
	});
});

describe('Message → Get Unanswered', () => {
	it('a burst of three after the bot’s answer: joined in order; only the newest one is the newest', async () => {
		say('Hello');
		say('Hi! How can I help?', 'bot');
		const burst = [say('I ordered a cake'), say('for Saturday'), say('can I change the flavour?')];
		say('', 'system', { text: 'Label added: VIP' });
		const answers = await Promise.all(burst.map((message) => unanswered(message.wa_message_id)));
		const [first, second, third] = answers.map((answer) => answer.items[0].json);
		expect(third).toMatchObject({
			text: 'I ordered a cake\nfor Saturday\ncan I change the flavour?',
			count: 3,
			first_at: burst[0].conversation_time,
			last_at: burst[2].conversation_time,
			newest_wa_message_id: burst[2].wa_message_id,
			is_newest: true,
			newer_message_arrived: false,
			already_answered: false,
			last_reply_role: 'bot',
		});
		expect(first).toMatchObject({ is_newest: false, newer_message_arrived: true });
		expect(second).toMatchObject({ is_newest: false, newer_message_arrived: true });
		expect((third.messages as IDataObject[]).map((message) => message.role)).toEqual([
			'customer',
			'customer',
			'customer',
		]);
	});

	it('after an agent replied, the earlier message is answered: nothing to answer', async () => {
		const question = say('Is the shop open?');
		say('Yes, until 6.', 'agent');
		const { items } = await unanswered(question.wa_message_id, 'execute');
		expect(items[0].json).toMatchObject({
			count: 0,
			text: '',
			is_newest: false,
			already_answered: true,
			last_reply_role: 'agent',
		});
	});

	it.each(ORDERS)(
		'sixty customer messages since the last reply, pages %s: all of them, and no page before the reply',
		async (order) => {
			for (let index = 0; index < 80; index++)
				say(`old ${index}`, index % 2 ? 'automation' : 'user');
			say('The last reply', 'bot');
			const burst = Array.from({ length: 60 }, (_, index) => say(`new ${index}`));
			fx.sim.state.conversationOrder = order;
			const { items } = await unanswered(burst[59].wa_message_id);
			expect(items[0].json).toMatchObject({ count: 60, is_newest: true });
			expect(String(items[0].json.text).split('\n')[0]).toBe('new 0');
			expect(String(items[0].json.text).split('\n')[59]).toBe('new 59');
			if (order === 'newestFirst')
				expect(reads().map((request) => Number(request.body.offset))).toEqual([1, 2]);
		},
	);

	it('without a Message ID: no is_newest fields', async () => {
		say('Hi');
		const { items } = await unanswered();
		expect(items[0].json).toMatchObject({ count: 1, text: 'Hi' });
		expect(items[0].json).not.toHaveProperty('is_newest');
	});

	it('refuses a bad subscriber before any request', async () => {
		const { error } = await runNode({
			parameters: {
				resource: 'message',
				operation: 'getUnanswered',
				phoneNumberId: numberFromList,
				phoneNumber: '12',
			},
			credentials: fx.credentials,
		});
		expect(error?.message).toMatch(/^Subscriber /);
		expect(fx.sim.requests).toHaveLength(0);
	});
});
