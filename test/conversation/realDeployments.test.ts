/**
 * What real deployments send in a conversation (issue 25), served by the simulator's SPEC-GAP deployment
 * variants (state.ts: conversationOrder, conversationListShape, incomingAsMetaWebhook,
 * templateSendsAsTemplate; panel events and other senders through control.ts addMessage), read through
 * n8n's engine by every reader of the one conversation reader (nodes/shared/conversation/conversation.ts): Message →
 * Get Many and Download Media, the polling trigger's New Message and Message Status Changed, the Webhook
 * Trigger's Fetch Full Message and Download Media.
 */
import type { IDataObject } from 'n8n-workflow';
import { BotSailorWebhookTrigger } from '../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node';
import { runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { addMessage, setMessageStatus } from '../simulator/control';
import { addMediaMessage } from '../simulator/media';
import type { ConversationMessage, SimState } from '../simulator/state';
import { numberParam, pollCounting, triggerPoller } from '../trigger/helpers';
import { WebhookRunner } from '../webhookTrigger/webhookHarness';
import { NUMBER, byId } from '../harness/params';

const fx = useSimulator({ seed: { subscribersPerNumber: 5, media: true } });
const PHONE = '15550177001';
const number = numberParam();

type Order = SimState['conversationOrder'];
type Shape = SimState['conversationListShape'];
const ORDERS: Order[] = ['newestFirst', 'oldestFirst'];
const SHAPES: Shape[] = ['array', 'jsonArray', 'jsonIndexed', 'jsonById'];

function deployment(order: Order, shape: Shape) {
	fx.sim.state.conversationOrder = order;
	fx.sim.state.conversationListShape = shape;
}

/** A conversation of `size` messages, customer and bot taking turns, oldest first. */
function conversation(size: number, phone = PHONE): ConversationMessage[] {
	return Array.from({ length: size }, (_, index) =>
		addMessage(fx.sim.state, {
			phone_number_id: NUMBER,
			phone_number: phone,
			text: `m${index}`,
			sender: index % 2 ? 'bot' : 'user',
		}),
	);
}

const conversationReads = () =>
	fx.sim.requests.filter((request) => request.path === '/whatsapp/get/conversation');

async function getMany(extra: IDataObject = {}, phone = PHONE) {
	return await runNode({
		parameters: {
			resource: 'message',
			operation: 'getMany',
			phoneNumberId: number,
			phoneNumber: phone,
			...extra,
		},
		credentials: fx.credentials,
	});
}

describe.each(SHAPES)('conversation list sent as %s', (shape) => {
	describe.each(ORDERS)('pages %s', (order) => {
		it.each([49, 50, 51, 500])(
			'Get Many: all %i messages newest first, each once; a limit reads only the newest pages',
			async (size) => {
				const messages = conversation(size);
				deployment(order, shape);
				const all = await getMany({ returnAll: true });
				expect(all.error).toBeUndefined();
				expect(all.items.map((item) => item.json.wa_message_id)).toEqual(
					[...messages].reverse().map((message) => message.wa_message_id),
				);
				// Never the raw text as a record, and the flat fields on every item.
				expect(all.items[0].json).toMatchObject({
					text: `m${size - 1}`,
					message_type: 'text',
					sender: (size - 1) % 2 ? 'bot' : 'user',
				});
				expect(all.items.every((item) => typeof item.json.message_content === 'object')).toBe(true);
				// The platform's times carry no zone (its server's local time): passed on as written, never as UTC.
				expect(all.items.map((item) => item.json.conversation_time)).toEqual(
					[...messages].reverse().map((message) => message.conversation_time),
				);
				expect(String(all.items[0].json.conversation_time)).toMatch(
					/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/,
				);

				fx.sim.requests.splice(0);
				const newest = await getMany({ returnAll: false, limit: 3 });
				expect(newest.items.map((item) => item.json.text)).toEqual(
					[1, 2, 3].map((back) => `m${size - back}`),
				);
				const pages = Math.ceil(size / 50);
				// Newest first: page 1 (and page 2 when page 1 shows no order, as rows keyed by id do); oldest first: the last page found by doubling and bisection.
				expect(conversationReads().length).toBeLessThanOrEqual(
					order === 'newestFirst' ? 2 : Math.min(pages + 1, 2 + 2 * Math.ceil(Math.log2(pages))),
				);
			},
		);
	});
});

describe.each(ORDERS)('pages %s: the readers that look a message up', (order) => {
	it.each([49, 50, 51, 500].flatMap((size) => SHAPES.map((shape) => [size, shape] as const)))(
		'Message → Download Media by ID finds the oldest message of %i (a photo), with the list sent as %s',
		async (size, shape) => {
			const photo = addMediaMessage(fx.sim.state, {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				type: 'image',
				mime_type: 'image/jpeg',
				bytes: Buffer.alloc(2048, 7),
				caption: 'the first one',
			});
			conversation(size - 1);
			deployment(order, shape);
			const { items, error } = await runNode({
				parameters: {
					resource: 'message',
					operation: 'downloadMedia',
					messageSource: 'id',
					phoneNumberId: number,
					phoneNumber: PHONE,
					messageId: photo.wa_message_id,
				},
				credentials: fx.credentials,
			});
			expect(error).toBeUndefined();
			expect(items[0].json.wa_message_id).toBe(photo.wa_message_id);
			expect(items[0].binary!.data).toMatchObject({ mimeType: 'image/jpeg', bytes: 2048 });
		},
	);

	it.each([51, 500])(
		'Webhook Trigger Download Media attaches a photo at the end of a conversation of %i (list as JSON text keyed by id)',
		async (size) => {
			conversation(size - 1);
			deployment(order, 'jsonById');
			const photo = addMediaMessage(fx.sim.state, {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				type: 'image',
				mime_type: 'image/jpeg',
				bytes: Buffer.alloc(1024, 3),
				caption: 'the newest',
			});
			const runner = new WebhookRunner({
				webhookType: new BotSailorWebhookTrigger(),
				parameters: { event: 'incomingMessage', phoneNumberId: number, downloadMedia: true },
				credentials: fx.credentials,
			});
			await runner.activate();
			const answer = await runner.deliver({
				body: {
					chat_id: PHONE,
					user_message: '#ATTACHMENT:Photo# the newest',
					wa_message_id: photo.wa_message_id,
					whatsapp_bot_id: photo.whatsapp_bot_id,
				},
			});
			const [started] = answer.started!;
			expect(started.json).not.toHaveProperty('media_download_error');
			expect(started.binary!.data).toMatchObject({ mimeType: 'image/jpeg', bytes: 1024 });
		},
	);

	it.each([49, 50, 51, 500])(
		'Webhook Trigger Fetch Full Message finds a new message at the end of a conversation of %i (list as JSON text), reading no more than it needs',
		async (size) => {
			conversation(size - 1);
			deployment(order, 'jsonArray');
			const fresh = addMessage(fx.sim.state, {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				text: 'the newest',
			});
			const runner = new WebhookRunner({
				webhookType: new BotSailorWebhookTrigger(),
				parameters: { event: 'incomingMessage', phoneNumberId: number, fetchFullMessage: true },
				credentials: fx.credentials,
			});
			await runner.activate();
			fx.sim.requests.splice(0);
			const answer = await runner.deliver({
				body: {
					chat_id: PHONE,
					user_message: 'the newest',
					wa_message_id: fresh.wa_message_id,
					whatsapp_bot_id: fresh.whatsapp_bot_id,
				},
			});
			const item = answer.started![0].json;
			expect(item).not.toHaveProperty('full_message_error');
			expect(item).toMatchObject({ id: fresh.id, text: 'the newest', sender: 'user' });
			const pages = Math.ceil(size / 50);
			expect(conversationReads().length).toBeLessThanOrEqual(
				order === 'newestFirst' ? 1 : Math.min(pages + 1, 2 + 2 * Math.ceil(Math.log2(pages))),
			);
		},
	);
});

describe('the polling trigger on lists sent as JSON text', () => {
	it.each(SHAPES)(
		'New Message and Message Status Changed poll a conversation sent as %s (oldest first, 120 messages)',
		async (shape) => {
			const newMessages = triggerPoller(fx, {
				event: 'newMessage',
				phoneNumberId: number,
				messageOptions: {},
			});
			const statuses = triggerPoller(fx, {
				event: 'messageStatusChanged',
				phoneNumberId: number,
				statuses: ['sent', 'delivered', 'read', 'failed'],
			});
			conversation(120);
			deployment('oldestFirst', shape);
			expect((await pollCounting(fx, newMessages)).json).toEqual([]);
			expect((await pollCounting(fx, statuses)).json).toEqual([]);
			const question = addMessage(fx.sim.state, {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				text: 'open today?',
			});
			const answer = addMessage(fx.sim.state, {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				text: 'Yes, until 6',
				sender: 'bot',
			});
			const polled = (await pollCounting(fx, newMessages)).json;
			expect(polled.map((item) => [item.wa_message_id, item.text])).toEqual([
				[question.wa_message_id, 'open today?'],
			]);
			expect((await pollCounting(fx, statuses)).json).toEqual([]);
			setMessageStatus(fx.sim.state, { wa_message_id: answer.wa_message_id, status: 'read' });
			const changed = (await pollCounting(fx, statuses)).json;
			expect(changed.map((item) => [item.wa_message_id, item.message_status])).toEqual([
				[answer.wa_message_id, 'read'],
			]);
		},
	);
});

describe("customers' messages stored in Meta's webhook format", () => {
	it('New Message, Get Many and Download Media read the message inside: text, type, caption, media', async () => {
		fx.sim.state.incomingAsMetaWebhook = true;
		const poller = triggerPoller(fx, {
			event: 'newMessage',
			phoneNumberId: number,
			messageOptions: { downloadMedia: true },
		});
		expect(await poller.poll()).toEqual([]);
		const hello = addMessage(fx.sim.state, {
			phone_number_id: NUMBER,
			phone_number: PHONE,
			text: 'hello from Meta',
		});
		const photo = addMediaMessage(fx.sim.state, {
			phone_number_id: NUMBER,
			phone_number: PHONE,
			type: 'image',
			mime_type: 'image/png',
			bytes: Buffer.alloc(512, 3),
			caption: 'my receipt',
		});
		// The simulator stores the whole webhook, as such deployments do.
		expect(JSON.parse(photo.message_content)).toMatchObject({
			object: 'whatsapp_business_account',
			entry: [{ changes: [{ value: { messages: [{ type: 'image' }] } }] }],
		});
		const items = await poller.poll();
		expect(items.map((item) => item.json)).toEqual([
			expect.objectContaining({
				wa_message_id: hello.wa_message_id,
				text: 'hello from Meta',
				message_type: 'text',
				sender: 'user',
			}),
			expect.objectContaining({
				wa_message_id: photo.wa_message_id,
				text: 'my receipt',
				caption: 'my receipt',
				message_type: 'image',
			}),
		]);
		expect(items[1].binary!.data).toMatchObject({ mimeType: 'image/png', bytes: 512 });

		const { items: listed } = await getMany({ returnAll: false, limit: 2 });
		expect(listed.map((item) => [item.json.text, item.json.message_type])).toEqual([
			['my receipt', 'image'],
			['hello from Meta', 'text'],
		]);
		const downloaded = await runNode({
			parameters: { resource: 'message', operation: 'downloadMedia' },
			items: [{ json: listed[0].json }],
			credentials: fx.credentials,
		});
		expect(downloaded.error).toBeUndefined();
		expect(downloaded.items[0].binary!.data).toMatchObject({ mimeType: 'image/png', bytes: 512 });
	});

	it('a Meta webhook holding only a status report is no message: empty text and type, no media', async () => {
		addMessage(fx.sim.state, {
			phone_number_id: NUMBER,
			phone_number: PHONE,
			sender: 'bot',
			content: {
				object: 'whatsapp_business_account',
				entry: [{ changes: [{ value: { statuses: [{ id: 'wamid.X', status: 'read' }] } }] }],
			},
		});
		const { items } = await getMany({ returnAll: false, limit: 1 });
		expect(items[0].json).toMatchObject({ text: '', message_type: '', sender: 'bot' });
	});
});

describe('template sends, panel events and the other senders', () => {
	it('a template send stored as the template (no type): message_type "template" and the body text', async () => {
		fx.sim.state.templateSendsAsTemplate = true;
		const template = fx.sim.state.templates.find(
			(entry) => entry.phone_number_id === NUMBER && entry.template_name === 'welcome_offer',
		)!;
		const sent = await runNode({
			parameters: {
				resource: 'message',
				operation: 'sendTemplate',
				phoneNumberId: number,
				phoneNumber: PHONE,
				templateId: byId(String(template.template_id)),
				templateVariables: {
					mappingMode: 'defineBelow',
					value: { 'templateVariable-first_name-1': 'Ava', 'templateVariable-discount-2': '10%' },
				},
			},
			credentials: fx.credentials,
		});
		expect(sent.error).toBeUndefined();
		const stored = fx.sim.state.messages.at(-1)!;
		expect(JSON.parse(stored.message_content)).not.toHaveProperty('type');
		const { items } = await getMany({ returnAll: false, limit: 1 });
		expect(items[0].json).toMatchObject({
			message_type: 'template',
			text: 'Hello Ava, enjoy 10% off',
			sender: 'bot',
		});
	});

	it('panel events are message_type "system": out of New Message unless Include Panel Events, never in Message Status Changed; automation, sequence and ai_agent are outgoing', async () => {
		const withOutgoing = triggerPoller(fx, {
			event: 'newMessage',
			phoneNumberId: number,
			messageOptions: { includeOutgoing: true },
		});
		const withSystem = triggerPoller(fx, {
			event: 'newMessage',
			phoneNumberId: number,
			messageOptions: { includeOutgoing: true, includeSystem: true },
		});
		const statuses = triggerPoller(fx, {
			event: 'messageStatusChanged',
			phoneNumberId: number,
			statuses: ['sent', 'delivered', 'read', 'failed'],
		});
		for (const poller of [withOutgoing, withSystem, statuses])
			expect(await poller.poll()).toEqual([]);
		const label = addMessage(fx.sim.state, {
			phone_number_id: NUMBER,
			phone_number: PHONE,
			sender: 'system',
			text: 'Label added: VIP',
		});
		const senders = ['automation', 'sequence', 'ai_agent'].map((sender) =>
			addMessage(fx.sim.state, {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				sender,
				text: `from ${sender}`,
			}),
		);
		const outgoing = (await withOutgoing.poll()).map((item) => item.json);
		expect(outgoing.map((item) => [item.sender, item.direction, item.text])).toEqual([
			['automation', 'outgoing', 'from automation'],
			['sequence', 'outgoing', 'from sequence'],
			['ai_agent', 'outgoing', 'from ai_agent'],
		]);
		const all = (await withSystem.poll()).map((item) => item.json);
		expect(all[0]).toMatchObject({
			id: label.id,
			message_type: 'system',
			text: 'Label added: VIP',
			sender: 'system',
			wa_message_id: null,
		});
		expect(all).toHaveLength(4);
		// The status trigger follows the three sends, not the panel event.
		const changed = (await statuses.poll()).map((item) => item.json);
		expect(changed).toEqual([]);
		for (const message of senders)
			setMessageStatus(fx.sim.state, { wa_message_id: message.wa_message_id, status: 'delivered' });
		expect((await statuses.poll()).map((item) => item.json.wa_message_id)).toEqual(
			senders.map((message) => message.wa_message_id),
		);
		const { items } = await getMany({ returnAll: false, limit: 4 });
		expect(items.map((item) => item.json.sender)).toEqual([
			'ai_agent',
			'sequence',
			'automation',
			'system',
		]);
	});
});
