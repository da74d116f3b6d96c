/**
 * BotSailor Webhook Trigger → Incoming Message with Download Media: the platform posts a media message
 * as a placeholder text (`#ATTACHMENT:Photo# caption`, no link), so the node reads the message record
 * for its link and attaches the file as binary data; text messages cost no request.
 */
import type { IBinaryData, INodeParameters } from 'n8n-workflow';
import { BotSailorWebhookTrigger } from '../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node';
import { useBinaryMode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { addMessage } from '../simulator/control';
import { addMediaMessage, SEED_FILES } from '../simulator/media';
import { startReceiver, type Receiver } from '../webhookTrigger/receiver';
import { WebhookRunner } from '../webhookTrigger/webhookHarness';
import { NUMBER, numberById } from '../harness/params';

const fx = useSimulator({ seed: { subscribersPerNumber: 8 } });

let receiver: Receiver;
let runner: WebhookRunner;
beforeAll(async () => {
	receiver = await startReceiver(() => runner);
});
afterAll(async () => await receiver.close());

async function listening(parameters: INodeParameters, credentials = true): Promise<void> {
	await useBinaryMode('filesystem');
	runner = new WebhookRunner({
		webhookType: new BotSailorWebhookTrigger(),
		parameters: { event: 'incomingMessage', phoneNumberId: numberById, ...parameters },
		...(credentials ? { credentials: fx.credentials } : {}),
	});
	await runner.activate();
	fx.sim.state.webhooks.configure(NUMBER, { urls: { incoming_message: receiver.url } });
}

const started = () => runner.executions.flatMap((execution) => execution.items);
const reads = () =>
	fx.sim.requests.filter((request) => request.path === '/whatsapp/get/conversation').length;

async function bytesOf(binary: IBinaryData): Promise<Buffer> {
	return await (await useBinaryMode('filesystem')).getAsBuffer(binary);
}

describe('Webhook Trigger → Incoming Message, Download Media', () => {
	it('attaches a photo, a voice note and a document; a text message passes with no request; a dead link is reported and still starts the workflow', async () => {
		await listening({ downloadMedia: true });
		const [a, b] = fx.sim.state.subscribersOf(NUMBER).slice(1, 3);
		// One at a time: deliveries run concurrently, and the assertions read the executions in order.
		const deliver = async (add: () => void) => {
			add();
			await fx.sim.state.webhooks.idle();
		};
		await deliver(() =>
			addMediaMessage(fx.sim.state, {
				phone_number: a.chat_id,
				type: 'image',
				path: SEED_FILES.photo,
				mime_type: 'image/jpeg',
				caption: 'Can you make this cake?',
			}),
		);
		await deliver(() =>
			addMediaMessage(fx.sim.state, {
				phone_number: a.chat_id,
				type: 'voice',
				path: SEED_FILES.voiceNote,
				mime_type: 'audio/ogg; codecs=opus',
			}),
		);
		await deliver(() =>
			addMediaMessage(fx.sim.state, {
				phone_number: b.chat_id,
				type: 'document',
				path: SEED_FILES.orderForm,
				mime_type: 'application/pdf',
				filename: 'order-form.pdf',
			}),
		);
		const mediaReads = reads();
		await deliver(() =>
			addMessage(fx.sim.state, { phone_number: b.chat_id, text: 'And a loaf of rye, please' }),
		);
		await deliver(() =>
			addMediaMessage(fx.sim.state, {
				phone_number: b.chat_id,
				type: 'image',
				path: SEED_FILES.missing,
				mime_type: 'image/jpeg',
			}),
		);

		const items = started();
		expect(items.map((item) => [item.json.message_type, Object.keys(item.binary ?? {})])).toEqual([
			['image', ['data']],
			['audio', ['data']],
			['document', ['data']],
			['text', []],
			['image', []],
		]);
		expect(mediaReads).toBe(3);
		expect(reads()).toBe(4); // the text message read nothing; the dead link's message was read once
		expect(items[0]).toMatchObject({
			json: { text: 'Can you make this cake?', phone_number: a.chat_id },
			binary: { data: { mimeType: 'image/jpeg', fileName: 'cake-photo.jpg', bytes: 48_000 } },
		});
		expect((await bytesOf(items[0].binary!.data)).subarray(0, 29).toString()).toBe(
			'JPEG photo of a birthday cake',
		);
		expect(items[1].binary!.data).toMatchObject({
			mimeType: 'audio/ogg; codecs=opus',
			bytes: 24_000,
		});
		expect(items[2].binary!.data).toMatchObject({
			fileName: 'order-form.pdf',
			mimeType: 'application/pdf',
			bytes: 60_000,
		});
		expect(items[3].json).toMatchObject({
			text: 'And a loaf of rye, please',
			message_content: null,
		});
		expect(items[4].json.media_download_error).toBe('The media link answered HTTP 404 Not Found');
		for (const item of items) expect(JSON.stringify(item)).not.toContain(fx.sim.token);
	});

	it('without a credential the message still starts the workflow, saying why there is no file', async () => {
		await listening({ downloadMedia: true }, false);
		addMediaMessage(fx.sim.state, {
			phone_number: fx.sim.state.subscribersOf(NUMBER)[1].chat_id,
			type: 'image',
			path: SEED_FILES.photo,
			mime_type: 'image/jpeg',
		});
		await fx.sim.state.webhooks.idle();
		const [item] = started();
		expect(item.binary).toBeUndefined();
		expect(item.json).toMatchObject({
			message_type: 'image',
			media_download_error: expect.stringMatching(/needs a BotSailor API credential/),
		});
		expect(fx.sim.requests).toHaveLength(0);
	});

	it('without the option, nothing is read or downloaded', async () => {
		await listening({});
		addMediaMessage(fx.sim.state, {
			phone_number: fx.sim.state.subscribersOf(NUMBER)[1].chat_id,
			type: 'image',
			path: SEED_FILES.photo,
			mime_type: 'image/jpeg',
		});
		await fx.sim.state.webhooks.idle();
		expect(started().map((item) => [item.json.message_type, item.binary])).toEqual([
			['image', undefined],
		]);
		expect(reads()).toBe(0);
	});
});
