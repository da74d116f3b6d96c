import { createHash } from 'node:crypto';
import { callMethod, runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { validParameters } from '../harness/operations';
import { addMessage, decideTemplate } from '../simulator/control';
import { byId, fromList, NUMBER, numberById, PHONE } from '../harness/params';

const fx = useSimulator({ seed: { subscribersPerNumber: 5 } });

describe('Template → Create', () => {
	const create = {
		resource: 'template',
		operation: 'create',
		phoneNumberId: numberById,
		name: 'summer_sale',
		language: 'en_US',
	};

	it('sends a standard template as JSON (token in body and Bearer) and outputs the created template', async () => {
		const { items, error } = await runNode({
			parameters: {
				...create,
				templateType: 'standard',
				category: 'UTILITY',
				bodyText: 'Hi #!first_name!#, your code is #CODE#',
				standardFields: {
					headerType: 'image',
					headerMediaUrl: 'https://cdn.example.com/h.jpg',
					footerText: 'Sunrise',
					buttons: {
						button: [
							{ type: 'quick_reply', text: 'Stop' },
							{ type: 'url', text: 'Open', url: 'https://example.com/#!id!#' },
							{ type: 'phone_number', text: 'Call', phone_number: '+1 555 0100 000' },
							{ type: 'copy_code', code: 'SAVE10' },
						],
					},
				},
			},
			credentials: fx.credentials,
		});
		expect(error).toBeUndefined();
		const [request] = fx.sim.requests;
		expect(request.contentType).toMatch(/^application\/json/);
		expect(request.tokenIn).toEqual(['body', 'bearer']);
		expect(request.body).toEqual({
			phone_number_id: NUMBER,
			name: 'summer_sale',
			category: 'UTILITY',
			language: 'en_US',
			template_type: 'mixed',
			body_text: 'Hi #!first_name!#, your code is #CODE#',
			header: { type: 'image', media_url: 'https://cdn.example.com/h.jpg' },
			footer_text: 'Sunrise',
			buttons: [
				{ type: 'quick_reply', text: 'Stop' },
				{ type: 'url', text: 'Open', url: 'https://example.com/#!id!#' },
				{ type: 'phone_number', text: 'Call', phone_number: '15550100000' },
				{ type: 'copy_code', code: 'SAVE10' },
			],
		});
		expect(items[0].json).toMatchObject({
			template_name: 'summer_sale',
			status: 'Submitted',
			category: 'UTILITY',
			variable_map: { body: { 1: '#!first_name!#', 2: '#CODE#' } },
		});
		// The new template is visible to Template Status and the list.
		const status = await runNode({
			parameters: {
				resource: 'template',
				operation: 'getStatus',
				phoneNumberId: numberById,
				templateId: byId(String(items[0].json.template_id)),
			},
			credentials: fx.credentials,
		});
		expect(status.items[0].json).toMatchObject({
			template_name: 'summer_sale',
			status: 'Submitted',
		});
		expect(fx.sim.requests[1]).toMatchObject({
			path: '/whatsapp/template/status',
			body: { phone_number_id: NUMBER, template_id: items[0].json.template_id },
		});
	});

	it('sends an authentication template and a carousel template in their shapes', async () => {
		await runNode({
			parameters: {
				...create,
				name: 'login_code',
				templateType: 'authentication',
				verificationCode: '#!otp!#',
				additionalFields: { addSecurityRecommendation: true, codeExpirationMinutes: 10 },
			},
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0].body).toEqual({
			phone_number_id: NUMBER,
			name: 'login_code',
			language: 'en_US',
			category: 'AUTHENTICATION',
			template_type: 'authentication',
			verification_code: '#!otp!#',
			add_security_recommendation: true,
			code_expiration_minutes: 10,
		});
		const { items } = await runNode({
			parameters: {
				...create,
				name: 'cake_cards',
				templateType: 'carousel',
				carouselType: 'carousel',
				bubbleBodyText: 'Our cakes',
				cards: {
					card: [
						{
							media_type: 'image',
							media_url: 'https://cdn.example.com/c.jpg',
							body_text: 'Choco #!price!#',
							buttons: '[{"type":"quick_reply","text":"Buy"}]',
						},
					],
				},
			},
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[1].body).toMatchObject({
			category: 'MARKETING',
			template_type: 'carousel',
			bubble_body_text: 'Our cakes',
			cards: [
				{
					media_type: 'image',
					media_url: 'https://cdn.example.com/c.jpg',
					body_text: 'Choco #!price!#',
					buttons: [{ type: 'quick_reply', text: 'Buy' }],
				},
			],
		});
		expect(items[0].json).toMatchObject({
			status: 'Submitted',
			variable_map: { cards: [{ body: { 1: '#!price!#' } }] },
		});
	});

	it('returns the spec failure texts: name exists, carousel module limit', async () => {
		const exists = await runNode({
			parameters: { ...create, name: 'welcome_offer', templateType: 'standard', bodyText: 'x' },
			credentials: fx.credentials,
		});
		expect(exists.error?.message).toBe('WhatsApp template name already exists.');
		fx.sim.state.carouselLimit = 0;
		const limit = await runNode({
			parameters: {
				...create,
				templateType: 'carousel',
				bubbleBodyText: 'x',
				cards: {
					card: [
						{
							media_type: 'image',
							media_url: 'https://cdn.example.com/c.jpg',
							body_text: 'b',
							buttons: '[]',
						},
					],
				},
			},
			credentials: fx.credentials,
		});
		expect(limit.error?.message).toBe('WhatsApp Carousel module limit has been exceeded.');
	});

	const card = {
		media_type: 'image',
		media_url: 'https://cdn.example.com/c.jpg',
		body_text: 'b',
		buttons: '[]',
	};
	it.each([
		[
			'a name with capitals',
			{ templateType: 'standard', name: 'Summer_Sale', bodyText: 'x' },
			/^Name must be lowercase letters and underscores only/,
		],
		[
			'11 carousel cards',
			{ templateType: 'carousel', bubbleBodyText: 'x', cards: { card: Array(11).fill(card) } },
			/^Cards must have 1 to 10 cards/,
		],
		[
			'0 carousel cards',
			{ templateType: 'carousel', bubbleBodyText: 'x', cards: {} },
			/^Cards must have 1 to 10 cards/,
		],
		[
			'expiration 0',
			{
				templateType: 'authentication',
				verificationCode: '#!otp!#',
				additionalFields: { codeExpirationMinutes: 0 },
			},
			/^Code Expiration Minutes must be between 1 and 90/,
		],
		[
			'expiration 91',
			{
				templateType: 'authentication',
				verificationCode: '#!otp!#',
				additionalFields: { codeExpirationMinutes: 91 },
			},
			/^Code Expiration Minutes must be between 1 and 90/,
		],
		[
			'card buttons that are not JSON',
			{
				templateType: 'carousel',
				bubbleBodyText: 'x',
				cards: { card: [{ ...card, buttons: '[{' }] },
			},
			/Buttons \(JSON\) must be a JSON array/,
		],
		[
			'an empty verification code',
			{ templateType: 'authentication', verificationCode: '={{ "" }}' },
			/^Verification Code is required/,
		],
	])('refuses %s before sending', async (_name, extra, message) => {
		const { error } = await runNode({
			parameters: { ...create, ...extra },
			credentials: fx.credentials,
		});
		expect(error?.message).toMatch(message);
		expect(fx.sim.requests).toHaveLength(0);
	});
});

describe('Template → Get Many, Get Status, Send Broadcast', () => {
	it('lists templates with JSON fields decoded (or kept as text)', async () => {
		const { items } = await runNode({
			parameters: { resource: 'template', operation: 'getMany', phoneNumberId: numberById },
			credentials: fx.credentials,
		});
		expect(items).toHaveLength(4);
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/template/list',
			body: { phone_number_id: NUMBER },
		});
		expect(items[0].json).toMatchObject({
			template_name: 'welcome_offer',
			variable_map: {
				header: [],
				body: [
					{ position: 1, label: 'first_name' },
					{ position: 2, label: 'discount' },
				],
			},
			button_content: [{ type: 'quick_reply', text: 'Stop' }],
		});
		expect(items[0].json.template_json).toMatchObject({ name: 'welcome_offer' });
		const raw = await runNode({
			parameters: {
				resource: 'template',
				operation: 'getMany',
				phoneNumberId: numberById,
				options: { decodeJsonFields: false },
			},
			credentials: fx.credentials,
		});
		expect(typeof raw.items[0].json.variable_map).toBe('string');
	});

	it('reads the live approval status from data', async () => {
		const id = String(
			fx.sim.state.templates.find(
				(entry) => entry.template_name === 'promo_es' && entry.phone_number_id === NUMBER,
			)!.template_id,
		);
		decideTemplate(fx.sim.state, { template_id: id, status: 'APPROVED' });
		const { items } = await runNode({
			parameters: {
				resource: 'template',
				operation: 'getStatus',
				phoneNumberId: numberById,
				templateId: fromList(id),
			},
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0].contentType).toMatch(/application\/json/);
		expect(items[0].json).toEqual({
			template_id: id,
			template_name: 'promo_es',
			status: 'APPROVED',
			category: 'MARKETING',
			language: 'es',
			quality_score: { score: 'GREEN' },
			rejected_reason: null,
		});
	});

	it('sends a broadcast with flow_data as JSON text', async () => {
		const { items } = await runNode({
			parameters: {
				resource: 'template',
				operation: 'sendBroadcast',
				phoneNumberId: numberById,
				flowData: '{"template_id":"900000","labels":[31]}',
			},
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/broadcast/template/send',
			body: { phone_number_id: NUMBER, flow_data: '{"template_id":"900000","labels":[31]}' },
		});
		expect(items[0].json).toEqual({
			success: true,
			visual_flow_campaign_id: expect.any(Number),
			message: 'Data has been saved successfully.',
			redirect_on_success_url: expect.any(String),
			// flow_data's template_id names the template: its category from the template list.
			message_kind: 'template',
			template_category: 'marketing',
		});
	});

	it('refuses flow data that is not JSON, and reports the subscriber-limit text', async () => {
		const bad = await runNode({
			parameters: {
				resource: 'template',
				operation: 'sendBroadcast',
				phoneNumberId: numberById,
				flowData: '{"a":',
			},
			credentials: fx.credentials,
		});
		expect(bad.error?.message).toBe('Flow Data must be valid JSON (an object or an array)');
		expect(fx.sim.requests).toHaveLength(0);
		fx.sim.state.subscriberLimit = 1;
		const limit = await runNode({
			parameters: {
				resource: 'template',
				operation: 'sendBroadcast',
				phoneNumberId: numberById,
				flowData: '{"template_id":"900000"}',
			},
			credentials: fx.credentials,
		});
		expect(limit.error?.message).toBe(
			'Subscriber limit has been exceeded. You cannot have more subscribers.',
		);
	});
});

describe('Media → Upload', () => {
	const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 255, 254]);
	it('uploads the binary property as multipart media_file and outputs media_id, media_type, media_name', async () => {
		const { items, error } = await runNode({
			parameters: {
				resource: 'media',
				operation: 'upload',
				phoneNumberId: numberById,
				binaryPropertyName: 'data',
			},
			credentials: fx.credentials,
			items: [
				{
					json: {},
					binary: { data: { data: bytes, mimeType: 'image/png', fileName: 'logo.png' } },
				},
			],
		});
		expect(error).toBeUndefined();
		const [request] = fx.sim.requests;
		expect(request).toMatchObject({
			path: '/whatsapp/upload/media',
			body: { phone_number_id: NUMBER },
		});
		expect(request.files.media_file.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
		expect(items[0].json).toEqual({
			success: true,
			media_id: fx.sim.state.media[0].media_id,
			media_type: 'image',
			media_name: 'logo.png',
			message:
				'Media has been uploaded successfully. Use the media_id, media_type and media_name with the send file endpoint.',
		});
	});
	it('names the missing binary property and sends nothing', async () => {
		const { error } = await runNode({
			parameters: {
				resource: 'media',
				operation: 'upload',
				phoneNumberId: numberById,
				binaryPropertyName: 'file',
			},
			credentials: fx.credentials,
		});
		expect(error?.message).toBe('The input item has no binary property "file"');
		expect(fx.sim.requests).toHaveLength(0);
	});
});

describe('Message → Get Many, Get Status', () => {
	it('pages the conversation 50 at a time, newest first, with message_content decoded', async () => {
		for (let index = 0; index < 60; index++)
			addMessage(fx.sim.state, { phone_number_id: NUMBER, phone_number: PHONE, text: `m${index}` });
		const { items } = await runNode({
			parameters: {
				resource: 'message',
				operation: 'getMany',
				phoneNumberId: numberById,
				phoneNumber: PHONE,
				returnAll: true,
			},
			credentials: fx.credentials,
		});
		expect(items).toHaveLength(63);
		expect(fx.sim.requests.map((request) => request.body)).toEqual([
			{ phone_number_id: NUMBER, phone_number: PHONE, limit: '50', offset: '1' },
			{ phone_number_id: NUMBER, phone_number: PHONE, limit: '50', offset: '2' },
		]);
		expect(items[0].json.message_content).toEqual({ type: 'text', text: { body: 'm59' } });
		const limited = await runNode({
			parameters: {
				resource: 'message',
				operation: 'getMany',
				phoneNumberId: numberById,
				phoneNumber: PHONE,
				returnAll: false,
				limit: 5,
			},
			credentials: fx.credentials,
		});
		expect(limited.items).toHaveLength(5);
	});

	it('sends one request without pagination parameters in the earlier form', async () => {
		// The simulator implements the current form, where limit is required; only the request shape is checked here.
		await runNode({
			parameters: {
				resource: 'message',
				operation: 'getMany',
				phoneNumberId: numberById,
				phoneNumber: PHONE,
				returnAll: false,
				limit: 2,
			},
			credentials: { ...fx.credentials, apiForm: 'earlier' },
		});
		expect(fx.sim.requests).toHaveLength(1);
		expect(fx.sim.requests[0].body).toEqual({ phone_number_id: NUMBER, phone_number: PHONE });
	});

	it('gets a message status by wa_message_id', async () => {
		const sent = await runNode({
			parameters: {
				resource: 'message',
				operation: 'sendText',
				phoneNumberId: numberById,
				phoneNumber: PHONE,
				message: 'hi',
			},
			credentials: fx.credentials,
		});
		const { items } = await runNode({
			parameters: {
				resource: 'message',
				operation: 'getStatus',
				waMessageId: String(sent.items[0].json.wa_message_id),
			},
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[1]).toMatchObject({
			path: '/whatsapp/get/message-status',
			body: { wa_message_id: sent.items[0].json.wa_message_id },
		});
		expect(items[0].json).toMatchObject({
			message_status: 'sent',
			read_time: null,
			failed_time: null,
		});
	});
});

describe('Account, Post-Back, Bot Flow, AI', () => {
	it('connects an account without echoing the access token', async () => {
		const { items } = await runNode({
			parameters: validParameters('account', 'connect'),
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/account/connect',
			body: { user_id: '101', whatsapp_business_account_id: '2099', access_token: 'EAAG-secret' },
		});
		expect(items[0].json).toEqual({
			success: true,
			message: 'Whatsapp account has been connect successfully.',
		});
	});

	it('lists post-backs with template_jsoncode decoded', async () => {
		const { items } = await runNode({
			parameters: { resource: 'postBack', operation: 'getMany', phoneNumberId: numberById },
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/get/post-back-list',
			body: { phone_number_id: NUMBER },
		});
		expect(items).toHaveLength(2);
		expect(items[0].json.template_jsoncode).toEqual([{ type: 'text', text: 'Welcome!' }]);
	});

	it('lists bot flows and triggers one chosen from the list', async () => {
		const search = (await callMethod('listSearch', 'searchBotFlows', {
			credentials: fx.credentials,
			parameters: { resource: 'botFlow', operation: 'trigger', phoneNumberId: numberById },
		})) as { results: Array<{ name: string; value: string }> };
		expect(search.results).toEqual([
			{ name: 'Welcome flow', value: 'flow_0_0_a1b2c3' },
			{ name: 'Order tracking', value: 'flow_0_1_a1b2c3' },
		]);
		const list = await runNode({
			parameters: { resource: 'botFlow', operation: 'getMany', phoneNumberId: numberById },
			credentials: fx.credentials,
		});
		expect(list.items.map((item) => item.json.unique_id)).toEqual([
			'flow_0_0_a1b2c3',
			'flow_0_1_a1b2c3',
		]);
		fx.sim.clearRequests();
		const { items } = await runNode({
			parameters: {
				resource: 'botFlow',
				operation: 'trigger',
				phoneNumberId: numberById,
				botFlowUniqueId: fromList('flow_0_0_a1b2c3'),
				phoneNumber: '+1 555 010 0000',
			},
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/trigger-bot',
			body: { phone_number_id: NUMBER, bot_flow_unique_id: 'flow_0_0_a1b2c3', phone_number: PHONE },
		});
		expect(items[0].json).toEqual({
			success: true,
			message: 'Bot has been trigger successfully.',
			phone_number: '15550100000',
		});
	});

	it('sends AI param as JSON text and confirms the boolean success', async () => {
		const { items } = await runNode({
			parameters: validParameters('ai', 'getResponse'),
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/ai/get_response',
			body: { param: '{"prompt":"Summarise"}' },
		});
		expect(items[0].json).toEqual({ success: true });
		const bad = await runNode({
			parameters: { resource: 'ai', operation: 'getResponse', param: 'not json' },
			credentials: fx.credentials,
		});
		expect(bad.error?.message).toBe('Prompt Data must be valid JSON (an object or an array)');
		expect(fx.sim.requests).toHaveLength(1);
	});

	it('AI Get Response run unedited (default {}) sends nothing and asks for the prompt data', async () => {
		const { error } = await runNode({
			parameters: { resource: 'ai', operation: 'getResponse' },
			credentials: fx.credentials,
		});
		expect(error?.message).toMatch(/^Prompt Data must not be empty/);
		expect(fx.sim.requests).toHaveLength(0);
	});
});
