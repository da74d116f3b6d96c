/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test infrastructure runs in plain Node.js, not inside n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { controlRoutes } from './control';
import { DEMO_SEED, prepareDemoWorld } from './demoWorld';
import { restoreState, stateSaver } from './persist';
import { phoneConversation } from './phone';
import { seedState } from './seed';

const control = (action: string, state: ReturnType<typeof seedState>, input: object) =>
	controlRoutes[action]({ state, input } as Parameters<(typeof controlRoutes)['message']>[0]);

describe("the demo's world kept across a restart", () => {
	let dir: string;
	beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'botsailor-world-'))));
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it('a thread, its statuses, the window and the id counters are what they were; nothing is moved again', () => {
		const file = join(dir, 'simulator-state.json');
		const state = seedState(DEMO_SEED);
		const world = prepareDemoWorld(state);
		const ben = { phone_number: '15550100002' };
		control('message', state, { ...ben, text: 'Is the bakery open on Sunday?' });
		const reply = control('message', state, { ...ben, sender: 'bot', text: 'Yes, 8 to 12.' }) as {
			wa_message_id: string;
		};
		control('message-status', state, { wa_message_id: reply.wa_message_id, status: 'read' });
		const save = stateSaver(() => state, file);
		expect(save()).toBe(true);
		expect(save()).toBe(false); // unchanged: not written again

		const restarted = seedState(DEMO_SEED);
		expect(restoreState(restarted, file)).toBe(true);
		const again = prepareDemoWorld(restarted, { kept: true });
		expect(phoneConversation(restarted, ben)).toEqual(phoneConversation(state, ben));
		expect(phoneConversation(restarted, ben).messages.slice(-2)).toMatchObject([
			{ from: 'me', text: 'Is the bakery open on Sunday?' },
			{ from: 'business', text: 'Yes, 8 to 12.', status: 'read' },
		]);
		expect(again.inside.map((customer) => customer.phone_number)).toEqual(
			world.inside.map((customer) => customer.phone_number),
		);
		expect(again.outside.map((customer) => customer.phone_number)).toEqual(
			world.outside.map((customer) => customer.phone_number),
		);
		const ids = new Set(state.messages.map((message) => message.wa_message_id));
		expect(ids.has(restarted.newWaMessageId())).toBe(false);
	});

	it('no file: a fresh world', () => {
		expect(restoreState(seedState(DEMO_SEED), join(dir, 'none.json'))).toBe(false);
	});
});
