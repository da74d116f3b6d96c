/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- drives a real n8n from plain Node.js, not node code */
/**
 * Media both ways in a real n8n 2.41.1 with N8N_DEFAULT_BINARY_DATA_MODE=filesystem: binary data are
 * files in n8n's store, read by our nodes as streams. Runs examples/send-file-from-binary.json and
 * examples/download-media.json, a 20 MB file read from disk and sent, an oversized image refused,
 * and a download that fails.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addMediaMessage, SEED_FILES } from '../simulator/media';
import { startSimulator, type Simulator } from '../simulator/server';
import {
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	EXAMPLES_DIR,
	ensureBuilt,
	execute,
	findFreePortPair,
	importCredential,
	importWorkflows,
	installCommunityPackage,
	installedN8nVersion,
	instance,
	nodeOutput,
	pack,
	provision,
	activateWorkflow,
	afterFirstPoll,
	versionAtLeast,
	deactivateWorkflow,
	latestExecution,
	Session,
	type IRun,
	type N8nInstance,
	type Server,
	startWithOwner,
} from './n8n';
import { AVA, BEN, NUMBER, seededPhone } from '../harness/params';

const MB = 1024 * 1024;
const credentials = { botSailorApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let sim: Simulator;
let n8n: N8nInstance;
let work: string;
let files: string;

/** Bytes that do not repeat in short cycles, so a truncated or reordered upload changes the hash. */
function bytesOf(size: number): Buffer {
	const bytes = Buffer.alloc(size);
	let seed = 7;
	for (let index = 0; index + 4 <= size; index += 4) {
		seed = (seed * 1103515245 + 12345) >>> 0;
		bytes.writeUInt32LE(seed, index);
	}
	return bytes;
}

/**
 * A binary's `fileSize` as the n8n under test writes it: 2.x in binary units ("23.4 KB", given as
 * `text2x`); 1.x with its own pretty-bytes 5 (decimal units, "24 kB"), loaded from the host n8n.
 */
function shownSize(bytes: number, text2x: string): string {
	if (versionAtLeast(n8n.paths.n8nVersion, '2.0.0')) return text2x;
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the host n8n's copy, resolved at runtime
	const prettyBytes = require(join(n8n.paths.n8nBin, '..', 'pretty-bytes')) as (
		size: number,
	) => string;
	return prettyBytes(bytes);
}

/** The binary data of a node's output items (first output, last run). */
function binaries(
	run: IRun,
	nodeName: string,
): Array<Record<string, Record<string, unknown>> | undefined> {
	const runs = run.data.resultData.runData[nodeName];
	return (runs[runs.length - 1].data?.main[0] ?? []).map(
		(item) => item.binary as Record<string, Record<string, unknown>> | undefined,
	);
}

/** Manual Trigger → Read/Write Files (read `file`) → one BotSailor node. */
function readAndRun(id: string, file: string, name: string, parameters: Record<string, unknown>) {
	return {
		id,
		name: id,
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
		nodes: [
			{
				parameters: {},
				id: 'start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: { fileSelector: join(files, file), options: {} },
				id: 'read',
				name: 'Read File',
				type: 'n8n-nodes-base.readWriteFile',
				typeVersion: 1.1,
				position: [220, 0],
			},
			{
				parameters,
				id: 'botsailor',
				name,
				type: 'n8n-nodes-botsailor.botSailor',
				typeVersion: 1,
				position: [440, 0],
				credentials,
			},
		],
		connections: {
			Start: { main: [[{ node: 'Read File', type: 'main', index: 0 }]] },
			'Read File': { main: [[{ node: name, type: 'main', index: 0 }]] },
		},
	};
}

const sendMedia = {
	resource: 'message',
	operation: 'sendMedia',
	phoneNumberId: { __rl: true, mode: 'id', value: NUMBER },
	phoneNumber: AVA,
	source: 'binary',
	binaryPropertyName: 'data',
};

beforeAll(async () => {
	const paths = provision();
	ensureBuilt();
	sim = await startSimulator();
	work = mkdtempSync(join(tmpdir(), 'botsailor-e2e-media-'));
	files = join(work, 'files');
	mkdirSync(files);
	writeFileSync(join(files, 'brochure.pdf'), bytesOf(20 * MB));
	writeFileSync(join(files, 'poster.png'), bytesOf(6 * MB));
	n8n = instance(paths, join(work, 'user'), await findFreePortPair(), {
		N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
		N8N_RESTRICT_FILE_ACCESS_TO: files,
	});
	installCommunityPackage(n8n, pack(join(work, 'pack')));
	await importCredential(n8n, { baseUrl: sim.url, apiToken: sim.token });
	const workflows = join(work, 'workflows');
	mkdirSync(workflows);
	for (const example of ['send-file-from-binary.json', 'download-media.json'])
		cpSync(join(EXAMPLES_DIR, example), join(workflows, example));
	const write = (workflow: { id: string; [key: string]: unknown }) =>
		writeFileSync(join(workflows, `${workflow.id}.json`), JSON.stringify(workflow));
	write(
		readAndRun('bsE2eBigFile', 'brochure.pdf', 'Send Brochure', {
			...sendMedia,
			additionalFields: { caption: 'Our brochure' },
		}),
	);
	write(
		readAndRun('bsE2eUpload', 'brochure.pdf', 'Upload Brochure', {
			resource: 'media',
			operation: 'upload',
			phoneNumberId: { __rl: true, mode: 'id', value: NUMBER },
			binaryPropertyName: 'data',
		}),
	);
	write(readAndRun('bsE2eTooBig', 'poster.png', 'Send Poster', sendMedia));
	write({
		id: 'bsE2eDeadLink',
		name: 'bsE2eDeadLink',
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
		nodes: [
			{
				parameters: {},
				id: 'start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: {
					mode: 'raw',
					jsonOutput: JSON.stringify({
						wa_message_id: 'wamid.DEAD',
						message_content: {
							type: 'image',
							image: { link: SEED_FILES.expired, mime_type: 'image/jpeg' },
						},
					}),
					options: {},
				},
				id: 'message',
				name: 'Message',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [220, 0],
			},
			{
				parameters: { resource: 'message', operation: 'downloadMedia', options: {} },
				id: 'download',
				name: 'Download Photo',
				type: 'n8n-nodes-botsailor.botSailor',
				typeVersion: 1,
				position: [440, 0],
				credentials,
			},
		],
		connections: {
			Start: { main: [[{ node: 'Message', type: 'main', index: 0 }]] },
			Message: { main: [[{ node: 'Download Photo', type: 'main', index: 0 }]] },
		},
	});
	write({
		id: 'bsE2eTriggerMedia',
		name: 'bsE2eTriggerMedia',
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
		nodes: [
			{
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					event: 'newMessage',
					phoneNumberId: { __rl: true, mode: 'id', value: NUMBER },
					messageOptions: { downloadMedia: true },
				},
				id: 'trigger',
				name: 'On New Message',
				type: 'n8n-nodes-botsailor.botSailorTrigger',
				typeVersion: 1,
				position: [0, 0],
				credentials,
			},
		],
		connections: {},
	});
	await importWorkflows(n8n, workflows);
}, 600_000);

afterAll(async () => {
	await sim?.close();
	if (work) rmSync(work, { recursive: true, force: true });
});

beforeEach(() => sim.reset());

const uploads = () => sim.requests.filter((request) => request.path === '/whatsapp/upload/media');

describe(`media in n8n ${installedN8nVersion()}, filesystem binary mode`, () => {
	test('examples/send-file-from-binary.json: the file n8n stored is uploaded, then sent as a document', async () => {
		const run = await execute(n8n, 'bsExSendFile');
		expect(run.status).toBe('success');
		expect(binaries(run, 'Convert to File')[0]?.data).toEqual(
			expect.objectContaining({
				id: expect.stringMatching(/^filesystem-v2:/),
				fileName: 'menu.txt',
			}),
		);
		const menu = Buffer.from(
			"Sunrise Bakery - today's menu\nSourdough 4.50\nCroissant 2.20\nCarrot cake 3.80\n",
		);
		expect(uploads()[0]?.files.media_file).toEqual({
			name: 'menu.txt',
			type: 'text/plain',
			size: menu.length,
			sha256: sha256(menu),
		});
		expect(sim.requests.find((request) => request.path === '/whatsapp/send/file')?.body).toEqual(
			expect.objectContaining({
				media_type: 'document',
				media_name: 'menu.txt',
				media_id: expect.any(String),
			}),
		);
		expect(nodeOutput(run, 'Send Menu as Document')).toEqual([
			expect.objectContaining({ success: true, wa_message_id: expect.any(String) }),
		]);
	});

	test('a 20 MB PDF read from disk: Send Media streams every byte to upload media, then sends it', async () => {
		const run = await execute(n8n, 'bsE2eBigFile');
		expect(run.status).toBe('success');
		expect(binaries(run, 'Read File')[0]?.data).toEqual(
			expect.objectContaining({ id: expect.stringMatching(/^filesystem-v2:/) }),
		);
		const bytes = readFileSync(join(files, 'brochure.pdf'));
		expect(uploads()[0]?.files.media_file).toEqual({
			name: 'brochure.pdf',
			type: 'application/pdf',
			size: bytes.length,
			sha256: sha256(bytes),
		});
		expect(sim.requests.find((request) => request.path === '/whatsapp/send/file')?.body).toEqual(
			expect.objectContaining({
				media_type: 'document',
				media_name: 'brochure.pdf',
				media_caption_text: 'Our brochure',
			}),
		);
	});

	test('Media → Upload streams the same file and outputs its media ID', async () => {
		const run = await execute(n8n, 'bsE2eUpload');
		expect(nodeOutput(run, 'Upload Brochure')).toEqual([
			{
				success: true,
				media_id: expect.any(String),
				media_type: 'document',
				media_name: 'brochure.pdf',
				message: expect.stringContaining('Media has been uploaded successfully'),
			},
		]);
		expect(uploads()[0]?.files.media_file.sha256).toBe(
			sha256(readFileSync(join(files, 'brochure.pdf'))),
		);
	});

	test('a 6 MB image fails with the limit named, and nothing is uploaded', async () => {
		await expect(execute(n8n, 'bsE2eTooBig')).rejects.toThrow(
			/The file "poster\.png" is 6 MB \(6,291,456 bytes\): WhatsApp accepts images up to 5 MB/,
		);
		expect(uploads()).toEqual([]);
	});

	test('examples/download-media.json: a voice note and a photo become binary files, a reply each; the text passes', async () => {
		const run = await execute(n8n, 'bsExDownloadMedia');
		expect(run.status).toBe('success');
		const downloaded = binaries(run, 'Download Media');
		expect(downloaded.map((binary) => binary?.data)).toEqual([
			expect.objectContaining({
				id: expect.stringMatching(/^filesystem-v2:/),
				mimeType: 'audio/ogg; codecs=opus',
				fileName: 'voice-note.ogg',
			}),
			expect.objectContaining({
				id: expect.stringMatching(/^filesystem-v2:/),
				mimeType: 'image/jpeg',
				fileName: 'cake-photo.jpg',
			}),
			undefined,
		]);
		expect(nodeOutput(run, 'Download Media')[2]).toEqual(
			expect.objectContaining({
				wa_message_id: 'wamid.SAMPLETEXT1',
				text: 'Are you open on Sunday?',
			}),
		);
		expect(nodeOutput(run, 'Describe the File')).toEqual([
			expect.objectContaining({
				phone_number: AVA,
				file_name: 'voice-note.ogg',
				mime_type: 'audio/ogg; codecs=opus',
				file_size: shownSize(24_000, '23.4 KB'),
			}),
			expect.objectContaining({
				phone_number: BEN,
				file_name: 'cake-photo.jpg',
				mime_type: 'image/jpeg',
				file_size: shownSize(48_000, '46.9 KB'),
			}),
		]);
		const replies = sim.requests
			.filter((request) => request.path === '/whatsapp/send')
			.map((request) => request.body);
		expect(replies).toEqual([
			{
				phone_number_id: NUMBER,
				phone_number: AVA,
				message: `Thanks Ava! We received your voice note (${shownSize(24_000, '23.4 KB')}). A baker will get back to you shortly.`,
			},
			{
				phone_number_id: NUMBER,
				phone_number: BEN,
				message: `Thanks Ben! We received your photo (${shownSize(48_000, '46.9 KB')}). A baker will get back to you shortly.`,
			},
		]);
	});

	test('a link that answers with a login page fails the run with a clear error, not a binary of HTML', async () => {
		await expect(execute(n8n, 'bsE2eDeadLink')).rejects.toThrow(
			/The media link answered with a web page, not the file/,
		);
	});
});

describe('n8n start, filesystem binary mode', () => {
	let server: Server;
	let session: Session;

	beforeAll(async () => {
		({ server, session } = await startWithOwner(n8n));
	}, 300_000);

	afterAll(async () => {
		await server?.stop();
	});

	test('an active BotSailor Trigger with Download Media: a voice note arrives with its file attached', async () => {
		const since = sim.requests.length;
		await activateWorkflow(session, 'bsE2eTriggerMedia');
		// Activation polls once (that sets the cursor); a message after that must reach the next poll (every minute).
		await afterFirstPoll(sim.requests, since);
		const voice = bytesOf(40_000);
		addMediaMessage(sim.state, {
			phone_number: seededPhone(4),
			type: 'voice',
			bytes: voice,
			mime_type: 'audio/ogg; codecs=opus',
		});
		const deadline = Date.now() + 150_000;
		let run: (IRun & { id: string }) | undefined;
		while (!run && Date.now() < deadline) {
			run = await latestExecution(n8n, session, 'bsE2eTriggerMedia');
			if (!run) await new Promise((resolve) => setTimeout(resolve, 2000));
		}
		if (!run)
			throw new Error(
				`no execution of the trigger workflow within 150 s\n--- n8n output ---\n${server.output()}`,
			);
		expect(run.status).toBe('success');
		expect(nodeOutput(run, 'On New Message')).toEqual([
			expect.objectContaining({
				message_type: 'audio',
				phone_number: seededPhone(4),
				direction: 'incoming',
			}),
		]);
		// n8n 2.x records the byte count (`bytes`); 1.x only the rounded `fileSize` text.
		const size = versionAtLeast(n8n.paths.n8nVersion, '2.0.0')
			? { bytes: voice.length }
			: { fileSize: shownSize(voice.length, '') };
		expect(binaries(run, 'On New Message')[0]?.data).toEqual(
			expect.objectContaining({
				id: expect.stringMatching(/^filesystem-v2:/),
				mimeType: 'audio/ogg; codecs=opus',
				...size,
			}),
		);
		await deactivateWorkflow(session, 'bsE2eTriggerMedia');
	}, 240_000);
});
