/** Message → Download Media: the media a message carries, downloaded into n8n binary data (memory and filesystem modes). */
import { createHash } from 'node:crypto';
import { BinaryDataService } from 'n8n-core';
import type { IBinaryData, IDataObject } from 'n8n-workflow';
import { runNode, useBinaryMode, type BinaryMode, type InputItem } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { addMediaFile, addMediaMessage, SEED_FILES } from '../simulator/media';
import { messageItem } from '../../nodes/shared/conversation/messageItem';
import { NUMBER, PHONE, numberById } from '../harness/params';

const fx = useSimulator({ seed: { subscribersPerNumber: 5, media: true } });
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const download = (extra: object = {}) => ({
	resource: 'message',
	operation: 'downloadMedia',
	...extra,
});
const byId = (messageId: string, phoneNumber = PHONE) =>
	download({
		messageSource: 'id',
		phoneNumberId: numberById,
		phoneNumber,
		messageId,
	});

/** A conversation record as the trigger outputs it (decoded, flat fields), for a message the simulator holds. */
function triggerItem(wamid: string): InputItem {
	const message = fx.sim.state.messages.find((entry) => entry.wa_message_id === wamid)!;
	const subscriber = fx.sim.state.subscriber(
		message.phone_number_id,
		message.whatsapp_bot_subscriber_subscriber_id,
	)!;
	return {
		json: messageItem(
			message as unknown as IDataObject,
			subscriber as unknown as IDataObject,
			NUMBER,
		),
	};
}

const bytesOf = (size: number, seed = 7) =>
	Buffer.from(Array.from({ length: size }, (_, index) => (index * seed + (index >> 8)) % 256));

async function bytesOfBinary(binary: IBinaryData): Promise<Buffer> {
	return await (await useBinaryMode(binary.id ? 'filesystem' : 'memory')).getAsBuffer(binary);
}

function seeded(type: string, phone = PHONE) {
	return fx.sim.state.messages.find(
		(entry) =>
			entry.whatsapp_bot_subscriber_subscriber_id === phone &&
			JSON.parse(entry.message_content).type === type,
	)!;
}

describe.each<BinaryMode>(['filesystem', 'memory'])('binary mode %s', (binaryMode) => {
	it('downloads the photo of a trigger item: binary with MIME type, file name and size; the JSON stays', async () => {
		const bytes = bytesOf(150_000);
		const message = addMediaMessage(fx.sim.state, {
			phone_number: PHONE,
			type: 'image',
			bytes,
			mime_type: 'image/jpeg',
			caption: 'Like this',
			shape: 'absolute',
			base: fx.sim.url,
		});
		const item = triggerItem(message.wa_message_id);
		const { items, error } = await runNode({
			parameters: download(),
			credentials: fx.credentials,
			items: [item],
			binaryMode,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual(item.json);
		const binary = items[0].binary!.data;
		// Named after the link's last segment.
		expect(binary).toMatchObject({
			mimeType: 'image/jpeg',
			fileName: expect.stringMatching(/^\d+\.jpeg$/),
			fileSize: '146.5 KB',
			bytes: bytes.length,
		});
		expect(Boolean(binary.id)).toBe(binaryMode === 'filesystem');
		expect(sha256(await bytesOfBinary(binary))).toBe(sha256(bytes));
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('finds a voice note by message id in the conversation (a link relative to the platform) and names it', async () => {
		const voice = seeded('audio');
		const { items, error } = await runNode({
			parameters: byId(voice.wa_message_id),
			credentials: fx.credentials,
			binaryMode,
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			wa_message_id: voice.wa_message_id,
			message_content: { type: 'audio', audio: { link: SEED_FILES.voiceNote, voice: true } },
		});
		expect(items[0].binary!.data).toMatchObject({
			mimeType: 'audio/ogg; codecs=opus',
			fileName: 'voice-note.ogg',
			bytes: 24_000,
		});
		expect(fx.sim.requests.map((request) => request.path)).toEqual(['/whatsapp/get/conversation']);
	});
});

describe('Message → Download Media', () => {
	it("keeps a document's own file name and reads message_content given as JSON text (Get Many without decoding)", async () => {
		const pdf = seeded('document', '15550100001');
		const { items, error } = await runNode({
			parameters: download({ binaryPropertyName: 'order' }),
			credentials: fx.credentials,
			items: [{ json: { ...pdf } as IDataObject }],
			binaryMode: 'filesystem',
		});
		expect(error).toBeUndefined();
		expect(items[0].binary!.order).toMatchObject({
			mimeType: 'application/pdf',
			fileName: 'order-form.pdf',
			fileExtension: 'pdf',
			bytes: 60_000,
		});
	});

	it('names a file after the message when neither the message, the server nor the link names it', async () => {
		addMediaFile(fx.sim.state, {
			name: 'voice/7f3a',
			bytes: bytesOf(900),
			contentType: 'audio/ogg',
		});
		const { items } = await runNode({
			parameters: download(),
			credentials: fx.credentials,
			items: [
				{
					json: {
						wa_message_id: 'wamid.ABC=',
						message_content: { type: 'audio', audio: { link: '/media/voice/7f3a', voice: true } },
					},
				},
			],
		});
		expect(items[0].binary!.data).toMatchObject({
			fileName: 'voice-wamid.ABC_.ogg',
			mimeType: 'audio/ogg',
			bytes: 900,
		});
	});

	it('reads the message found by id on a later page of a long conversation', async () => {
		const old = seeded('image');
		for (let index = 0; index < 120; index++)
			fx.sim.state.messages.push({
				...fx.sim.state.messages.find(
					(entry) =>
						entry.whatsapp_bot_subscriber_subscriber_id === PHONE && entry.sender === 'user',
				)!,
				id: 90_000 + index,
				wa_message_id: `wamid.FILL${index}`,
				conversation_time: '2026-01-15 10:00:00',
			});
		const { items, error } = await runNode({
			parameters: byId(String(old.id)),
			credentials: fx.credentials,
		});
		expect(error).toBeUndefined();
		expect(items[0].binary!.data).toMatchObject({ mimeType: 'image/jpeg', bytes: 48_000 });
		expect(
			fx.sim.requests
				.filter((request) => request.path === '/whatsapp/get/conversation')
				.map((request) => request.body.offset),
		).toEqual(['1', '2', '3']);
	});

	it('looks the content up for an item that has the message ids but no message_content (e.g. from a webhook)', async () => {
		const photo = seeded('image');
		const { items, error } = await runNode({
			parameters: download(),
			credentials: fx.credentials,
			items: [
				{
					json: {
						wa_message_id: photo.wa_message_id,
						phone_number_id: NUMBER,
						chat_id: PHONE,
						user_message: '#ATTACHMENT:Photo# Can you make this cake?',
					},
				},
			],
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			user_message: '#ATTACHMENT:Photo# Can you make this cake?',
			message_content: { type: 'image' },
		});
		expect(items[0].binary!.data).toMatchObject({ mimeType: 'image/jpeg', bytes: 48_000 });
	});

	it('fails a message without media clearly, or passes it through unchanged under the option', async () => {
		const text = triggerItem(
			fx.sim.state.messages.find(
				(entry) =>
					entry.whatsapp_bot_subscriber_subscriber_id === PHONE &&
					JSON.parse(entry.message_content).type === 'text',
			)!.wa_message_id,
		);
		const failed = await runNode({
			parameters: download(),
			credentials: fx.credentials,
			items: [text],
		});
		expect(failed.error?.message).toBe('The message has no media (it is a text message)');
		expect(failed.error?.description).toMatch(/Pass Through Messages Without Media/);
		const passed = await runNode({
			parameters: download({ options: { passThrough: true } }),
			credentials: fx.credentials,
			items: [text],
		});
		expect(passed.error).toBeUndefined();
		expect(passed.items).toEqual([
			expect.objectContaining({ json: text.json, pairedItem: { item: 0 } }),
		]);
		expect(passed.items[0].binary).toBeUndefined();
	});

	it.each([
		['a 404', SEED_FILES.missing, /^The media link answered HTTP 404 Not Found$/],
		[
			'a login page answered 200',
			SEED_FILES.expired,
			/^The media link answered with a web page, not the file$/,
		],
	])('turns %s into a clear error, never a binary', async (_name, path, message) => {
		const { items, error } = await runNode({
			parameters: download(),
			credentials: fx.credentials,
			continueOnFail: true,
			items: [
				{
					json: {
						message_content: { type: 'image', image: { link: path, mime_type: 'image/jpeg' } },
					},
				},
			],
		});
		expect(error).toBeUndefined();
		expect(items[0].json.error).toMatch(message);
		expect(items[0].binary).toBeUndefined();
		expect(String(items[0].error?.description)).toContain(`URL: ${fx.sim.url}${path}`);
	});

	it('recognises an HTML page served as application/octet-stream', async () => {
		addMediaFile(fx.sim.state, {
			name: 'odd/photo',
			bytes: Buffer.from('<!DOCTYPE html><html><body>Please log in</body></html>'),
			contentType: 'application/octet-stream',
		});
		const { error } = await runNode({
			parameters: download(),
			credentials: fx.credentials,
			items: [
				{ json: { message_content: '{"type":"image","image":{"link":"/media/odd/photo"}}' } },
			],
			binaryMode: 'filesystem',
		});
		expect(error?.message).toBe('The media link answered with a web page, not the file');
	});

	it('fails on a timeout, naming it', async () => {
		const { error } = await runNode({
			parameters: download({ options: { timeout: 500 } }),
			credentials: fx.credentials,
			items: [
				{ json: { message_content: { type: 'video', video: { link: SEED_FILES.stalled } } } },
			],
		});
		expect(error?.message).toBe('The media download timed out after 0.5 s');
	});

	it('a message known only by WhatsApp media id: a clear error, or the file from Media URL for IDs', async () => {
		const shop = seeded('image', '15550100002');
		const failed = await runNode({
			parameters: byId(shop.wa_message_id, '15550100002'),
			credentials: fx.credentials,
		});
		expect(failed.error?.message).toMatch(
			/^The message carries WhatsApp media ID \d+ but no link to download it from$/,
		);
		expect(failed.error?.description).toMatch(/Media URL for IDs/);

		// A file sent by media id (uploaded first): its message has the id only; the platform serves uploads by id here.
		const bytes = bytesOf(5000, 13);
		const sent = await runNode({
			parameters: {
				resource: 'message',
				operation: 'sendMedia',
				phoneNumberId: numberById,
				phoneNumber: PHONE,
				source: 'binary',
				binaryPropertyName: 'data',
			},
			credentials: fx.credentials,
			items: [
				{
					json: {},
					binary: { data: { data: bytes, mimeType: 'application/pdf', fileName: 'quote.pdf' } },
				},
			],
		});
		const wamid = String(sent.items[0].json.wa_message_id);
		const { items, error } = await runNode({
			parameters: { ...byId(wamid), options: { mediaIdUrl: '/media/uploads/{id}' } },
			credentials: fx.credentials,
			binaryMode: 'filesystem',
		});
		expect(error).toBeUndefined();
		expect(items[0].binary!.data).toMatchObject({
			fileName: 'quote.pdf',
			mimeType: 'application/pdf',
			bytes: bytes.length,
		});
		expect(sha256(await bytesOfBinary(items[0].binary!.data))).toBe(sha256(bytes));
	});

	it('names what is missing: not a message, an unknown message id', async () => {
		let run = await runNode({
			parameters: download(),
			credentials: fx.credentials,
			items: [{ json: { hello: 'world' } }],
		});
		expect(run.error?.message).toBe('The input item is not a message: it has no message_content');
		run = await runNode({ parameters: byId('wamid.NOPE'), credentials: fx.credentials });
		expect(run.error?.message).toBe(
			`Message wamid.NOPE was not found in the conversation with ${PHONE}`,
		);
	});

	it('under Continue On Fail, downloads the good items and gives the others error items, each paired; keeps input binaries', async () => {
		const photo = triggerItem(seeded('image').wa_message_id);
		const items: InputItem[] = [
			{
				...photo,
				binary: {
					earlier: { data: Buffer.from('kept'), mimeType: 'text/plain', fileName: 'kept.txt' },
				},
			},
			{ json: { message_content: { type: 'image', image: { link: SEED_FILES.missing } } } },
			triggerItem(seeded('audio').wa_message_id),
		];
		const run = await runNode({
			parameters: download(),
			credentials: fx.credentials,
			items,
			continueOnFail: true,
			binaryMode: 'filesystem',
		});
		expect(run.items.map((item) => Object.keys(item.binary ?? {}).sort())).toEqual([
			['data', 'earlier'],
			[],
			['data'],
		]);
		expect(run.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(run.items[1].json.error).toMatch(/HTTP 404/);
	});

	it("runs the same on the tool path (n8n's declarative engine)", async () => {
		const asStream = jest.spyOn(BinaryDataService.prototype, 'store');
		const { items, error } = await runNode({
			parameters: byId(seeded('audio').wa_message_id),
			credentials: fx.credentials,
			path: 'execute',
			binaryMode: 'filesystem',
		});
		expect(error).toBeUndefined();
		expect(items[0].binary!.data).toMatchObject({
			mimeType: 'audio/ogg; codecs=opus',
			bytes: 24_000,
		});
		// Stored from the response stream, not from a buffer.
		expect(asStream.mock.calls.some(([, data]) => !Buffer.isBuffer(data))).toBe(true);
		asStream.mockRestore();
	});
});
