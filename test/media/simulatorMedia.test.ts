/** The simulator's media: conversations hold media messages whose message_content points at files it serves. */
import { useSimulator } from '../harness/simulatorFixture';
import { SEED_FILES } from '../simulator/media';
import { NUMBER } from '../harness/params';

const fx = useSimulator({ seed: { subscribersPerNumber: 5, media: true } });

async function conversation(phone: string): Promise<Array<{ message_content: string }>> {
	const body = new URLSearchParams({
		apiToken: fx.sim.token,
		phone_number_id: NUMBER,
		phone_number: phone,
		limit: '50',
	});
	const response = await fetch(`${fx.sim.url}/api/v1/whatsapp/get/conversation`, {
		method: 'POST',
		body,
	});
	return ((await response.json()) as { message: Array<{ message_content: string }> }).message;
}

describe('simulator media', () => {
	it("seeds a photo, a voice note, a PDF and an id-only photo, each older than the conversation's newest text", async () => {
		const first = await conversation('15550100000');
		expect(JSON.parse(first[0].message_content).type).toBe('text');
		const media = first
			.map((message) => JSON.parse(message.message_content))
			.filter((content) => content.type !== 'text');
		expect(media).toEqual([
			{
				type: 'audio',
				audio: { link: SEED_FILES.voiceNote, mime_type: 'audio/ogg; codecs=opus', voice: true },
			},
			{
				type: 'image',
				image: {
					link: SEED_FILES.photo,
					mime_type: 'image/jpeg',
					caption: 'Can you make this cake?',
				},
			},
		]);
		const third = (await conversation('15550100002'))
			.map((message) => JSON.parse(message.message_content))
			.find((content) => content.type === 'image');
		expect(third.image).toEqual({
			id: expect.stringMatching(/^\d+$/),
			mime_type: 'image/jpeg',
			sha256: 'not-checked',
			caption: 'Photo of the shop',
		});
	});

	it('serves the files without a token; a missing file is a 404 page, an expired one a login page', async () => {
		const photo = await fetch(`${fx.sim.url}${SEED_FILES.photo}`);
		expect(photo.status).toBe(200);
		expect(photo.headers.get('content-type')).toBe('image/jpeg');
		expect((await photo.arrayBuffer()).byteLength).toBe(48_000);
		const pdf = await fetch(`${fx.sim.url}${SEED_FILES.orderForm}`);
		expect(pdf.headers.get('content-disposition')).toBe('inline; filename="order-form.pdf"');
		const missing = await fetch(`${fx.sim.url}${SEED_FILES.missing}`);
		expect([missing.status, missing.headers.get('content-type')]).toEqual([
			404,
			'text/html; charset=UTF-8',
		]);
		const expired = await fetch(`${fx.sim.url}${SEED_FILES.expired}`);
		expect([expired.status, (await expired.text()).startsWith('<!DOCTYPE html>')]).toEqual([
			200,
			true,
		]);
		const stalled = await fetch(`${fx.sim.url}${SEED_FILES.stalled}`, {
			signal: AbortSignal.timeout(300),
		}).catch((error: Error) => error.name);
		expect(stalled).toBe('TimeoutError');
	});

	it('serves an uploaded file by its media id', async () => {
		const form = new FormData();
		form.set('apiToken', fx.sim.token);
		form.set('phone_number_id', NUMBER);
		form.set(
			'media_file',
			new Blob([Buffer.from('hello pdf')], { type: 'application/pdf' }),
			'hello.pdf',
		);
		const uploaded = (await (
			await fetch(`${fx.sim.url}/api/v1/whatsapp/upload/media`, { method: 'POST', body: form })
		).json()) as { media_id: string };
		const served = await fetch(`${fx.sim.url}/media/uploads/${uploaded.media_id}`);
		expect([served.status, await served.text()]).toEqual([200, 'hello pdf']);
	});
});
