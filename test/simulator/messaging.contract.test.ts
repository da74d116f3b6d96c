import { startSimulator, type Simulator } from './server';

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => sim.close());
beforeEach(() => sim.reset());

async function call(path: string, fields: Record<string, string>, method: 'GET' | 'POST' = 'POST') {
	const all = { apiToken: sim.token, ...fields };
	const response =
		method === 'GET'
			? await fetch(`${sim.url}/api/v1${path}?${new URLSearchParams(all)}`)
			: await fetch(`${sim.url}/api/v1${path}`, { method: 'POST', body: new URLSearchParams(all) });
	return (await response.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const NUMBER = '104382179270221';
const PHONE = '15550100000';

describe('conversation', () => {
	it('pages a subscriber conversation newest first with nextOffset, spec fields only (GET and POST)', async () => {
		const first = await call('/whatsapp/get/conversation', { phone_number_id: NUMBER, phone_number: PHONE, limit: '2' }, 'GET');
		expect(first.status).toBe('1');
		expect(first.message).toHaveLength(2);
		expect(first.nextOffset).toBe(2);
		expect(Object.keys(first.message[0]).sort()).toEqual(
			['agent_name', 'conversation_time', 'delivery_status_updated_at', 'failed_reason', 'id', 'message_content', 'message_status', 'reaction_data', 'sender', 'wa_message_id', 'whatsapp_bot_id', 'whatsapp_bot_subscriber_subscriber_id'].sort(),
		);
		expect(first.message[0].conversation_time >= first.message[1].conversation_time).toBe(true);
		const second = await call('/whatsapp/get/conversation', { phone_number_id: NUMBER, phone_number: PHONE, limit: '2', offset: '2' });
		expect(second.message).toHaveLength(1);
		expect(second.nextOffset).toBeUndefined();
		expect(second.message[0].conversation_time <= first.message[1].conversation_time).toBe(true);
	});
	it('requires limit and caps it at 50', async () => {
		expect(await call('/whatsapp/get/conversation', { phone_number_id: NUMBER, phone_number: PHONE })).toEqual({ status: '0', message: 'The limit field is required.' });
		expect((await call('/whatsapp/get/conversation', { phone_number_id: NUMBER, phone_number: PHONE, limit: '51' })).status).toBe('0');
	});
});

describe('message status and template list', () => {
	it('returns a message status object', async () => {
		const id = sim.state.messages.find((m) => m.sender === 'bot')!.wa_message_id;
		const reply = await call('/whatsapp/get/message-status', { wa_message_id: id }, 'GET');
		expect(reply).toEqual({ status: '1', message: { message_status: 'delivered', delivery_status_updated_at: expect.any(String), read_time: null, failed_time: null, failed_reason: '' } });
	});
	it('lists the templates of a number with spec fields and the token hidden', async () => {
		const reply = await call('/whatsapp/template/list', { phone_number_id: NUMBER });
		expect(reply.message).toHaveLength(4);
		expect(reply.message[0]).not.toHaveProperty('phone_number_id');
		expect(reply.message[0].template_json).not.toContain('access_token');
		expect(JSON.parse(reply.message[0].variable_map)).toEqual({ header: [], body: [{ position: 1, label: 'first_name' }, { position: 2, label: 'discount' }] });
	});
});
