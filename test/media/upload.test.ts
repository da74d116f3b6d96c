/**
 * Send Media from binary and Media → Upload: WhatsApp's type and size rules checked before anything
 * is sent, and the file streamed from n8n's binary data store (filesystem mode) inside each item's own send.
 */
import { createHash } from 'node:crypto';
import { BinaryDataService } from 'n8n-core';
import { runNode, type BinaryMode, type InputItem } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { numberById } from '../harness/params';

const fx = useSimulator({ seed: { subscribersPerNumber: 5 } });
const MB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const sendMedia = (extra: object = {}) => ({
	resource: 'message',
	operation: 'sendMedia',
	phoneNumberId: numberById,
	phoneNumber: '15550100000',
	source: 'binary',
	binaryPropertyName: 'data',
	...extra,
});
const upload = (extra: object = {}) => ({
	resource: 'media',
	operation: 'upload',
	phoneNumberId: numberById,
	binaryPropertyName: 'data',
	...extra,
});
const file = (bytes: Buffer, mimeType: string, fileName?: string): InputItem => ({
	json: {},
	binary: { data: { data: bytes, mimeType, fileName } },
});
/** Bytes that differ along the file, so a truncated or reordered upload changes the hash. */
const bytesOf = (size: number) =>
	Buffer.from(Array.from({ length: size }, (_, index) => (index * 31 + (index >> 10)) % 256));
const uploads = () =>
	fx.sim.requests.filter((request) => request.path === '/whatsapp/upload/media');

afterEach(() => jest.restoreAllMocks());

describe.each<BinaryMode>(['filesystem', 'memory'])('binary mode %s', (binaryMode) => {
	it('Send Media uploads the file, then sends it by media id; the platform receives every byte', async () => {
		const bytes = bytesOf(3 * MB + 17);
		const { items, error } = await runNode({
			parameters: sendMedia({ additionalFields: { caption: 'Your invoice' } }),
			credentials: fx.credentials,
			items: [file(bytes, 'application/pdf', 'invoice.pdf')],
			binaryMode,
		});
		expect(error).toBeUndefined();
		expect(fx.sim.requests.map((request) => request.path)).toEqual([
			'/whatsapp/upload/media',
			'/whatsapp/send/file',
		]);
		const [uploaded, send] = fx.sim.requests;
		expect(uploaded.files.media_file).toEqual({
			name: 'invoice.pdf',
			type: 'application/pdf',
			size: bytes.length,
			sha256: sha256(bytes),
		});
		expect(uploaded.tokenIn).toEqual(expect.arrayContaining(['body', 'bearer']));
		// A known length, not a chunked body: the File's size is announced.
		expect(uploaded.headers['transfer-encoding']).toBeUndefined();
		expect(Number(uploaded.headers['content-length'])).toBeGreaterThan(bytes.length);
		expect(send.body).toMatchObject({
			media_id: expect.any(String),
			media_type: 'document',
			media_name: 'invoice.pdf',
			media_caption_text: 'Your invoice',
		});
		expect(items[0].json).toMatchObject({
			success: true,
			wa_message_id: expect.stringMatching(/^wamid\./),
		});
	});

	it('Media → Upload uploads the file and outputs media_id, media_type, media_name', async () => {
		const bytes = bytesOf(200_000);
		const { items, error } = await runNode({
			parameters: upload(),
			credentials: fx.credentials,
			items: [file(bytes, 'image/jpeg', 'cake.jpg')],
			binaryMode,
		});
		expect(error).toBeUndefined();
		expect(uploads()).toHaveLength(1);
		expect(uploads()[0].files.media_file).toEqual({
			name: 'cake.jpg',
			type: 'image/jpeg',
			size: bytes.length,
			sha256: sha256(bytes),
		});
		expect(items[0].json).toEqual({
			success: true,
			media_id: expect.any(String),
			media_type: 'image',
			media_name: 'cake.jpg',
			message: expect.stringContaining('Media has been uploaded successfully'),
		});
	});

	it.each([
		[
			'an image over 5 MB',
			file(bytesOf(5 * MB + 1), 'image/png', 'poster.png'),
			/^The file "poster\.png" is 5 MB \(5,242,881 bytes\): WhatsApp accepts images up to 5 MB$/,
		],
		[
			'audio over 16 MB',
			file(bytesOf(16 * MB + 10), 'audio/mpeg', 'talk.mp3'),
			/WhatsApp accepts audio files up to 16 MB$/,
		],
		[
			'a type WhatsApp does not take',
			file(bytesOf(100), 'application/zip', 'photos.zip'),
			/^The file "photos\.zip" is of type application\/zip, which WhatsApp does not accept$/,
		],
		[
			'an empty file',
			file(Buffer.alloc(0), 'application/pdf', 'empty.pdf'),
			/^The file "empty\.pdf" is empty$/,
		],
	])(
		'refuses %s before anything is uploaded (Send Media and Media → Upload)',
		async (_name, item, message) => {
			for (const parameters of [sendMedia(), upload()]) {
				const { error } = await runNode({
					parameters,
					credentials: fx.credentials,
					items: [item],
					binaryMode,
				});
				expect(error?.message).toMatch(message);
				expect(error?.description).toMatch(/Nothing was uploaded\./);
				expect(fx.sim.requests).toHaveLength(0);
			}
		},
	);

	it('reads the type from the file name when the binary says only application/octet-stream', async () => {
		const bytes = bytesOf(1000);
		const { error } = await runNode({
			parameters: sendMedia(),
			credentials: fx.credentials,
			items: [file(bytes, 'application/octet-stream', 'brochure.pdf')],
			binaryMode,
		});
		expect(error).toBeUndefined();
		expect(uploads()[0].files.media_file).toMatchObject({
			name: 'brochure.pdf',
			type: 'application/pdf',
		});
	});
});

describe('filesystem binary mode', () => {
	it('streams the stored file (never reads it whole) for Send Media and Media → Upload', async () => {
		const asBuffer = jest.spyOn(BinaryDataService.prototype, 'getAsBuffer');
		const asStream = jest.spyOn(BinaryDataService.prototype, 'getAsStream');
		const bytes = bytesOf(2 * MB);
		for (const parameters of [sendMedia(), upload()]) {
			const { error } = await runNode({
				parameters,
				credentials: fx.credentials,
				items: [file(bytes, 'video/mp4', 'clip.mp4')],
				binaryMode: 'filesystem',
			});
			expect(error).toBeUndefined();
		}
		expect(asStream).toHaveBeenCalledTimes(2);
		expect(asBuffer).not.toHaveBeenCalled();
		expect(uploads().map((request) => request.files.media_file.sha256)).toEqual([
			sha256(bytes),
			sha256(bytes),
		]);
	});

	it('checks every item before the first upload: one bad file stops the run with nothing sent', async () => {
		const items = [
			file(bytesOf(1000), 'image/jpeg', 'a.jpg'),
			file(bytesOf(6 * MB), 'image/jpeg', 'b.jpg'),
			file(bytesOf(1000), 'image/jpeg', 'c.jpg'),
		];
		const { error } = await runNode({
			parameters: sendMedia(),
			credentials: fx.credentials,
			items,
			binaryMode: 'filesystem',
		});
		expect(error?.message).toMatch(/^The file "b\.jpg" is 6 MB/);
		expect(fx.sim.requests).toHaveLength(0);
	});

	it('under Continue On Fail uploads and sends each good item in its own turn, and fails the bad one', async () => {
		const items = [
			file(bytesOf(1000), 'image/jpeg', 'a.jpg'),
			file(bytesOf(100), 'text/html', 'page.html'),
			file(bytesOf(2000), 'image/png', 'c.png'),
		];
		const { items: output } = await runNode({
			parameters: sendMedia(),
			credentials: fx.credentials,
			items,
			binaryMode: 'filesystem',
			continueOnFail: true,
		});
		expect(output.map((item) => item.json.error ?? item.json.success)).toEqual([
			true,
			'The file "page.html" is of type text/html, which WhatsApp does not accept',
			true,
		]);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(
			uploads()
				.map((request) => request.files.media_file.name)
				.sort(),
		).toEqual(['a.jpg', 'c.png']);
		// Each send uses the media id of its own upload.
		const sends = fx.sim.requests.filter((request) => request.path === '/whatsapp/send/file');
		const ids = fx.sim.state.media.map((entry) => String(entry.media_id));
		expect(sends.map((request) => request.body.media_id).sort()).toEqual(ids.sort());
		expect(sends.map((request) => request.body.media_type)).toEqual(['image', 'image']);
	});

	it("runs the same way on the tool path (n8n's declarative engine)", async () => {
		const bytes = bytesOf(300_000);
		const { items, error } = await runNode({
			parameters: sendMedia(),
			credentials: fx.credentials,
			items: [file(bytes, 'audio/ogg; codecs=opus', 'voice.ogg')],
			binaryMode: 'filesystem',
			path: 'execute',
		});
		expect(error).toBeUndefined();
		expect(uploads()[0].files.media_file).toMatchObject({
			type: 'audio/ogg',
			sha256: sha256(bytes),
		});
		expect(items[0].json).toMatchObject({ success: true });
	});

	it('a WebP (a WhatsApp sticker) goes only as a document; a Media Type must match the file', async () => {
		const webp = file(bytesOf(1000), 'image/webp', 'smile.webp');
		let run = await runNode({
			parameters: sendMedia(),
			credentials: fx.credentials,
			items: [webp],
			binaryMode: 'filesystem',
		});
		expect(run.error?.message).toBe(
			'The file "smile.webp" is a WebP image, which WhatsApp sends only as a sticker',
		);
		run = await runNode({
			parameters: sendMedia({ additionalFields: { mediaType: 'image' } }),
			credentials: fx.credentials,
			items: [file(bytesOf(10), 'application/pdf', 'x.pdf')],
			binaryMode: 'filesystem',
		});
		expect(run.error?.message).toBe('Media Type is image, but the file "x.pdf" is application/pdf');
		expect(fx.sim.requests).toHaveLength(0);
		run = await runNode({
			parameters: sendMedia({ additionalFields: { mediaType: 'document' } }),
			credentials: fx.credentials,
			items: [webp],
			binaryMode: 'filesystem',
		});
		expect(run.error).toBeUndefined();
		expect(fx.sim.requests.at(-1)?.body).toMatchObject({
			media_type: 'document',
			media_name: 'smile.webp',
		});
	});
});
