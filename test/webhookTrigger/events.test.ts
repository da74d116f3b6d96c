/**
 * The webhook trigger in n8n-core's WebhookContext: each event's mapping from the platform's flat body
 * (../shared/spec/webhooks.md) to the item, the event choice, the secret and the body checks.
 */
import type { INodeParameters } from 'n8n-workflow';
import { BotSailorWebhookTrigger } from '../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node';
import { WebhookRunner } from './webhookHarness';
import { NUMBER, numberById } from '../harness/params';

function runner(parameters: INodeParameters = {}) {
	return new WebhookRunner({
		webhookType: new BotSailorWebhookTrigger(),
		parameters: { event: 'incomingMessage', phoneNumberId: numberById, ...parameters },
	});
}

/** Bodies as integrators saw them (fields from the spec); the ids are made up. */
const BODIES = {
	incoming: {
		chat_id: '15550100007',
		user_message: 'price',
		subscriber_id: '15550100007-11',
		wa_message_id: 'wamid.HBgLMTU1NTAxMDAwMDcVAgASGBQzQTdBRjQ1',
		first_name: 'Ava',
		whatsapp_bot_id: 11,
		whatsapp_bot_name: 'Sunrise Bakery',
		whatsapp_bot_username: 'sunrisebakery',
		label_names: 'VIP',
		custom_fields: { city: 'Paris' },
	},
	status: {
		webhook_type: 'message_status_change',
		message_status: 'read',
		status_time: '2026-11-20 10:15:02',
		failed_reason: '',
		wa_message_id: 'wamid.OUT1',
		chat_id: '15550100007',
	},
	failed: {
		webhook_type: 'message_status_change',
		message_status: 'failed',
		status_time: '2026-11-20 10:15:03',
		failed_reason: '(#131047) Re-engagement message',
	},
	conversation: {
		event: 'conversation.resolved',
		action: 'resolved',
		agent_name: 'Alex Agent',
		changed_at: '2026-11-20 10:20:00',
		chat_id: '15550100007',
	},
	flow: {
		first_name: 'Ava',
		chat_id: '15550100007',
		postbackid: '',
		user_input_data: [],
		user_message: 'I want a cake',
		whatsapp_bot_username: 'sunrisebakery',
	},
};

describe('Incoming Message', () => {
	it('outputs the polling New Message fields from the flat body, the raw body under webhook_body', async () => {
		const answer = await runner().deliver({ body: BODIES.incoming });
		expect(answer.status).toBe(200);
		expect(answer.started).toHaveLength(1);
		expect(answer.started![0].json).toEqual({
			id: null,
			whatsapp_bot_subscriber_subscriber_id: '15550100007',
			whatsapp_bot_id: 11,
			sender: 'user',
			agent_name: null,
			message_content: null,
			conversation_time: null,
			wa_message_id: 'wamid.HBgLMTU1NTAxMDAwMDcVAgASGBQzQTdBRjQ1',
			reaction_data: null,
			message_status: null,
			delivery_status_updated_at: null,
			failed_reason: '',
			text: 'price',
			message_type: 'text',
			direction: 'incoming',
			phone_number: '15550100007',
			subscriber_name: 'Ava',
			subscriber_id: '15550100007-11',
			phone_number_id: NUMBER,
			event_type: 'incomingMessage',
			webhook_body: BODIES.incoming,
		});
	});

	it('reads form-encoded bodies the same way (numbers arrive as text)', async () => {
		const form = Object.fromEntries(
			Object.entries(BODIES.incoming).map(([key, value]) => [
				key,
				typeof value === 'string' ? value : JSON.stringify(value),
			]),
		);
		const answer = await runner().deliver({
			body: form,
			contentType: 'application/x-www-form-urlencoded',
			raw: Buffer.from(new URLSearchParams(form).toString()),
		});
		expect(answer.started![0].json).toEqual(
			expect.objectContaining({
				whatsapp_bot_id: 11,
				text: 'price',
				phone_number: '15550100007',
				direction: 'incoming',
			}),
		);
	});

	it('reads multipart form fields', async () => {
		const answer = await runner().deliver({
			body: {
				data: { chat_id: '15550100007', user_message: 'hi', wa_message_id: 'wamid.MP1' },
				files: {},
			},
			contentType: 'multipart/form-data',
		});
		expect(answer.started![0].json).toEqual(
			expect.objectContaining({ text: 'hi', wa_message_id: 'wamid.MP1' }),
		);
	});

	it('turns the media placeholder into message_type, caption and text', async () => {
		const answer = await runner().deliver({
			body: {
				...BODIES.incoming,
				wa_message_id: 'wamid.MEDIA1',
				user_message: '#ATTACHMENT:Photo# Is this cake available?',
			},
		});
		expect(answer.started![0].json).toEqual(
			expect.objectContaining({
				message_type: 'image',
				caption: 'Is this cake available?',
				text: 'Is this cake available?',
			}),
		);
		const bare = await runner().deliver({
			body: {
				...BODIES.incoming,
				wa_message_id: 'wamid.MEDIA2',
				user_message: '#ATTACHMENT:Document#',
			},
		});
		expect(bare.started![0].json).toEqual(
			expect.objectContaining({ message_type: 'document', text: '' }),
		);
		expect(bare.started![0].json).not.toHaveProperty('caption');
	});

	it('answers other events 200 and starts nothing', async () => {
		const trigger = runner();
		for (const body of [BODIES.status, BODIES.conversation, BODIES.flow]) {
			const answer = await trigger.deliver({ body });
			expect(answer).toEqual({
				status: 200,
				body: expect.objectContaining({ received: true, started: false }),
			});
		}
		// The outgoing-message webhook carries no text: not an incoming message.
		expect(
			(
				await trigger.deliver({
					body: { chat_id: '15550100007', wa_message_id: 'wamid.OUT9', whatsapp_bot_id: 11 },
				})
			).started,
		).toBeUndefined();
		expect(trigger.executions).toHaveLength(0);
	});
});

describe('Message Status Changed', () => {
	it('outputs the polling status item fields from the status report', async () => {
		const answer = await runner({ event: 'messageStatusChanged' }).deliver({ body: BODIES.status });
		expect(answer.started![0].json).toEqual({
			id: null,
			whatsapp_bot_subscriber_subscriber_id: '15550100007',
			whatsapp_bot_id: null,
			sender: null,
			agent_name: null,
			message_content: null,
			conversation_time: null,
			wa_message_id: 'wamid.OUT1',
			reaction_data: null,
			message_status: 'read',
			delivery_status_updated_at: '2026-11-20 10:15:02',
			text: '',
			message_type: '',
			direction: 'outgoing',
			phone_number: '15550100007',
			subscriber_name: '',
			subscriber_id: null,
			phone_number_id: NUMBER,
			previous_status: null,
			event_type: 'messageStatusChanged',
			webhook_body: BODIES.status,
		});
	});

	it('keeps failed_reason for failures only, and starts only for the chosen statuses', async () => {
		const trigger = runner({ event: 'messageStatusChanged', statuses: ['failed'] });
		const failed = await trigger.deliver({ body: BODIES.failed });
		expect(failed.started![0].json).toEqual(
			expect.objectContaining({
				message_status: 'failed',
				failed_reason: '(#131047) Re-engagement message',
				wa_message_id: null,
			}),
		);
		const read = await trigger.deliver({ body: BODIES.status });
		expect(read).toEqual({
			status: 200,
			body: expect.objectContaining({ started: false, reason: expect.stringContaining('read') }),
		});
	});
});

describe('Conversation Status Changed', () => {
	it('outputs the action, who and when', async () => {
		const answer = await runner({ event: 'conversationStatusChanged' }).deliver({
			body: BODIES.conversation,
		});
		expect(answer.started![0].json).toEqual({
			action: 'resolved',
			conversation_event: 'conversation.resolved',
			agent_name: 'Alex Agent',
			changed_at: '2026-11-20 10:20:00',
			phone_number: '15550100007',
			subscriber_name: '',
			subscriber_id: null,
			phone_number_id: NUMBER,
			event_type: 'conversationStatusChanged',
			webhook_body: BODIES.conversation,
		});
	});

	it('reads the action from the event name when there is no action field', async () => {
		const answer = await runner({ event: 'conversationStatusChanged' }).deliver({
			body: { event: 'conversation.archived', changed_at: '2026-11-20 10:21:00' },
		});
		expect(answer.started![0].json).toEqual(expect.objectContaining({ action: 'archived' }));
	});
});

describe('Flow Data', () => {
	it("outputs the flow step's data, user_input_data decoded from form text", async () => {
		const answer = await runner({ event: 'flowData' }).deliver({ body: BODIES.flow });
		expect(answer.started![0].json).toEqual({
			text: 'I want a cake',
			postback_id: '',
			user_input_data: [],
			phone_number: '15550100007',
			subscriber_name: 'Ava',
			whatsapp_bot_username: 'sunrisebakery',
			phone_number_id: NUMBER,
			event_type: 'flowData',
			webhook_body: BODIES.flow,
		});
		const form = await runner({ event: 'flowData' }).deliver({
			body: { ...BODIES.flow, user_input_data: '{"size":"L"}' },
			contentType: 'application/x-www-form-urlencoded',
		});
		expect(form.started![0].json.user_input_data).toEqual({ size: 'L' });
	});
});

describe('Any Event', () => {
	it('starts for every kind, each item saying which', async () => {
		const trigger = runner({ event: 'anyEvent' });
		for (const body of [
			BODIES.incoming,
			BODIES.status,
			BODIES.conversation,
			BODIES.flow,
			{ something: 'else' },
		])
			await trigger.deliver({ body });
		expect(trigger.started().map((item) => item.event_type)).toEqual([
			'incomingMessage',
			'messageStatusChanged',
			'conversationStatusChanged',
			'flowData',
			'unknown',
		]);
	});
});

describe('the Secret', () => {
	const secret = 's3cr3t-Value';

	it('answers 401 without starting anything when the URL has no secret or a wrong one', async () => {
		const trigger = runner({ secret });
		expect(await trigger.deliver({ body: BODIES.incoming })).toEqual({
			status: 401,
			body: { received: false, error: expect.stringContaining('no secret') },
		});
		expect(await trigger.deliver({ body: BODIES.incoming, query: { secret: 'guess' } })).toEqual({
			status: 401,
			body: { received: false, error: 'The secret in the URL is wrong' },
		});
		expect(
			await trigger.deliver({ body: BODIES.incoming, query: { secret: `${secret}x` } }),
		).toEqual(expect.objectContaining({ status: 401 }));
		expect(trigger.executions).toHaveLength(0);
		// Nothing was remembered either: the right delivery afterwards starts the workflow.
		expect(
			(await trigger.deliver({ body: BODIES.incoming, query: { secret } })).started,
		).toHaveLength(1);
	});

	it('is checked before the body, and never appears in the output', async () => {
		const trigger = runner({ secret });
		expect(
			(await trigger.deliver({ body: 'not an object', contentType: 'text/plain' })).status,
		).toBe(401);
		const answer = await trigger.deliver({ body: BODIES.incoming, query: { secret } });
		expect(JSON.stringify(answer.started)).not.toContain(secret);
	});
});

describe('body checks', () => {
	it('refuses what is not JSON or form data with 415', async () => {
		const answer = await runner().deliver({ body: 'price', contentType: 'text/plain' });
		expect(answer).toEqual({
			status: 415,
			body: { received: false, error: expect.stringContaining('JSON or form data') },
		});
	});

	it('refuses a body larger than 256 KB with 413', async () => {
		const big = { ...BODIES.incoming, user_message: 'x'.repeat(300 * 1024) };
		expect((await runner().deliver({ body: big })).status).toBe(413);
	});

	it('refuses a JSON array, a JSON string and an empty body with 400', async () => {
		const trigger = runner();
		expect((await trigger.deliver({ body: [BODIES.incoming] })).status).toBe(400);
		expect((await trigger.deliver({ body: 'text' })).status).toBe(400);
		expect(await trigger.deliver({ body: {} })).toEqual({
			status: 400,
			body: { received: false, error: 'The body is empty' },
		});
		expect(trigger.executions).toHaveLength(0);
	});
});

describe('the webhook methods', () => {
	it('register nothing anywhere: create loads the duplicate memory (checkExists: loaded in this process), delete saves and releases it', async () => {
		const trigger = runner();
		expect(await trigger.hook('checkExists')).toBe(false);
		await trigger.activate();
		expect(trigger.saved.global).toEqual({ botSailorDeliveries: '' });
		expect(await trigger.hook('checkExists')).toBe(true);
		await trigger.deliver({ body: BODIES.incoming });
		await trigger.deactivate();
		expect(await trigger.hook('checkExists')).toBe(false);
		// Kept for the next activation, marked released (a poll after an update in place waits for no webhook trigger).
		expect(
			String((trigger.saved.global as Record<string, string>).botSailorDeliveries).split(' '),
		).toEqual(['released', expect.stringMatching(/^[\w-]{22}:\d+$/)]);
	});

	it('leave the memory alone while the editor listens (Test URL)', async () => {
		const trigger = runner();
		expect(await trigger.hook('checkExists', 'manual')).toBe(false);
		expect(await trigger.hook('create', 'manual')).toBe(true);
		expect(await trigger.hook('delete', 'manual')).toBe(true);
		expect(trigger.saved).toEqual({});
	});
});

describe('the setup notice', () => {
	const properties = new BotSailorWebhookTrigger().description.properties;
	it.each([
		['incomingMessage', 'Bot Settings → Webhook', 'Incoming Message'],
		['messageStatusChanged', 'Bot Settings → Webhook', 'Message Status'],
		['conversationStatusChanged', 'Bot Settings → Webhook', 'Conversation Status'],
		['flowData', 'Forward Data to Webhook', 'bot flow'],
		['anyEvent', 'Bot Settings → Webhook', 'event_type'],
	])(
		'for %s says where the URL goes, to publish, and what the Test URL does',
		(event, place, field) => {
			const notices = properties.filter(
				(property) =>
					property.type === 'notice' && property.displayOptions?.show?.event?.includes(event),
			);
			expect(notices).toHaveLength(1);
			const text = notices[0].displayName;
			for (const expected of [
				'Production URL',
				'?secret=',
				place,
				field,
				'Publish (activate) this workflow',
				'Test URL',
			])
				expect(text).toContain(expected);
		},
	);
});

describe('the panel a first-timer sees', () => {
	const { description } = new BotSailorWebhookTrigger();
	const property = (name: string) => description.properties.find((entry) => entry.name === name)!;

	it('WhatsApp Number starts in From List, as on the action node, and is optional (an empty required field greys out Test this trigger; the browser check proves it in the editor)', () => {
		expect(property('phoneNumberId').default).toEqual({ mode: 'list', value: '' });
		expect(property('phoneNumberId').required).toBe(false);
	});

	it('every setup notice recommends the Secret, says what a URL without one lets anyone do, that the platform must reach the URL, and which URL goes where', () => {
		const notices = description.properties.filter(
			(entry) => entry.type === 'notice' && entry.name.startsWith('setupNotice_'),
		);
		expect(notices.map((notice) => notice.name).sort()).toEqual(
			[
				'anyEvent',
				'conversationStatusChanged',
				'flowData',
				'incomingMessage',
				'messageStatusChanged',
				'outgoingMessage',
			].map((event) => `setupNotice_${event}`),
		);
		for (const notice of notices) {
			expect(notice.displayName).toContain('<b>Set a Secret</b>');
			expect(notice.displayName).toContain('anyone who learns the URL can start this workflow');
			expect(notice.displayName).toContain('WEBHOOK_URL');
			expect(notice.displayName).toContain('tunnel');
		}
		expect(property('setupNotice_outgoingMessage').displayName).toMatch(
			/ending in <code>\/outgoing<\/code>.*<b>Outgoing Message<\/b> field/,
		);
		expect(property('setupNotice_incomingMessage').displayName).toContain(
			'The Outgoing Message field takes the other URL',
		);
		expect(property('setupNotice_anyEvent').displayName).toMatch(
			/<code>\/webhook<\/code>.*<code>\/outgoing<\/code> into Outgoing Message/,
		);
	});

	it('two Production URLs: /webhook for every field but Outgoing Message, /outgoing for it', () => {
		expect(description.webhooks!.map((webhook) => [webhook.name, webhook.path])).toEqual([
			['default', 'webhook'],
			['setup', 'outgoing'],
		]);
	});
});

describe('bodies whatever their Content-Type', () => {
	const incoming = { chat_id: '15550100007', user_message: 'hi', wa_message_id: 'wamid.CT-1' };
	it.each([
		['text/plain', JSON.stringify(incoming)],
		['', JSON.stringify(incoming)],
		['application/octet-stream', new URLSearchParams(incoming).toString()],
		['text/html', JSON.stringify(incoming)],
	])('Content-Type "%s": read as JSON or form fields', async (contentType, raw) => {
		const answer = await new WebhookRunner({
			webhookType: new BotSailorWebhookTrigger(),
			parameters: { event: 'incomingMessage' },
		}).deliver({
			body: contentType === 'text/plain' ? raw : {},
			contentType,
			raw: Buffer.from(raw),
		});
		expect(answer.started![0].json).toMatchObject({ text: 'hi', wa_message_id: 'wamid.CT-1' });
	});

	it('a plain sentence is neither: 415 naming what was sent', async () => {
		const answer = await new WebhookRunner({
			webhookType: new BotSailorWebhookTrigger(),
			parameters: { event: 'incomingMessage' },
		}).deliver({ body: {}, contentType: 'application/octet-stream', raw: Buffer.from('hi there') });
		expect(answer).toEqual({
			status: 415,
			body: {
				received: false,
				error:
					'The body cannot be read as JSON or form data (Content-Type application/octet-stream); send the event as a JSON object or as form fields',
			},
		});
	});
});
