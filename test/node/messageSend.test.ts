import { createHash } from 'node:crypto';
import { mediaTypeFromUrl } from '../../nodes/BotSailor/resources/message/mediaOptions';
import { ACCEPTED_MIME_TYPES } from '../../nodes/shared/whatsapp/mediaRules';
import { callMethod, runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { byId, NUMBER, numberFromList, PHONE, rl } from '../harness/params';

const fx = useSimulator({ seed: { subscribersPerNumber: 5 } });
const base = { resource: 'message', phoneNumberId: numberFromList, phoneNumber: '+1 555 010 0000' };
const templateIdOf = (name: string) =>
	String(
		fx.sim.state.templates.find(
			(entry) => entry.template_name === name && entry.phone_number_id === NUMBER,
		)!.template_id,
	);

describe('Message → Send Text', () => {
	it('sends phone_number_id, digits-only phone_number and message; outputs wa_message_id', async () => {
		const { items, error } = await runNode({
			parameters: { ...base, operation: 'sendText', message: 'Your order is ready' },
			credentials: fx.credentials,
		});
		expect(error).toBeUndefined();
		expect(fx.sim.requests).toHaveLength(1);
		expect(fx.sim.requests[0]).toMatchObject({
			method: 'POST',
			path: '/whatsapp/send',
			body: { phone_number_id: NUMBER, phone_number: PHONE, message: 'Your order is ready' },
		});
		// The recipient's number (as sent) is on the output: the platform's confirmation does not repeat it.
		expect(items[0].json).toEqual({
			success: true,
			wa_message_id: expect.stringMatching(/^wamid\./),
			message: 'Message sent successfully.',
			phone_number: PHONE,
			message_kind: 'free-form',
		});
		const recorded = fx.sim.state.messages.find(
			(entry) => entry.wa_message_id === items[0].json.wa_message_id,
		)!;
		expect(recorded).toMatchObject({ sender: 'bot', message_status: 'sent' });
	});

	it('fails with the subscriber-limit text for a new subscriber when the account is at its limit', async () => {
		fx.sim.state.subscriberLimit = fx.sim.state.subscribers.length;
		const { error } = await runNode({
			parameters: { ...base, operation: 'sendText', message: 'Hi', phoneNumber: '447911123456' },
			credentials: fx.credentials,
		});
		expect(error?.message).toBe(
			'Subscriber limit has been exceeded. You cannot have more subscribers.',
		);
	});

	it.each([
		['letters', '+44 77OO 900123'],
		['empty (from an expression)', '={{ "" }}'],
	])('refuses a phone number with %s before sending', async (_name, phoneNumber) => {
		const { error } = await runNode({
			parameters: { ...base, operation: 'sendText', message: 'Hi', phoneNumber },
			credentials: fx.credentials,
		});
		expect(error?.message).toMatch(/^Subscriber /);
		expect(fx.sim.requests).toHaveLength(0);
	});

	it('under Continue On Fail sends the good items and gives the bad one an error item, each paired', async () => {
		const { items, error } = await runNode({
			parameters: {
				...base,
				operation: 'sendText',
				message: 'Hi',
				phoneNumber: '={{ $json.phone }}',
			},
			credentials: fx.credentials,
			continueOnFail: true,
			items: [
				{ json: { phone: '15550100001' } },
				{ json: { phone: 'call me' } },
				{ json: { phone: '+1 (555) 010-0002' } },
			],
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json.wa_message_id).toBeDefined();
		expect(String(items[1].json.error)).toMatch(/Subscriber/);
		expect(items[2].json.wa_message_id).toBeDefined();
		expect(fx.sim.requests.map((request) => request.body.phone_number)).toEqual([
			'15550100001',
			'15550100002',
		]);
	});
});

describe('Message → Send Template', () => {
	it('node version 1.1 sends the variables from the place Variables chooses; version 1 workflows keep sending both', async () => {
		const variables = {
			templateId: rl(templateIdOf('welcome_offer')),
			templateVariables: {
				mappingMode: 'defineBelow',
				value: { 'templateVariable-first_name-1': 'Ava', 'templateVariable-discount-2': '10%' },
			},
			manualVariables: {
				variable: [
					{ label: 'first_name', position: 1, value: 'Manual Ava' },
					{ label: 'discount', position: 2, value: '20%' },
				],
			},
		};
		const sent = async (typeVersion: number, variableSource?: string) => {
			fx.sim.clearRequests();
			const { error } = await runNode({
				typeVersion,
				parameters: {
					...base,
					operation: 'sendTemplate',
					...variables,
					...(variableSource ? { variableSource } : {}),
				},
				credentials: fx.credentials,
			});
			expect(error).toBeUndefined();
			return fx.sim.requests[0].body['templateVariable-first_name-1'];
		};
		expect(await sent(1.1, 'mapper')).toBe('Ava');
		expect(await sent(1.1)).toBe('Ava');
		expect(await sent(1.1, 'manual')).toBe('Manual Ava');
		// Version 1 shows both fields; a manual variable fills (and here overrides) the mapped one.
		expect(await sent(1)).toBe('Manual Ava');
	});

	it('says why it cannot list the variables when the number or the template is an expression', async () => {
		const fields = await callMethod('resourceMapping', 'getTemplateVariables', {
			credentials: fx.credentials,
			parameters: {
				...base,
				operation: 'sendTemplate',
				phoneNumberId: byId('={{ $json.phone_number_id }}'),
				templateId: rl(templateIdOf('order_update')),
			},
		});
		expect(fields).toEqual({
			fields: [],
			emptyFieldsNotice: expect.stringMatching(
				/^WhatsApp Number is an expression, so the template's variables cannot be listed here/,
			),
		});
	});

	it('offers the template variables of the chosen template (resource mapper from variable_map)', async () => {
		const fields = await callMethod('resourceMapping', 'getTemplateVariables', {
			credentials: fx.credentials,
			parameters: {
				...base,
				operation: 'sendTemplate',
				templateId: rl(templateIdOf('order_update')),
			},
		});
		expect(fields).toEqual({
			fields: [
				expect.objectContaining({
					id: 'templateVariable-order_id-1',
					displayName: 'Header {{1}} (order_id)',
					type: 'string',
				}),
				expect.objectContaining({
					id: 'templateVariable-status-1',
					displayName: 'Body {{1}} (status)',
				}),
			],
		});
	});

	it('lists templates by name, language and status with template_id as value', async () => {
		const result = (await callMethod('listSearch', 'searchTemplates', {
			credentials: fx.credentials,
			parameters: { ...base, operation: 'sendTemplate' },
			filter: 'welcome',
		})) as { results: unknown[] };
		expect(result.results).toEqual([
			{ name: 'welcome_offer (en_US)', value: templateIdOf('welcome_offer') },
		]);
		const all = (await callMethod('listSearch', 'searchTemplates', {
			credentials: fx.credentials,
			parameters: { ...base, operation: 'sendTemplate' },
		})) as { results: Array<{ name: string }> };
		// Approved first; the others say they cannot be sent.
		expect(all.results.map((entry) => entry.name).slice(-2)).toEqual([
			'promo_es (es) – Submitted, not sendable yet',
			'old_flyer (en_US) – Rejected, not sendable yet',
		]);
		expect(all.results.slice(0, -2).every((entry) => !entry.name.includes('not sendable'))).toBe(
			true,
		);
	});

	it('sends the mapped and manual variables as templateVariable-{LABEL}-{POSITION} fields', async () => {
		const { items, error } = await runNode({
			parameters: {
				...base,
				operation: 'sendTemplate',
				templateId: rl(templateIdOf('welcome_offer')),
				templateVariables: {
					mappingMode: 'defineBelow',
					value: { 'templateVariable-first_name-1': 'Ava', 'templateVariable-discount-2': '' },
					schema: [],
				},
				manualVariables: { variable: [{ label: 'discount', position: 2, value: '20%' }] },
				additionalFields: { headerMediaUrl: 'https://cdn.example.com/banner.jpg' },
			},
			credentials: fx.credentials,
		});
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/send/template',
			body: {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				template_id: templateIdOf('welcome_offer'),
				template_header_media_url: 'https://cdn.example.com/banner.jpg',
				'templateVariable-first_name-1': 'Ava',
				'templateVariable-discount-2': '20%',
			},
		});
		expect(Object.keys(fx.sim.requests[0].body)).toHaveLength(6);
		expect(items[0].json).toMatchObject({
			success: true,
			message: 'Template message has been sent successfully.',
			wa_message_id: expect.any(String),
		});
	});

	it('reports "Message template not found." for an unknown template id', async () => {
		const { error } = await runNode({
			parameters: { ...base, operation: 'sendTemplate', templateId: rl('123', 'id') },
			credentials: fx.credentials,
		});
		expect(error?.message).toBe('Message template not found.');
	});

	it('refuses a manual variable without a valid label before sending', async () => {
		const { error } = await runNode({
			parameters: {
				...base,
				operation: 'sendTemplate',
				templateId: rl('123', 'id'),
				manualVariables: { variable: [{ label: 'first name', position: 1, value: 'x' }] },
			},
			credentials: fx.credentials,
		});
		expect(error?.message).toMatch(/Manual variable 1: Label/);
		expect(fx.sim.requests).toHaveLength(0);
	});
});

describe('Message → Send Buttons', () => {
	const buttons = (count: number) => ({
		button: Array.from({ length: count }, (_, index) => ({
			title: `Option ${index + 1}`,
			id: index === 0 ? 'opt_1' : '',
		})),
	});

	it('sends the buttons as a JSON array (object with id, or plain title) with header, footer and media header', async () => {
		const { items, error } = await runNode({
			parameters: {
				...base,
				operation: 'sendButtons',
				message: 'Pick one',
				buttons: buttons(3),
				additionalFields: {
					headerText: 'Menu',
					footerText: 'Reply anytime',
					mediaUrl: 'https://cdn.example.com/menu.pdf',
					mediaType: 'document',
					mediaName: 'menu.pdf',
				},
			},
			credentials: fx.credentials,
		});
		expect(error).toBeUndefined();
		expect(fx.sim.requests[0]).toMatchObject({
			path: '/whatsapp/send/interactive-buttons',
			body: {
				phone_number_id: NUMBER,
				phone_number: PHONE,
				message: 'Pick one',
				buttons: JSON.stringify([{ id: 'opt_1', title: 'Option 1' }, 'Option 2', 'Option 3']),
				button_header_text: 'Menu',
				button_footer_text: 'Reply anytime',
				media_url: 'https://cdn.example.com/menu.pdf',
				media_type: 'document',
				media_name: 'menu.pdf',
			},
		});
		expect(items[0].json).toMatchObject({ success: true, message: 'Message sent successfully.' });
	});

	it.each([
		['0 buttons', { buttons: {} }, 'You can send between 1 and 3 reply buttons.'],
		['4 buttons', { buttons: buttons(4) }, 'You can send between 1 and 3 reply buttons.'],
		[
			'an audio media header',
			{ buttons: buttons(1), additionalFields: { mediaId: '123', mediaType: 'audio' } },
			'When sending media with buttons, media_type must be one of: image, video, document.',
		],
		[
			'an audio URL header',
			{ buttons: buttons(1), additionalFields: { mediaUrl: 'https://cdn.example.com/a.mp3' } },
			'When sending media with buttons, media_type must be one of: image, video, document.',
		],
		[
			'a media ID without type',
			{ buttons: buttons(1), additionalFields: { mediaId: '123' } },
			'Media Type is required for this media header',
		],
	])('refuses %s before sending, with the spec text', async (_name, extra, message) => {
		const { error } = await runNode({
			parameters: { ...base, operation: 'sendButtons', message: 'Pick', ...extra },
			credentials: fx.credentials,
		});
		expect(error?.message).toBe(message);
		expect(fx.sim.requests).toHaveLength(0);
	});

	it("returns the simulator's own text when the API refuses the buttons", async () => {
		fx.sim.faults.add('/whatsapp/send/interactive-buttons', {
			kind: 'status0',
			message: 'You can send between 1 and 3 reply buttons.',
		});
		const { error } = await runNode({
			parameters: { ...base, operation: 'sendButtons', message: 'Pick', buttons: buttons(1) },
			credentials: fx.credentials,
		});
		expect(error?.message).toBe('You can send between 1 and 3 reply buttons.');
	});
});

describe('Message → Send Media', () => {
	const bytes = Buffer.from('%PDF-1.4 fake invoice bytes \u0000\u0001\u00ff', 'binary');

	it('uploads a binary file, then sends it by media id, in one operation', async () => {
		const { items, error } = await runNode({
			parameters: {
				...base,
				operation: 'sendMedia',
				source: 'binary',
				binaryPropertyName: 'invoice',
				additionalFields: { caption: 'Your invoice' },
			},
			credentials: fx.credentials,
			items: [
				{
					json: {},
					binary: {
						invoice: { data: bytes, mimeType: 'application/pdf', fileName: 'invoice.pdf' },
					},
				},
			],
		});
		expect(error).toBeUndefined();
		expect(fx.sim.requests.map((request) => request.path)).toEqual([
			'/whatsapp/upload/media',
			'/whatsapp/send/file',
		]);
		const [upload, send] = fx.sim.requests;
		expect(upload.contentType).toMatch(/^multipart\/form-data; boundary=/);
		expect(upload.body).toEqual({ phone_number_id: NUMBER });
		expect(upload.files.media_file).toEqual({
			name: 'invoice.pdf',
			type: 'application/pdf',
			size: bytes.length,
			sha256: createHash('sha256').update(bytes).digest('hex'),
		});
		expect(upload.tokenIn).toEqual(expect.arrayContaining(['body', 'bearer']));
		const media = fx.sim.state.media[0];
		expect(send.body).toEqual({
			phone_number_id: NUMBER,
			phone_number: PHONE,
			media_id: media.media_id,
			media_type: 'document',
			media_name: 'invoice.pdf',
			media_caption_text: 'Your invoice',
		});
		expect(items[0].json).toMatchObject({ success: true, message: 'Message sent successfully.' });
	});

	it('infers the media type from the URL extension', async () => {
		await runNode({
			parameters: {
				...base,
				operation: 'sendMedia',
				source: 'url',
				mediaUrl: 'https://cdn.example.com/cake.JPG?v=2',
			},
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0].body).toEqual({
			phone_number_id: NUMBER,
			phone_number: PHONE,
			media_url: 'https://cdn.example.com/cake.JPG?v=2',
			media_type: 'image',
		});
	});

	it('names a document after the URL file when no name is given', async () => {
		await runNode({
			parameters: {
				...base,
				operation: 'sendMedia',
				source: 'url',
				mediaUrl: 'https://cdn.example.com/menu.pdf',
			},
			credentials: fx.credentials,
		});
		expect(fx.sim.requests[0].body).toMatchObject({
			media_type: 'document',
			media_name: 'menu.pdf',
		});
	});

	it.each([
		[
			'a missing binary property',
			{ source: 'binary', binaryPropertyName: 'photo' },
			/no binary property "photo"/,
		],
		['a media ID without type', { source: 'mediaId', mediaId: '17000' }, /^Media Type is required/],
		[
			'a URL without extension and type',
			{ source: 'url', mediaUrl: 'https://cdn.example.com/file' },
			/^Media Type is required/,
		],
		[
			'a phone number with letters',
			{ source: 'binary', binaryPropertyName: 'data', phoneNumber: 'abc' },
			/^Subscriber /,
		],
	])('refuses %s before sending anything', async (_name, extra, message) => {
		const { error } = await runNode({
			parameters: { ...base, operation: 'sendMedia', ...extra },
			credentials: fx.credentials,
			items: [
				{ json: {}, binary: { data: { data: bytes, mimeType: 'image/png', fileName: 'a.png' } } },
			],
		});
		expect(error?.message).toMatch(message);
		expect(fx.sim.requests).toHaveLength(0);
	});
});

describe('the media type a URL names: WhatsApp’s own table, the one the uploads check', () => {
	it('infers a type only where WhatsApp accepts the file as that type', () => {
		const inferred = Object.fromEntries(
			[
				'a.jpg',
				'b.JPEG',
				'c.png',
				'd.mp4',
				'e.3gpp',
				'f.oga',
				'g.opus',
				'h.pdf',
				'i.docx',
				'j.txt?x=1',
			]
				.concat(['k.webp', 'l.gif', 'm.mov', 'n.zip', 'o.csv', 'noextension'])
				.map((name) => [name, mediaTypeFromUrl(`https://cdn.example.com/${name}`) ?? null]),
		);
		expect(inferred).toEqual({
			'a.jpg': 'image',
			'b.JPEG': 'image',
			'c.png': 'image',
			'd.mp4': 'video',
			'e.3gpp': 'video',
			'f.oga': 'audio',
			'g.opus': 'audio',
			'h.pdf': 'document',
			'i.docx': 'document',
			'j.txt?x=1': 'document',
			// WebP is a sticker only; GIF, MOV, ZIP and CSV are not WhatsApp's: the node asks instead of guessing.
			'k.webp': null,
			'l.gif': null,
			'm.mov': null,
			'n.zip': null,
			'o.csv': null,
			noextension: null,
		});
		for (const { kind, extension } of Object.values(ACCEPTED_MIME_TYPES))
			expect([extension, mediaTypeFromUrl(`https://x.example/f.${extension}`)]).toEqual([
				extension,
				kind === 'sticker' ? undefined : kind,
			]);
	});

	it('a .gif URL without Media Type is refused before any request, saying what to set', async () => {
		const result = await runNode({
			parameters: {
				resource: 'message',
				operation: 'sendMedia',
				phoneNumberId: numberFromList,
				phoneNumber: PHONE,
				source: 'url',
				mediaUrl: 'https://cdn.example.com/party.gif',
			},
			credentials: fx.credentials,
		});
		expect(result.error?.message).toBe('Media Type is required');
		expect(result.error?.description).toContain('set "Media Type"');
		expect(fx.sim.requests).toEqual([]);
	});
});
