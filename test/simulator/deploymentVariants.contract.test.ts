import { addMessage } from './control';
import { useContractSimulator, type Envelope } from './contractClient';
import { NUMBER, PHONE } from '../harness/params';

/** The SPEC-GAP deployment variants of state.ts serve what they say (the trigger's tests rely on them). */
const { context, call } = useContractSimulator();
const ids = (envelope: Envelope): number[] =>
	envelope.message.map((entry: { subscriber_id: number }) => entry.subscriber_id);
const times = (envelope: Envelope): string[] =>
	envelope.message.map((entry: { conversation_time: string }) => entry.conversation_time);

describe('deployment variants', () => {
	it('subscriber list default order: oldest first (default), newest first, by name; orderBy=1 unchanged', async () => {
		const list = async () =>
			await call('/whatsapp/subscriber/list', {
				phone_number_id: NUMBER,
				limit: '100',
				offset: '1',
			});
		const oldest = ids(await list());
		expect(oldest).toEqual([...oldest].sort((a, b) => a - b));
		context.sim.state.subscriberDefaultOrder = 'newestFirst';
		const newest = ids(await list());
		expect(newest[0]).toBe(
			Math.max(...context.sim.state.subscribersOf(NUMBER).map((entry) => entry.subscriber_id)),
		);
		expect(newest).toEqual([...newest].sort((a, b) => b - a));
		context.sim.state.subscriberDefaultOrder = 'byName';
		const byName = (await list()).message.map(
			(entry: { first_name: string; last_name: string }) =>
				`${entry.first_name} ${entry.last_name}`,
		);
		expect(byName).toEqual([...byName].sort((a, b) => a.localeCompare(b)));
		const recent = await call('/whatsapp/subscriber/list', {
			phone_number_id: NUMBER,
			limit: '3',
			orderBy: '1',
		});
		context.sim.state.subscriberDefaultOrder = 'oldestFirst';
		expect(
			await call('/whatsapp/subscriber/list', {
				phone_number_id: NUMBER,
				limit: '3',
				orderBy: '1',
			}),
		).toEqual(recent);
	});

	it('conversation pages: newest first (default), oldest first, in no time order', async () => {
		const page = async () =>
			times(
				await call('/whatsapp/get/conversation', {
					phone_number_id: NUMBER,
					phone_number: PHONE,
					limit: '50',
				}),
			);
		const newest = await page();
		expect(newest).toEqual([...newest].sort().reverse());
		context.sim.state.conversationOrder = 'oldestFirst';
		expect(await page()).toEqual([...newest].reverse());
		context.sim.state.conversationOrder = 'unordered';
		const unordered = await page();
		expect(unordered).not.toEqual([...unordered].sort());
		expect(unordered).not.toEqual([...unordered].sort().reverse());
	});

	it('earlier form only: whole lists without pagination parameters, which are refused', async () => {
		context.sim.state.earlierFormOnly = true;
		const whole = await call('/whatsapp/get/conversation', {
			phone_number_id: NUMBER,
			phone_number: PHONE,
		});
		expect(whole.status).toBe('1');
		expect(whole.nextOffset).toBeUndefined();
		expect(
			await call('/whatsapp/get/conversation', {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				limit: '50',
			}),
		).toEqual({ status: '0', message: 'Unknown parameter: limit.' });
		expect(
			await call('/whatsapp/subscriber/list', {
				phone_number_id: NUMBER,
				limit: '100',
				offset: '2',
			}),
		).toEqual({ status: '0', message: 'Unknown parameter: limit, offset.' });
		expect(
			(await call('/whatsapp/subscriber/list', { phone_number_id: NUMBER, orderBy: '0' })).message,
		).toHaveLength(context.sim.state.subscribersOf(NUMBER).length);
	});

	it('conversation list as JSON text: of an array, of an object keyed 0,1,… and of an object keyed by row id; /__control/deployment switches it', async () => {
		const read = async () =>
			await call('/whatsapp/get/conversation', {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				limit: '50',
			});
		const rows = (await read()).message as Array<{ id: number }>;
		const switched = await fetch(`${context.sim.url}/__control/deployment`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ conversationListShape: 'jsonArray' }),
		});
		expect(((await switched.json()) as { result: object }).result).toMatchObject({
			conversationListShape: 'jsonArray',
			conversationOrder: 'newestFirst',
		});
		expect((await read()).message).toBe(JSON.stringify(rows));
		context.sim.state.conversationListShape = 'jsonIndexed';
		expect(Object.keys(JSON.parse((await read()).message as string))).toEqual(
			rows.map((_, index) => String(index)),
		);
		context.sim.state.conversationListShape = 'jsonById';
		const text = (await read()).message as string;
		expect(text.startsWith(`{"${rows[0].id}":`)).toBe(true);
		expect(Object.values(JSON.parse(text))).toHaveLength(rows.length);
	});

	it("Meta's webhook format for customers' messages, template sends as the template, panel events without wa_message_id", async () => {
		context.sim.state.incomingAsMetaWebhook = true;
		const customer = addMessage(context.sim.state, { phone_number: PHONE, text: 'hi' });
		expect(
			JSON.parse(customer.message_content).entry[0].changes[0].value.messages[0],
		).toMatchObject({
			type: 'text',
			text: { body: 'hi' },
			id: customer.wa_message_id,
		});
		const bot = addMessage(context.sim.state, {
			phone_number: PHONE,
			text: 'hello',
			sender: 'bot',
		});
		expect(JSON.parse(bot.message_content)).toEqual({ type: 'text', text: { body: 'hello' } });
		addMessage(context.sim.state, {
			phone_number: PHONE,
			sender: 'system',
			text: 'Label added: VIP',
		});
		const [event] = (
			await call('/whatsapp/get/conversation', {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				limit: '1',
			})
		).message;
		expect(event).toMatchObject({
			sender: 'system',
			message_content: 'Label added: VIP',
			wa_message_id: null,
			message_status: null,
		});
	});
});
