/** BotSailor Trigger → New Message with Download Media: media messages arrive with their file as binary data. */
import type { IBinaryData, INodeParameters } from 'n8n-workflow';
import { BotSailorTrigger } from '../../nodes/BotSailorTrigger/BotSailorTrigger.node';
import { createPoller, useBinaryMode, type BinaryMode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { addMessage } from '../simulator/control';
import { addMediaMessage, SEED_FILES } from '../simulator/media';
import { NUMBER, numberById } from '../harness/params';

const fx = useSimulator({ seed: { subscribersPerNumber: 8 } });
const parameters = (options: INodeParameters = { downloadMedia: true }) => ({
	event: 'newMessage',
	phoneNumberId: numberById,
	messageOptions: options,
});
const bytesOf = (size: number) =>
	Buffer.from(Array.from({ length: size }, (_, index) => (index * 17) % 251));

async function bytesOfBinary(binary: IBinaryData): Promise<Buffer> {
	return await (await useBinaryMode(binary.id ? 'filesystem' : 'memory')).getAsBuffer(binary);
}

describe.each<BinaryMode>(['filesystem', 'memory'])('binary mode %s', (binaryMode) => {
	it("attaches each media message's file; text messages pass as they are; a dead link is reported, the poll goes on", async () => {
		const poller = createPoller(new BotSailorTrigger(), parameters(), fx.credentials, {
			binaryMode,
		});
		expect(await poller.poll()).toEqual([]);
		const [a, b] = fx.sim.state.subscribersOf(NUMBER).slice(2, 4);
		const voice = bytesOf(30_000);
		addMediaMessage(fx.sim.state, {
			phone_number: a.chat_id,
			type: 'voice',
			bytes: voice,
			mime_type: 'audio/ogg; codecs=opus',
			shape: 'absolute',
			base: fx.sim.url,
		});
		addMessage(fx.sim.state, { phone_number: b.chat_id, text: 'Hello' });
		addMediaMessage(fx.sim.state, {
			phone_number: b.chat_id,
			type: 'document',
			path: SEED_FILES.orderForm,
			mime_type: 'application/pdf',
			filename: 'order-form.pdf',
			caption: 'My order',
		});
		addMediaMessage(fx.sim.state, {
			phone_number: a.chat_id,
			type: 'image',
			path: SEED_FILES.missing,
			mime_type: 'image/jpeg',
		});

		const items = await poller.poll();
		expect(items.map((item) => [item.json.message_type, Object.keys(item.binary ?? {})])).toEqual([
			['audio', ['data']],
			['text', []],
			['document', ['data']],
			['image', []],
		]);
		expect(items[0].binary!.data).toMatchObject({
			mimeType: 'audio/ogg; codecs=opus',
			bytes: voice.length,
		});
		expect(Boolean(items[0].binary!.data.id)).toBe(binaryMode === 'filesystem');
		expect((await bytesOfBinary(items[0].binary!.data)).equals(voice)).toBe(true);
		expect(items[2]).toMatchObject({
			json: { caption: 'My order', text: 'My order' },
			binary: { data: { fileName: 'order-form.pdf', mimeType: 'application/pdf', bytes: 60_000 } },
		});
		expect(items[3].json.media_download_error).toBe('The media link answered HTTP 404 Not Found');
		// The cursor moved: nothing is emitted again.
		expect(await poller.poll()).toEqual([]);
	});
});

describe('New Message, Download Media', () => {
	it("a manual run (Fetch Test Event) attaches the newest message's file too", async () => {
		const [a] = fx.sim.state.subscribersOf(NUMBER);
		addMediaMessage(fx.sim.state, {
			phone_number: a.chat_id,
			type: 'image',
			path: SEED_FILES.photo,
			mime_type: 'image/jpeg',
			caption: 'This one',
		});
		const items = await createPoller(new BotSailorTrigger(), parameters(), fx.credentials, {
			binaryMode: 'filesystem',
		}).poll('manual');
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({
			json: { text: 'This one', message_type: 'image' },
			binary: { data: { mimeType: 'image/jpeg', fileName: 'cake-photo.jpg', bytes: 48_000 } },
		});
	});

	it('without the option, no file is downloaded', async () => {
		const poller = createPoller(new BotSailorTrigger(), parameters({}), fx.credentials);
		await poller.poll();
		addMediaMessage(fx.sim.state, {
			phone_number: fx.sim.state.subscribersOf(NUMBER)[1].chat_id,
			type: 'image',
			path: SEED_FILES.photo,
			mime_type: 'image/jpeg',
		});
		const items = await poller.poll();
		expect(items).toHaveLength(1);
		expect(items[0].binary).toBeUndefined();
	});
});
