/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code in plain Node.js (a port where nothing listens), not node code */
/**
 * Hostile input, round three (issue 50, points 1 to 4), in n8n's engine: a Send and Wait question answered twice at the
 * same moment resumes once (the waiting server holds the answers until all arrived, so n8n reads the execution as
 * waiting for each, as its waiting webhooks do); a tap is never lost when n8n's waiting URL fails; the answer is
 * credited to who gave it; and every check of the chat answer refuses a changed link through the Webhook Trigger.
 */
import type { IDataObject } from 'n8n-workflow';
import { BotSailorTrigger } from '../../nodes/BotSailorTrigger/BotSailorTrigger.node';
import {
	answerKey,
	bindingButtonId,
	chatLinkParameters,
	chatLinksIn,
	linkOfButtonId,
	type ChatLink,
} from '../../nodes/shared/conversation/answerBinding';
import { DOUBLE, linksOf, useChatAnswers } from '../harness/chatAnswers';
import { createPoller } from '../harness/harness';
import { NUMBER, numberById, PHONE, seededPhone } from '../harness/params';
import type { WaitingRun } from '../harness/waiting';
import { addMessage, tapButton } from '../simulator/control';

const chat = useChatAnswers();
const { fx, waiting, trigger, ask, requestsTo, texts, delivered } = chat;
const OTHER = seededPhone(2);

/** The answer links of the question sent to a number (reply buttons, or text for Web Page). */
function linksTo(phone: string): ChatLink[] {
	const sent = [
		...requestsTo('/whatsapp/send/interactive-buttons'),
		...requestsTo('/whatsapp/send'),
	].find((request) => request.body.phone_number === phone);
	return sent ? linksOf(sent.body) : [];
}

/** The links of a Web Page question (no binding of ours): every URL in the text. */
const pageLinks = () =>
	String(requestsTo('/whatsapp/send')[0].body.message).match(/https?:\/\/\S+/g) ?? [];

/** The confirmation: the decision in the labels' words, then Confirmation in Chat. */
const CONFIRMED = expect.stringMatching(
	/^((Approved|Declined)\. )?Thank you, your answer was recorded\.$/,
);
const firstName = (phone: string) => fx.sim.state.subscriber(NUMBER, phone)!.first_name;

describe('two answers at the same moment resume once', () => {
	it.each([
		['Web Page', 'webPage'],
		['WhatsApp Chat', 'chat'],
	])(
		'%s: a double tap on the page (Approve and Decline posted together) resumes once; the other gets 409',
		async (_, answerIn) => {
			const run = await ask({ ...DOUBLE, answerIn });
			const [approve, decline] =
				answerIn === 'chat' ? linksTo(PHONE).map((l) => l.url) : pageLinks();
			const answers = await Promise.all(
				[approve, decline].map(async (link) => await run.open(link, { method: 'POST' })),
			);
			expect(answers.filter((answer) => answer.resumed)).toHaveLength(1);
			expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
			expect(run.output('After')).toHaveLength(1);
		},
	);

	it('Approve by one of More Recipients and Decline by another, at once through the Webhook Trigger: one resume, the other told "already answered"', async () => {
		const run = await ask({ ...DOUBLE, moreRecipients: OTHER });
		await trigger();
		const gathered = waiting.hold(2);
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		tapButton(fx.sim.state, { phone_number: OTHER, title: 'Decline' });
		await gathered;
		await delivered();
		expect(waiting.posts).toHaveLength(2);
		expect(waiting.resumes).toBe(1);
		expect(chat.runner.started()).toEqual([]);
		expect(run.output('After')).toHaveLength(1);
		const winner = String((run.output('After')[0].json.recipient as IDataObject).phone_number);
		const late = winner === PHONE ? OTHER : PHONE;
		expect(texts().map((body) => [body.phone_number, body.message])).toEqual(
			expect.arrayContaining([
				[winner, CONFIRMED],
				[late, expect.stringMatching(/^This question was already answered/)],
			]),
		);
		expect(texts()).toHaveLength(2);
	});

	it('a tap and a link answer at once: one resume', async () => {
		const run = await ask(DOUBLE);
		await trigger();
		const gathered = waiting.hold(2);
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		const page = fetch(linksTo(PHONE)[1].url, { method: 'POST' });
		await gathered;
		await Promise.all([delivered(), page]);
		expect(waiting.resumes).toBe(1);
		expect(run.output('After')).toHaveLength(1);
		expect(chat.runner.started()).toEqual([]);
	});

	it('the Webhook Trigger and the polling trigger (another workflow) take the same tap: one request to n8n, one resume, nobody told anything false', async () => {
		const poller = createPoller(
			new BotSailorTrigger(),
			{ event: 'newMessage', phoneNumberId: numberById, sendAndWaitAnswers: 'take' },
			fx.credentials,
		);
		await poller.poll();
		const run = await ask(DOUBLE);
		await trigger();
		const gathered = waiting.hold(2);
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		const webhook = delivered();
		const poll = poller.poll();
		// Both posting (today) fills the hold; a trigger that leaves the tap to the other one ends first.
		await Promise.race([gathered, webhook, poll]);
		waiting.release();
		const [, emitted] = await Promise.all([webhook, poll]);
		expect(waiting.posts).toHaveLength(1);
		expect(waiting.resumes).toBe(1);
		expect(emitted).toEqual([]);
		expect(chat.runner.started()).toEqual([]);
		expect(texts().map((body) => body.message)).toEqual([CONFIRMED]);
		expect(run.output('After')).toHaveLength(1);
	});
});

describe("a tap is never lost when n8n's waiting URL fails", () => {
	it.each([500, 502, 503, 504])(
		'n8n answers %i twice, then takes the answer: the tap resumes once, confirmed, no run',
		async (status) => {
			const run = await ask(DOUBLE);
			await trigger();
			waiting.script.push(status, status);
			tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
			await delivered();
			expect(waiting.posts).toHaveLength(3);
			expect(waiting.resumes).toBe(1);
			expect(run.output('After')[0].json).toMatchObject({ data: { approved: true } });
			expect(chat.runner.started()).toEqual([]);
			expect(texts().map((body) => body.message)).toEqual([CONFIRMED]);
		},
	);

	it('the connection to n8n is dropped once: the tap resumes on the next try', async () => {
		const run = await ask(DOUBLE);
		await trigger();
		waiting.script.push('drop');
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		await delivered();
		expect(waiting.resumes).toBe(1);
		expect(run.waiting).toBe(false);
		expect(chat.runner.started()).toEqual([]);
	});

	it('n8n answers 503 on every try: the tap starts a run with the message, nobody is told anything, the question still waits', async () => {
		const run = await ask(DOUBLE);
		await trigger();
		waiting.script.push(...Array<number>(10).fill(503));
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		await delivered();
		expect(waiting.posts.length).toBeGreaterThan(1);
		expect(waiting.posts.length).toBeLessThan(10);
		expect(chat.runner.started()).toEqual([expect.objectContaining({ text: 'Approve' })]);
		expect(texts()).toEqual([]);
		expect(run.waiting).toBe(true);
	});

	it('n8n cannot be reached at all: the tap starts a run, nobody is told anything', async () => {
		const closed = `http://127.0.0.1:${await closedPort()}`;
		const run = await ask(DOUBLE, { baseUrl: closed });
		await trigger();
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		await delivered();
		expect(chat.runner.started()).toEqual([expect.objectContaining({ text: 'Approve' })]);
		expect(texts()).toEqual([]);
		expect(run.waiting).toBe(true);
	});

	it('a 404 (no sign that n8n took an answer) starts a run and tells nobody "already answered"', async () => {
		await ask(DOUBLE);
		await trigger();
		waiting.script.push(404);
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		await delivered();
		expect(chat.runner.started()).toEqual([expect.objectContaining({ text: 'Approve' })]);
		expect(texts()).toEqual([]);
	});

	it('n8n\'s own sign (its page for an execution that no longer waits) still gets "already answered"', async () => {
		const run = await ask(DOUBLE);
		await run.open(linksTo(PHONE)[0].url, { method: 'POST' });
		await trigger();
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Decline' });
		await delivered();
		expect(chat.runner.started()).toEqual([]);
		expect(texts().map((body) => body.message)).toEqual([
			expect.stringMatching(/^This question was already answered/),
		]);
	});
});

describe('the answer is credited to who gave it', () => {
	it("the second of More Recipients taps: their number and the name their tap carried, not the first recipient's", async () => {
		const run = await ask({ ...DOUBLE, moreRecipients: OTHER });
		await trigger();
		tapButton(fx.sim.state, { phone_number: OTHER, title: 'Approve' });
		await delivered();
		expect(run.output('After')[0].json).toMatchObject({
			recipient: { phone_number: OTHER, name: firstName(OTHER) },
			answeredIn: 'chat',
		});
		expect(JSON.stringify(run.output('After')[0].json.recipient)).not.toContain(firstName(PHONE));
	});

	it('the second of More Recipients answers through their own link: their number, no one else’s name', async () => {
		const run = await ask({ ...DOUBLE, moreRecipients: OTHER });
		const answer = await run.open(linksTo(OTHER)[1].url, { method: 'POST' });
		expect(answer.resumed).toBeDefined();
		expect(run.output('After')[0].json).toMatchObject({
			data: { approved: false },
			recipient: { phone_number: OTHER },
			answeredIn: 'link',
		});
		expect(JSON.stringify(run.output('After')[0].json.recipient)).not.toContain(firstName(PHONE));
	});

	it('the first recipient’s link: their number and the name looked up when the question was sent', async () => {
		const run = await ask({ ...DOUBLE, moreRecipients: OTHER });
		await run.open(linksTo(PHONE)[0].url, { method: 'POST' });
		expect(run.output('After')[0].json).toMatchObject({
			recipient: { phone_number: PHONE, name: expect.stringContaining(firstName(PHONE)) },
			answeredIn: 'link',
		});
	});

	it('a reply of the second recipient to a Free Text question: their number and name', async () => {
		const run = await ask({ responseType: 'freeText', moreRecipients: OTHER });
		await trigger();
		addMessage(fx.sim.state, { phone_number: OTHER, text: 'Tuesday works' });
		await delivered();
		expect(run.output('After')[0].json).toMatchObject({
			data: { text: 'Tuesday works' },
			recipient: { phone_number: OTHER, name: firstName(OTHER) },
			answeredIn: 'chat',
		});
	});

	it('a responder posted without our HMAC (forged chat fields on a link) is not taken: the link’s subscriber is credited', async () => {
		const run = await ask(DOUBLE);
		await run.open(linksTo(PHONE)[0].url, {
			method: 'POST',
			body: {
				chat_from: OTHER,
				chat_name: 'Mallory',
				chat_at: '2026-01-01T00:00:00.000Z',
				chat_mac: 'x'.repeat(22),
			},
		});
		expect(run.output('After')[0].json).toMatchObject({
			recipient: { phone_number: PHONE },
			answeredIn: 'link',
		});
	});
});

/** The bot's row holding the question to a number (the platform's copy of what was sent). */
function questionRow(phone: string) {
	return [...fx.sim.state.messages]
		.reverse()
		.find(
			(row) =>
				row.whatsapp_bot_subscriber_subscriber_id === phone &&
				row.sender !== 'user' &&
				row.message_content.includes('bsw2:'),
		)!;
}

/** The first button's answer link in the question row (its id), changed (its query, or its address). */
function changeLink(row: { message_content: string }, change: (link: URL) => void) {
	const content = JSON.parse(row.message_content) as {
		interactive: { buttons: Array<{ id: string }> };
	};
	const [button] = content.interactive.buttons;
	const url = new URL(linkOfButtonId(button.id)!.url);
	change(url);
	button.id = bindingButtonId(url.toString());
	row.message_content = JSON.stringify(content);
}

/** The link's parameters of ours signed again under a key (n8n's own signature is left as it was). */
function resign(url: URL, key: Buffer): void {
	const [link] = chatLinksIn(url.toString());
	for (const [name, value] of Object.entries(chatLinkParameters(key, link.binding)))
		url.searchParams.set(name, value);
}

describe('every check of the chat answer, through the Webhook Trigger: a changed link resumes nothing, n8n is not called, the tap starts a run', () => {
	const refused = async (run: WaitingRun, from = PHONE) => {
		await delivered();
		expect(waiting.posts).toEqual([]);
		expect(run.waiting).toBe(true);
		expect(chat.runner.started()).toEqual([expect.objectContaining({ phone_number: from })]);
		expect(texts()).toEqual([]);
	};
	const twoHours = Math.floor(Date.now() / 1000) + 7200;

	it.each<[string, (url: URL) => void, 'Approve' | 'Decline']>([
		[
			'the answer (approved=true made false)',
			(url) => url.searchParams.set('approved', 'false'),
			'Approve',
		],
		[
			'the limit (no limit made one)',
			(url) => url.searchParams.set('exp', String(twoHours)),
			'Approve',
		],
		[
			'the limit made unreadable, even signed with the right key (only a fault could make one)',
			(url) => {
				url.searchParams.set('exp', 'NaN');
				resign(url, answerKey(fx.credentials.apiToken));
			},
			'Approve',
		],
		[
			'the execution',
			(url) => (url.pathname = url.pathname.replace(/wait-execution-\d+/, 'wait-execution-999')),
			'Approve',
		],
		[
			'the signature (signed with another token)',
			(url) => resign(url, answerKey('another-token')),
			'Approve',
		],
	])('%s', async (_, change, title) => {
		const run = await ask(DOUBLE);
		changeLink(questionRow(PHONE), change);
		await trigger();
		tapButton(fx.sim.state, { phone_number: PHONE, title });
		await refused(run);
	});

	it('the subscriber (a copy in another chat, its link re-bound to that subscriber)', async () => {
		const run = await ask(DOUBLE);
		const copy = JSON.parse(questionRow(PHONE).message_content) as IDataObject;
		addMessage(fx.sim.state, { phone_number: OTHER, sender: 'bot', content: copy });
		changeLink(questionRow(OTHER), (url) => url.searchParams.set('to', OTHER));
		await trigger();
		tapButton(fx.sim.state, { phone_number: OTHER, title: 'Approve' });
		await refused(run, OTHER);
	});

	it('a limit that has passed (the link signed with the right key): "expired", n8n is not called, no run', async () => {
		const run = await ask({
			...DOUBLE,
			options: {
				limitWaitTime: {
					values: { limitType: 'afterTimeInterval', resumeAmount: 1, resumeUnit: 'hours' },
				},
			},
		});
		changeLink(questionRow(PHONE), (url) => {
			url.searchParams.set('exp', String(Math.floor(Date.now() / 1000) - 60));
			resign(url, answerKey(fx.credentials.apiToken));
		});
		await trigger();
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		await delivered();
		expect(waiting.posts).toEqual([]);
		expect(run.waiting).toBe(true);
		expect(chat.runner.started()).toEqual([]);
		expect(texts().map((body) => body.message)).toEqual([
			'This question has expired: your answer was not recorded.',
		]);
	});

	it('the same copy tapped by the other subscriber, its link unchanged (bound to the first): not the recipient', async () => {
		const run = await ask(DOUBLE);
		const copy = JSON.parse(questionRow(PHONE).message_content) as IDataObject;
		addMessage(fx.sim.state, { phone_number: OTHER, sender: 'bot', content: copy });
		await trigger();
		tapButton(fx.sim.state, { phone_number: OTHER, title: 'Approve' });
		await refused(run, OTHER);
	});
});

async function closedPort(): Promise<number> {
	const net = await import('node:net');
	const server = net.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}
