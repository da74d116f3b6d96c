/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test infrastructure runs in plain Node.js, not inside n8n */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { controlRoutes } from './control';
import { DEMO_SEED, DRAFT_MANAGER, DRAFT_NUMBER, prepareDemoWorld } from './demoWorld';
import { phoneConversation, phoneSubscribers } from './phone';
import { seedState } from './seed';
import { insideWindow, timestamp } from './state';

const control = (action: string, state: ReturnType<typeof seedState>, input: object) =>
	controlRoutes[action]({ state, input } as Parameters<(typeof controlRoutes)['message']>[0]);

describe("the demo's world and the customer's phone page", () => {
	it('the real clock: the seed ends now, each request moves the clock to now, writes stay ordered', () => {
		const before = Date.now();
		const state = seedState(DEMO_SEED);
		expect(state.clock).toBeGreaterThanOrEqual(before);
		state.clock -= 60_000; // as if a minute passed since the last request
		state.sync();
		expect(state.clock).toBeGreaterThanOrEqual(before);
		const first = state.now();
		const second = state.now();
		expect(second >= first).toBe(true);
		expect(first.slice(0, 16)).toBe(timestamp(Date.now()).slice(0, 16));
	});

	it('the fixed clock stays the default (the unit tests depend on it)', () => {
		const state = seedState();
		expect(state.realClock).toBe(false);
		expect(timestamp(state.clock)).toBe('2026-01-15 09:00:00');
		state.sync();
		expect(timestamp(state.clock)).toBe('2026-01-15 09:00:00');
	});

	it('no two demo customers share a name, nor do the five the ready message names share a first name', () => {
		const state = seedState(DEMO_SEED);
		const names = state.subscribers.map((entry) => `${entry.first_name} ${entry.last_name}`);
		expect(names.length).toBe(300);
		expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
		const world = prepareDemoWorld(state);
		const firstNames = [...world.inside, ...world.outside].map((entry) => entry.name.split(' ')[0]);
		expect(new Set(firstNames).size).toBe(firstNames.length);
		expect(phoneSubscribers(state, { limit: 40 }).length).toBe(40);
	});

	it('names customers inside and outside the 24-hour window, which is enforced', () => {
		const state = seedState(DEMO_SEED);
		const world = prepareDemoWorld(state);
		expect(state.sessionWindow).toBe('enforced');
		const number = state.bots[0].phone_number_id;
		expect(world.inside.map((customer) => customer.name)).toEqual([
			'Ava Smith',
			'Ben Garcia',
			'Chloe Khan',
		]);
		expect(world.outside.length).toBeGreaterThan(0);
		for (const customer of world.inside)
			expect(insideWindow(state, number, customer.phone_number)).toBe(true);
		for (const customer of world.outside)
			expect(insideWindow(state, number, customer.phone_number)).toBe(false);
		// The page opens on the first: Ava of the first number. The draft number's manager comes after the story's three.
		const listed = phoneSubscribers(state, { limit: 6 });
		expect(
			listed.map((entry) => [entry.phone_number, entry.phone_number_id, entry.inside_window]),
		).toEqual([
			['15550100001', number, true],
			['15550100002', number, true],
			['15550100003', number, true],
			['15550100002', DRAFT_NUMBER.phone_number_id, true],
			['15550100004', number, false],
			['15550100005', number, false],
		]);
	});

	it("the third number, the AI-draft example's: its manager inside the window, two customers; added once, to a kept world too", () => {
		const state = seedState(DEMO_SEED);
		expect(state.bots).toHaveLength(2); // the seed (every test's world) keeps two numbers
		const { draft } = prepareDemoWorld(state);
		const number = DRAFT_NUMBER.phone_number_id;
		expect(state.bots.map((bot) => bot.phone_number_id)).toEqual([
			...seedState().bots.map((bot) => bot.phone_number_id),
			number,
		]);
		expect(draft).toEqual({
			manager: { phone_number: DRAFT_MANAGER, name: 'Ben Garcia', hoursAgo: 6, insideWindow: true },
			customers: [
				{ phone_number: '15550100001', name: 'Ava Smith', hoursAgo: 96 },
				{ phone_number: '15550100003', name: 'Chloe Khan', hoursAgo: 120 },
			],
		});
		expect(insideWindow(state, number, '15550100001')).toBe(false);
		expect(
			phoneConversation(state, { phone_number_id: number, phone_number: '15550100001' }),
		).toMatchObject({
			business: 'Sunrise Bakery Cakes',
			messages: [
				{ from: 'me', text: 'Do you make cakes to order?' },
				{ from: 'business', text: 'We do, from 25 USD.' },
			],
		});
		// Listed by the phone page (its 40 most recent conversations).
		const listed = phoneSubscribers(state, { limit: 40 }).filter(
			(entry) => entry.phone_number_id === number,
		);
		expect(listed.map((entry) => entry.phone_number)).toEqual([
			DRAFT_MANAGER,
			'15550100001',
			'15550100003',
		]);
		// Prepared again (a kept world that has it): nothing added twice.
		const messages = state.messages.length;
		prepareDemoWorld(state, { kept: true });
		expect(state.bots).toHaveLength(3);
		expect(state.subscribersOf(number)).toHaveLength(3);
		expect(state.messages.length).toBe(messages);
		// A world kept from before the third number existed gets it.
		const older = seedState(DEMO_SEED);
		prepareDemoWorld(older, { kept: true });
		expect(older.bot(number)).toBeDefined();
		expect(older.subscribersOf(number)).toHaveLength(3);
	});

	it('shows a template with its variables filled, buttons, media, and the customer’s reply', () => {
		const state = seedState(DEMO_SEED);
		const number = state.bots[0].phone_number_id;
		const to = { phone_number_id: number, phone_number: '15550100001', sender: 'bot' };
		control('message', state, {
			...to,
			content: {
				type: 'template',
				template: {
					name: 'welcome_offer',
					language: 'en_US',
					variables: {
						'templateVariable-first_name-1': 'Ava',
						'templateVariable-discount-2': '10%',
					},
				},
			},
		});
		control('message', state, {
			...to,
			content: {
				type: 'interactive',
				interactive: { body: 'Which size?', buttons: [{ id: 's', title: 'Small' }, 'Large'] },
			},
		});
		control('message', state, {
			...to,
			content: { type: 'document', document: { link: '/media/x.pdf', filename: 'x.pdf' } },
		});
		control('message', state, {
			phone_number_id: number,
			phone_number: '15550100001',
			content: {
				type: 'interactive',
				interactive: { type: 'button_reply', button_reply: { id: 's', title: 'Small' } },
			},
		});
		const { messages } = phoneConversation(state, { phone_number: '15550100001' });
		const [template, buttons, file, reply] = messages.slice(-4);
		expect(template).toMatchObject({
			from: 'business',
			template: 'welcome_offer',
			text: 'Hello Ava, enjoy 10% off',
			footer: 'Sunrise Bakery',
			buttons: [{ title: 'Stop', id: 'Stop' }],
			status: 'sent',
		});
		expect(buttons).toMatchObject({
			text: 'Which size?',
			buttons: [
				{ title: 'Small', id: 's' },
				{ title: 'Large', id: 'Large' },
			],
		});
		expect(file).toMatchObject({ media: { type: 'document', url: '/media/x.pdf', name: 'x.pdf' } });
		expect(reply).toMatchObject({ from: 'me', text: 'Small', status: null });
	});

	it('a restarted demo never reuses a message id (n8n remembers them to drop duplicates)', () => {
		const first = seedState(DEMO_SEED);
		const before = new Set(first.messages.map((message) => message.wa_message_id));
		before.add(first.newWaMessageId());
		const restarted = seedState(DEMO_SEED);
		const after = [
			...restarted.messages.map((message) => message.wa_message_id),
			restarted.newWaMessageId(),
		];
		expect(after.filter((id) => before.has(id))).toEqual([]);
		expect(seedState().messages[0].wa_message_id).toBe(seedState().messages[0].wa_message_id);
	});

	it("marks a customer's message whose webhook the receiver refused, with the receiver's answer", async () => {
		const receiver = http.createServer((request, response) => {
			request.resume();
			request.on('end', () => {
				response.writeHead(401, { 'content-type': 'application/json' });
				response.end('{"message":"Authorization data is wrong!"}');
			});
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		try {
			const state = seedState(DEMO_SEED);
			const number = state.bots[0].phone_number_id;
			const { port } = receiver.address() as AddressInfo;
			const to = { phone_number_id: number, phone_number: '15550100001' };
			control('message', state, { ...to, text: 'before the webhook was set' });
			state.webhooks.configure(number, {
				urls: { incoming_message: `http://127.0.0.1:${port}/webhook/x/webhook?secret=s` },
			});
			control('message', state, { ...to, text: 'refused' });
			await state.webhooks.idle();
			const { messages } = phoneConversation(state, to);
			const [before, refused] = messages.slice(-2);
			expect(before).toMatchObject({ text: 'before the webhook was set' });
			expect(before.refused).toBeUndefined();
			expect(refused).toMatchObject({
				text: 'refused',
				refused: 'HTTP 401 {"message":"Authorization data is wrong!"}',
			});
		} finally {
			receiver.close();
		}
	});
});
