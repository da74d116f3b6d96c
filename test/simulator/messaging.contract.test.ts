import { useContractSimulator } from './contractClient';
import { NUMBER, PHONE } from '../harness/params';
import { callControl } from './control';

const { context, call } = useContractSimulator();

describe('conversation', () => {
	it('pages a subscriber conversation newest first with nextOffset, spec fields only (GET and POST)', async () => {
		const first = await call(
			'/whatsapp/get/conversation',
			{ phone_number_id: NUMBER, phone_number: PHONE, limit: '2' },
			'GET',
		);
		expect(first.status).toBe('1');
		expect(first.message).toHaveLength(2);
		expect(first.nextOffset).toBe(2);
		expect(Object.keys(first.message[0]).sort()).toEqual(
			[
				'agent_name',
				'conversation_time',
				'delivery_status_updated_at',
				'failed_reason',
				'id',
				'message_content',
				'message_status',
				'reaction_data',
				'sender',
				'wa_message_id',
				'whatsapp_bot_id',
				'whatsapp_bot_subscriber_subscriber_id',
			].sort(),
		);
		expect(first.message[0].conversation_time >= first.message[1].conversation_time).toBe(true);
		const second = await call('/whatsapp/get/conversation', {
			phone_number_id: NUMBER,
			phone_number: PHONE,
			limit: '2',
			offset: '2',
		});
		expect(second.message).toHaveLength(1);
		expect(second.nextOffset).toBeUndefined();
		expect(second.message[0].conversation_time <= first.message[1].conversation_time).toBe(true);
	});
	it('requires limit and caps it at 50', async () => {
		expect(
			await call('/whatsapp/get/conversation', { phone_number_id: NUMBER, phone_number: PHONE }),
		).toEqual({ status: '0', message: 'The limit field is required.' });
		expect(
			(
				await call('/whatsapp/get/conversation', {
					phone_number_id: NUMBER,
					phone_number: PHONE,
					limit: '51',
				})
			).status,
		).toBe('0');
	});
});

describe('message status and template list', () => {
	it('returns a message status object', async () => {
		const id = context.sim.state.messages.find((m) => m.sender === 'bot')!.wa_message_id;
		const reply = await call('/whatsapp/get/message-status', { wa_message_id: id }, 'GET');
		expect(reply).toEqual({
			status: '1',
			message: {
				message_status: 'delivered',
				delivery_status_updated_at: expect.any(String),
				read_time: null,
				failed_time: null,
				failed_reason: '',
			},
		});
	});
	it('lists the templates of a number with spec fields and the token hidden', async () => {
		const reply = await call('/whatsapp/template/list', { phone_number_id: NUMBER });
		expect(reply.message).toHaveLength(4);
		expect(reply.message[0]).not.toHaveProperty('phone_number_id');
		expect(reply.message[0].template_json).not.toContain('access_token');
		expect(JSON.parse(reply.message[0].variable_map)).toEqual({
			header: [],
			body: [
				{ position: 1, label: 'first_name' },
				{ position: 2, label: 'discount' },
			],
		});
	});
});

async function json(path: string, body: Record<string, unknown>) {
	const response = await fetch(`${context.sim.url}/api/v1${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${context.sim.token}` },
		body: JSON.stringify(body),
	});
	return (await response.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('sends', () => {
	it('send text answers wa_message_id and records an outgoing message (GET and POST)', async () => {
		for (const method of ['GET', 'POST'] as const) {
			const reply = await call(
				'/whatsapp/send',
				{ phone_number_id: NUMBER, phone_number: PHONE, message: 'Hi' },
				method,
			);
			expect(reply).toEqual({
				status: '1',
				wa_message_id: expect.stringMatching(/^wamid\./),
				message: 'Message sent successfully.',
			});
			expect(
				context.sim.state.messages.find((m) => m.wa_message_id === reply.wa_message_id),
			).toMatchObject({ sender: 'bot', message_status: 'sent' });
		}
	});
	it('refuses a new subscriber at the subscriber limit, not an existing one', async () => {
		context.sim.state.subscriberLimit = context.sim.state.subscribers.length;
		expect(
			await call('/whatsapp/send', {
				phone_number_id: NUMBER,
				phone_number: '4479000000',
				message: 'Hi',
			}),
		).toEqual({
			status: '0',
			message: 'Subscriber limit has been exceeded. You cannot have more subscribers.',
		});
		expect(
			(
				await call('/whatsapp/send', {
					phone_number_id: NUMBER,
					phone_number: PHONE,
					message: 'Hi',
				})
			).status,
		).toBe('1');
	});
	it('send template: variables checked against the map; unknown template text', async () => {
		const id = String(
			context.sim.state.templates.find(
				(t) => t.template_name === 'welcome_offer' && t.phone_number_id === NUMBER,
			)!.template_id,
		);
		expect(
			await call('/whatsapp/send/template', {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				template_id: id,
				'templateVariable-first_name-1': 'Ava',
			}),
		).toMatchObject({ status: '1', message: 'Template message has been sent successfully.' });
		expect(
			await call('/whatsapp/send/template', {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				template_id: id,
				'templateVariable-nope-9': 'x',
			}),
		).toEqual({ status: '0', message: 'Unknown parameter: templateVariable-nope-9.' });
		expect(
			await call('/whatsapp/send/template', {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				template_id: '1',
			}),
		).toEqual({ status: '0', message: 'Message template not found.' });
	});
	it('interactive buttons: count and media type texts', async () => {
		const base = { phone_number_id: NUMBER, phone_number: PHONE, message: 'Pick' };
		expect(
			(
				await call('/whatsapp/send/interactive-buttons', {
					...base,
					buttons: '["A",{"id":"b","title":"B"}]',
				})
			).status,
		).toBe('1');
		expect(await call('/whatsapp/send/interactive-buttons', { ...base, buttons: '[]' })).toEqual({
			status: '0',
			message: 'You can send between 1 and 3 reply buttons.',
		});
		expect(
			await call('/whatsapp/send/interactive-buttons', { ...base, buttons: '["A","B","C","D"]' }),
		).toEqual({ status: '0', message: 'You can send between 1 and 3 reply buttons.' });
		expect(
			await call('/whatsapp/send/interactive-buttons', {
				...base,
				buttons: '["A"]',
				media_id: '1',
				media_type: 'audio',
			}),
		).toEqual({
			status: '0',
			message:
				'When sending media with buttons, media_type must be one of: image, video, document.',
		});
		expect(
			await call('/whatsapp/send/interactive-buttons', {
				...base,
				buttons: '["A"]',
				media_url: 'https://x.example/a.mp3',
			}),
		).toEqual({
			status: '0',
			message:
				'When sending media with buttons, media_type must be one of: image, video, document.',
		});
	});
	it('upload (multipart, sha256 kept) then send file by id; URL type from extension; document needs a name', async () => {
		const form = new FormData();
		form.append('apiToken', context.sim.token);
		form.append('phone_number_id', NUMBER);
		form.append(
			'media_file',
			new Blob([Buffer.from('PDFDATA')], { type: 'application/pdf' }),
			'menu.pdf',
		);
		const upload = (await (
			await fetch(`${context.sim.url}/api/v1/whatsapp/upload/media`, { method: 'POST', body: form })
		).json()) as Record<string, string>;
		expect(upload).toEqual({
			status: '1',
			media_id: expect.any(String),
			media_type: 'document',
			media_name: 'menu.pdf',
			message: expect.stringContaining('send file'),
		});
		expect(context.sim.requests.at(-1)!.files.media_file).toMatchObject({
			name: 'menu.pdf',
			size: 7,
			sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
		});
		expect(
			(
				await call('/whatsapp/send/file', {
					phone_number_id: NUMBER,
					phone_number: PHONE,
					media_id: upload.media_id,
					media_type: 'document',
					media_name: 'menu.pdf',
				})
			).status,
		).toBe('1');
		expect(
			(
				await call('/whatsapp/send/file', {
					phone_number_id: NUMBER,
					phone_number: PHONE,
					media_url: 'https://x.example/c.png',
				})
			).status,
		).toBe('1');
		expect(
			(
				await call('/whatsapp/send/file', {
					phone_number_id: NUMBER,
					phone_number: PHONE,
					media_url: 'https://x.example/c.pdf',
				})
			).status,
		).toBe('0');
		expect((await call('/whatsapp/upload/media', { phone_number_id: NUMBER })).status).toBe('0');
	});
});

describe('templates', () => {
	it('create (JSON body) stores a Submitted template that status and the list show', async () => {
		const created = await json('/whatsapp/template/create', {
			phone_number_id: NUMBER,
			name: 'new_offer',
			category: 'MARKETING',
			body_text: 'Hi #!name!#',
		});
		expect(created).toEqual({
			status: '1',
			message: expect.stringContaining('approval'),
			data: {
				id: expect.any(Number),
				template_id: expect.any(String),
				template_name: 'new_offer',
				template_type: 'mixed',
				category: 'MARKETING',
				language: 'en_US',
				status: 'Submitted',
				variable_map: { body: { 1: '#!name!#' } },
			},
		});
		const status = await json('/whatsapp/template/status', {
			phone_number_id: NUMBER,
			template_id: created.data.template_id,
		});
		expect(status).toMatchObject({
			status: '1',
			message: 'Template status fetched successfully.',
			data: { template_name: 'new_offer', status: 'Submitted', quality_score: expect.any(Object) },
		});
		expect(
			(await call('/whatsapp/template/list', { phone_number_id: NUMBER })).message.map(
				(t: { template_name: string }) => t.template_name,
			),
		).toContain('new_offer');
	});
	it('create failure texts', async () => {
		expect(
			await json('/whatsapp/template/create', {
				phone_number_id: NUMBER,
				name: 'welcome_offer',
				category: 'MARKETING',
				body_text: 'x',
			}),
		).toEqual({ status: '0', message: 'WhatsApp template name already exists.' });
		expect(
			await json('/whatsapp/template/create', {
				phone_number_id: NUMBER,
				name: 'otp',
				category: 'AUTHENTICATION',
			}),
		).toEqual({ status: '0', message: 'Authentication template requires verification_code.' });
		context.sim.state.carouselLimit = 0;
		const card = {
			media_type: 'image',
			media_url: 'https://x.example/c.jpg',
			body_text: 'b',
			buttons: [],
		};
		expect(
			await json('/whatsapp/template/create', {
				phone_number_id: NUMBER,
				name: 'cards',
				category: 'MARKETING',
				template_type: 'carousel',
				bubble_body_text: 'x',
				cards: [card],
			}),
		).toEqual({ status: '0', message: 'WhatsApp Carousel module limit has been exceeded.' });
		expect(
			(
				await json('/whatsapp/template/create', {
					phone_number_id: NUMBER,
					name: 'Bad',
					category: 'MARKETING',
					body_text: 'x',
				})
			).status,
		).toBe('0');
		expect(
			(
				await json('/whatsapp/template/create', {
					phone_number_id: NUMBER,
					name: 'otp',
					category: 'AUTHENTICATION',
					verification_code: '#!c!#',
					code_expiration_minutes: 91,
				})
			).status,
		).toBe('0');
	});
	it('broadcast, bot flows, post-backs, AI, account connect', async () => {
		expect(
			await call('/whatsapp/broadcast/template/send', {
				phone_number_id: NUMBER,
				flow_data: '{"a":1}',
			}),
		).toEqual({
			status: '1',
			visual_flow_campaign_id: expect.any(Number),
			message: 'Data has been saved successfully.',
			redirect_on_success_url: expect.any(String),
		});
		expect(
			(await call('/whatsapp/broadcast/template/send', { phone_number_id: NUMBER, flow_data: '{' }))
				.status,
		).toBe('0');
		const flows = await call('/whatsapp/get/bot-flow-list', { phone_number_id: NUMBER }, 'GET');
		expect(flows.message[0]).toEqual({
			id: expect.any(Number),
			name: 'Welcome flow',
			unique_id: 'flow_0_0_a1b2c3',
			status: '1',
		});
		expect(
			await call('/whatsapp/trigger-bot', {
				phone_number_id: NUMBER,
				bot_flow_unique_id: 'flow_0_0_a1b2c3',
				phone_number: PHONE,
			}),
		).toEqual({ status: '1', message: 'Bot has been trigger successfully.' });
		expect(
			(await call('/whatsapp/get/post-back-list', { phone_number_id: NUMBER })).message[0],
		).not.toHaveProperty('phone_number_id');
		expect(await call('/ai/get_response', { param: '{"prompt":"x"}' })).toEqual({ status: true });
		expect(
			await call('/whatsapp/account/connect', {
				user_id: '101',
				whatsapp_business_account_id: '2099',
				access_token: 'EAAG',
			}),
		).toEqual({ status: '1', message: 'Whatsapp account has been connect successfully.' });
	});
});

describe('the 24-hour window (SPEC-GAP: sessionWindow, control actions window and clock)', () => {
	const control = (action: string, input: unknown = {}) => callControl(context.sim, action, input);

	it('refuses free-form sends to a subscriber whose last message is over 24 hours old; window moves it back', async () => {
		await control('deployment', { sessionWindow: 'enforced' });
		await control('clock', { time_zone: 'UTC' });
		await control('message', { phone_number_id: NUMBER, phone_number: PHONE, text: 'Hi' });
		const text = { phone_number_id: NUMBER, phone_number: PHONE, message: 'Hello' };
		expect((await call('/whatsapp/send', text)).status).toBe('1');

		const moved = (await control('window', {
			phone_number_id: NUMBER,
			phone_number: PHONE,
			hours_ago: 25,
		})) as { last_incoming_at: string };
		const conversation = await call('/whatsapp/get/conversation', {
			phone_number_id: NUMBER,
			phone_number: PHONE,
			limit: '50',
		});
		const ownLast = (conversation.message as Array<Record<string, string>>).find(
			(row) => row.sender === 'user',
		);
		expect(ownLast?.conversation_time).toBe(moved.last_incoming_at);
		const before = context.sim.state.messages.length;
		expect(await call('/whatsapp/send', text)).toEqual({
			status: '0',
			message:
				'Sending message outside 24 hour window is not allowed. You can only send template message to this user.',
		});
		expect(
			(
				await call('/whatsapp/send/file', {
					phone_number_id: NUMBER,
					phone_number: PHONE,
					media_url: 'https://example.com/menu.pdf',
					media_type: 'document',
				})
			).status,
		).toBe('0');
		expect(context.sim.state.messages.length).toBe(before);

		await control('window', { phone_number_id: NUMBER, phone_number: PHONE, hours_ago: 23 });
		expect((await call('/whatsapp/send', text)).status).toBe('1');
	});
});
