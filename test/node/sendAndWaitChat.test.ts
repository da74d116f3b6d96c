/**
 * Send and Wait answered in the WhatsApp chat (issue 45) inside n8n-core's engine: the question as reply buttons (or
 * text for Free Text), the labels checked before any request, and the Webhook Trigger taking the answer: a tap or the
 * next message resumes the waiting execution through its waiting URL (here an HTTP stand-in that hands the request to
 * the waiting run as n8n's WaitingWebhooks does) and starts no run; a second tap, a tap after the wait ended, a
 * message of someone else, a forged link and a trigger set to start runs take nothing.
 */
import type { IDataObject } from 'n8n-workflow';
import { BotSailorTrigger } from '../../nodes/BotSailorTrigger/BotSailorTrigger.node';
import {
	answerKey,
	bindingButtonId,
	chatLinkParameters,
	chatLinksIn,
	checkLink,
	linkOfButtonId,
	parseButtonId,
	QUESTION_MARK_LABEL,
	responderFields,
	verifiedResponder,
} from '../../nodes/shared/conversation/answerBinding';
import { mayAnswer } from '../../nodes/shared/conversation/answerTaking';
import { DOUBLE, linksOf, useChatAnswers } from '../harness/chatAnswers';
import { createPoller } from '../harness/harness';
import { byId, NUMBER, numberById, PHONE, seededPhone } from '../harness/params';
import {
	addMessage,
	addQuickReplyTemplate,
	QUICK_REPLY_TEMPLATE_ID,
	tapButton,
	tapTemplateButton,
} from '../simulator/control';
import { phoneMessage } from '../simulator/phone';

const chat = useChatAnswers();
const { fx, waiting, trigger, ask, requestsTo, texts, delivered } = chat;

describe('the question in the chat', () => {
	it('Approval goes out once as reply buttons with the labels; the text is the question alone, each link in its button’s id', async () => {
		const run = await ask({
			approvalOptions: {
				values: { approvalType: 'double', approveLabel: 'Ship it', disapproveLabel: 'Hold' },
			},
		});
		expect(run.error).toBeUndefined();
		expect(run.waiting).toBe(true);
		expect(requestsTo('/whatsapp/send')).toHaveLength(0);
		const [sent] = requestsTo('/whatsapp/send/interactive-buttons');
		expect(requestsTo('/whatsapp/send/interactive-buttons')).toHaveLength(1);
		const buttons = JSON.parse(String(sent.body.buttons)) as Array<{ id: string; title: string }>;
		expect(buttons.map((button) => button.title)).toEqual(['Ship it', 'Hold']);
		// No URL, no instructions: what the person reads is the question and the two buttons.
		expect(sent.body.message).toBe('Approve order A-1001?');
		for (const button of buttons) expect(button.id.length).toBeLessThanOrEqual(256);
		const links = linksOf(sent.body);
		expect(links.map((link) => link.binding.choice)).toEqual(['true', 'false']);
		expect(links[0].binding).toMatchObject({
			to: PHONE,
			target: `${waiting.base}/webhook-waiting/${run.executionId}/node-sw-1`,
			exp: 0,
		});
		expect(links[0].url).toContain('signature=');
		// The phone page shows what the platform delivers: the question and the buttons' titles (ids stay out of sight).
		const row = fx.sim.state.messages.find(
			(m) => m.wa_message_id === run.output('BotSailor')[0].json.wa_message_id,
		)!;
		expect(phoneMessage(fx.sim.state, row)).toMatchObject({
			text: 'Approve order A-1001?',
			buttons: [
				{ title: 'Ship it', id: buttons[0].id },
				{ title: 'Hold', id: buttons[1].id },
			],
		});
	});

	it('Free Text goes out as the question, one line saying a reply answers, and one button; no URL', async () => {
		await ask({ responseType: 'freeText' });
		expect(requestsTo('/whatsapp/send')).toHaveLength(0);
		const [sent] = requestsTo('/whatsapp/send/interactive-buttons');
		expect(sent.body.message).toBe('Approve order A-1001?\n\nReply to this message to answer.');
		expect(JSON.parse(String(sent.body.buttons))).toEqual([
			{ id: expect.stringMatching(/^bsw2:t\./), title: 'Respond' },
		]);
		expect(linksOf(sent.body).map((link) => link.binding.choice)).toEqual(['text']);
	});

	it('Answer on the Web Link: one short labelled link to the page with every answer; answering there resumes (answeredIn: link)', async () => {
		const run = await ask({ ...DOUBLE, webLink: true });
		const [sent] = requestsTo('/whatsapp/send/interactive-buttons');
		const message = String(sent.body.message);
		expect(message.match(/https?:\/\//g)).toHaveLength(1);
		expect(message).toMatch(/^Approve order A-1001\?\n\nAnswer on the web: http\S+$/);
		const url = message.split('Answer on the web: ')[1];
		const page = await run.open(url);
		expect(page.html).toContain('value="false"');
		const answer = await run.open(url, { method: 'POST', body: { approved: 'false' } });
		expect(answer.resumed).toBeDefined();
		expect(run.output('After')[0].json).toMatchObject({
			data: { approved: false },
			answeredIn: 'link',
		});
		expect(answer.html).toContain('Declined. Your answer was recorded.');
	});

	it.each([
		['Message and Draft Text', 'edit', 20, 'x'.repeat(1010)],
		['Message', 'double', 1025, ''],
	])(
		'a question over WhatsApp’s 1,024 characters of a button message is refused naming %s, before any request',
		async (field, approvalType, length, draftText) => {
			const run = await ask({
				message: 'y'.repeat(length),
				draftText,
				approvalOptions: { values: { approvalType } },
			});
			expect(run.error?.message).toMatch(
				new RegExp(`^${field} is too long for WhatsApp: \\d+ characters, at most 1024$`),
			);
			expect(fx.sim.requests).toHaveLength(0);
		},
	);

	it('an n8n address too long for the button’s id is refused naming it, before any request', async () => {
		const run = await ask(DOUBLE, { baseUrl: `http://n8n.${'a'.repeat(120)}.example.com` });
		expect(run.error?.message).toMatch(
			/^The answer link does not fit a WhatsApp reply button's id: \d+ characters, at most 256$/,
		);
		expect(fx.sim.requests).toHaveLength(0);
	});

	it('a saved workflow (node version 1.1) keeps its web link and its confirmation as it was', async () => {
		const run = await ask(DOUBLE, { typeVersion: 1.1 });
		const [sent] = requestsTo('/whatsapp/send/interactive-buttons');
		expect(String(sent.body.message)).toMatch(
			/^Approve order A-1001\?\n\nAnswer on the web: http\S+$/,
		);
		await trigger();
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		await delivered();
		expect(run.output('After')[0].json).toMatchObject({
			data: { approved: true },
			answeredIn: 'chat',
		});
		expect(texts().map((body) => body.message)).toEqual(['Thank you, your answer was recorded.']);
	});

	it.each([
		['approveLabel', 'Approve Button Label'],
		['disapproveLabel', 'Disapprove Button Label'],
	])(
		'a %s over 20 characters is refused naming the field, before any request',
		async (name, field) => {
			const run = await ask({
				approvalOptions: {
					values: { approvalType: 'double', [name]: 'Approve this order now!' },
				},
			});
			expect(run.error?.message).toBe(
				`${field} is too long for a WhatsApp reply button: 23 characters, at most 20`,
			);
			expect(fx.sim.requests).toHaveLength(0);
		},
	);

	it('a long label is fine on a web page (Answer In: Web Page keeps what it did)', async () => {
		const run = await ask({
			answerIn: 'webPage',
			approvalOptions: { values: { approveLabel: 'Approve this order now!' } },
		});
		expect(run.waiting).toBe(true);
		expect(requestsTo('/whatsapp/send')).toHaveLength(1);
		expect(chatLinksIn(String(texts()[0].message))).toEqual([]);
		expect(String(texts()[0].message)).toContain('Approve this order now!: http');
	});
});

describe('the Webhook Trigger takes the answer', () => {
	it('a tap on Approve resumes the execution with the responder, starts no run and confirms in the chat', async () => {
		const run = await ask(DOUBLE);
		await trigger();
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		await delivered();
		expect(chat.receiver.received.map((entry) => entry.body)).toHaveLength(1);
		expect(chat.runner.started()).toEqual([]);
		expect(run.waiting).toBe(false);
		expect(run.output('After')[0].json).toEqual({
			data: { approved: true, respondedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
			answer: 'Approve',
			recipient: { phone_number: PHONE, name: expect.any(String) },
			answeredIn: 'chat',
		});
		expect(texts()).toEqual([
			expect.objectContaining({
				phone_number: PHONE,
				message: 'Approved. Thank you, your answer was recorded.',
			}),
		]);
	});

	it('a tap on Decline resumes it with approved: false; the confirmation is the one set on the node', async () => {
		const run = await ask({ ...DOUBLE, chatConfirmation: 'Noted, we hold the order.' });
		await trigger();
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Decline' });
		await delivered();
		expect(chat.runner.started()).toEqual([]);
		expect(run.output('After')[0].json).toMatchObject({
			data: { approved: false },
			answer: 'Decline',
			answeredIn: 'chat',
		});
		expect(texts().map((body) => body.message)).toEqual(['Declined. Noted, we hold the order.']);
	});

	it('a second tap (or a replay) resumes nothing and is answered "already answered" in the chat; no run starts', async () => {
		const run = await ask(DOUBLE);
		await trigger();
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		await delivered();
		const first = run.output('After');
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Decline' });
		await delivered();
		expect(chat.runner.started()).toEqual([]);
		expect(run.output('After')).toEqual(first);
		expect(texts().map((body) => body.message)).toEqual([
			'Approved. Thank you, your answer was recorded.',
			expect.stringMatching(
				/^This question was already answered by .+ \(\+15550100000\) on .+ UTC\./,
			),
		]);
	});

	it('a tap after the wait timed out resumes nothing: "already answered", no run', async () => {
		const run = await ask({
			...DOUBLE,
			options: {
				limitWaitTime: {
					values: { limitType: 'afterTimeInterval', resumeAmount: 1, resumeUnit: 'hours' },
				},
			},
		});
		await run.timeOut();
		expect(run.output('After')[0].json.data).toEqual({ timedOut: true, approved: false });
		await trigger();
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		await delivered();
		expect(chat.runner.started()).toEqual([]);
		expect(texts().map((body) => body.message)).toEqual([
			'This question was already answered. Only the first answer counts.',
		]);
	});

	it("Free Text: the recipient's next message is the answer; the one after it starts a run as usual", async () => {
		const run = await ask({ responseType: 'freeText' });
		await trigger();
		addMessage(fx.sim.state, { phone_number: PHONE, text: 'Tuesday at 10 works' });
		await delivered();
		expect(chat.runner.started()).toEqual([]);
		expect(run.output('After')[0].json).toMatchObject({
			data: { text: 'Tuesday at 10 works' },
			recipient: { phone_number: PHONE },
			answeredIn: 'chat',
		});
		addMessage(fx.sim.state, { phone_number: PHONE, text: 'and thanks!' });
		await delivered();
		expect(chat.runner.started()).toEqual([expect.objectContaining({ text: 'and thanks!' })]);
		expect(texts().map((body) => body.message)).toEqual(['Thank you, your answer was recorded.']);
	});

	it('Free Text: a tap on its button asks for the answer (no run); the next message answers', async () => {
		const run = await ask({ responseType: 'freeText' });
		await trigger();
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Respond' });
		await delivered();
		expect(chat.runner.started()).toEqual([]);
		expect(run.waiting).toBe(true);
		addMessage(fx.sim.state, { phone_number: PHONE, text: 'Friday' });
		await delivered();
		expect(run.output('After')[0].json).toMatchObject({
			data: { text: 'Friday' },
			answeredIn: 'chat',
		});
		expect(texts().map((body) => body.message)).toEqual([
			'Send your answer as your next message.',
			'Thank you, your answer was recorded.',
		]);
	});

	it('a delivery without the Webhook Trigger’s secret (a forged webhook) resumes nothing and reads nothing', async () => {
		const run = await ask(DOUBLE);
		await trigger({ secret: 'the-url-secret' });
		const before = fx.sim.requests.length;
		// The simulator posts to the URL without ?secret=: what anyone who learned the URL could send.
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		await delivered();
		expect(chat.receiver.received.map((entry) => entry.status)).toEqual([401]);
		expect(run.waiting).toBe(true);
		expect(chat.runner.started()).toEqual([]);
		expect(fx.sim.requests.slice(before)).toEqual([]);
	});

	it('another subscriber’s message answers nothing: it starts a run, the question keeps waiting', async () => {
		const run = await ask({ responseType: 'freeText' });
		await trigger();
		addMessage(fx.sim.state, { phone_number: seededPhone(2), text: 'Tuesday' });
		await delivered();
		expect(chat.runner.started()).toEqual([expect.objectContaining({ text: 'Tuesday' })]);
		expect(run.waiting).toBe(true);
	});

	it('with Send and Wait Answers: Start a Run for Every Message, a tap starts a run and answers nothing', async () => {
		const run = await ask(DOUBLE);
		await trigger({ sendAndWaitAnswers: 'startRun' });
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		await delivered();
		expect(chat.runner.started()).toEqual([expect.objectContaining({ text: 'Approve' })]);
		expect(run.waiting).toBe(true);
	});

	it('a question answered on the web page (Answer In: Web Page) is never taken from the chat', async () => {
		const run = await ask({ answerIn: 'webPage', responseType: 'freeText' });
		await trigger();
		addMessage(fx.sim.state, { phone_number: PHONE, text: 'Tuesday' });
		await delivered();
		expect(chat.runner.started()).toEqual([expect.objectContaining({ text: 'Tuesday' })]);
		expect(run.waiting).toBe(true);
	});
});

describe('an ordinary message costs the platform nothing (issue 54 point 1)', () => {
	it('the question marks its recipient; the Webhook Trigger reads only for a marked subscriber: 0 requests for 10 ordinary messages', async () => {
		const run = await ask(DOUBLE);
		const mark = fx.sim.state.labels.find((label) => label.label_name === QUESTION_MARK_LABEL)!;
		expect(fx.sim.state.subscriber(NUMBER, PHONE)!.label_ids).toContain(mark.id);
		await trigger();
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		await delivered();
		expect(run.output('After')[0].json).toMatchObject({ data: { approved: true } });
		const before = fx.sim.requests.length;
		for (let index = 0; index < 10; index++)
			addMessage(fx.sim.state, { phone_number: seededPhone(2 + (index % 3)), text: `Hi ${index}` });
		await delivered();
		expect(chat.runner.started()).toHaveLength(10);
		expect(fx.sim.requests.slice(before).map((request) => request.path)).toEqual([]);
	});

	it('mayAnswer: read while the deployment was not seen listing labels; then only for the mark', () => {
		const number = 'a-number-never-seen';
		expect(mayAnswer(number, {})).toBe(true);
		expect(mayAnswer(number, { label_names: 'VIP' })).toBe(false);
		expect(mayAnswer(number, {})).toBe(false);
		expect(mayAnswer(number, { label_names: `VIP,${QUESTION_MARK_LABEL}` })).toBe(true);
	});
});

describe('several recipients: the first answer wins', () => {
	it('asks each with links bound to them; the first tap resumes with that responder, a later one is "already answered"', async () => {
		const other = seededPhone(2);
		const run = await ask({ ...DOUBLE, moreRecipients: `+${other}, ${PHONE}` });
		expect(run.waiting).toBe(true);
		const sent = requestsTo('/whatsapp/send/interactive-buttons');
		expect(sent.map((request) => request.body.phone_number)).toEqual([PHONE, other]);
		expect(sent.map((request) => linksOf(request.body)[0].binding.to)).toEqual([PHONE, other]);
		// What the node holds while waiting says who else was asked.
		expect(run.output('BotSailor')[0].json).toMatchObject({
			recipient: { phone_number: PHONE },
			also_asked: [other],
		});
		await trigger();
		tapButton(fx.sim.state, { phone_number: other, title: 'Decline' });
		await delivered();
		expect(run.output('After')[0].json).toMatchObject({
			data: { approved: false },
			recipient: { phone_number: other },
			answeredIn: 'chat',
		});
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		await delivered();
		expect(chat.runner.started()).toEqual([]);
		// This process took the first answer: the late one is told by whom and when.
		expect(texts().map((body) => [body.phone_number, body.message])).toEqual([
			[other, 'Declined. Thank you, your answer was recorded.'],
			[
				PHONE,
				expect.stringMatching(
					new RegExp(
						`^This question was already answered by \\S+ \\(\\+${other}\\) on \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\. Only the first answer counts\\.$`,
					),
				),
			],
		]);
		expect(run.output('After')).toHaveLength(1);
	});

	it('a recipient that is not a phone number is refused naming the field, before any request', async () => {
		const run = await ask({ ...DOUBLE, moreRecipients: '15550100002, call me' });
		expect(run.error?.message).toBe('More Recipients: "call me" is not a phone number');
		expect(fx.sim.requests).toHaveLength(0);
	});
});

describe("the polling trigger's New Message takes the answer", () => {
	it('a tap found by the poll resumes the execution and is not emitted; other messages are', async () => {
		const poller = createPoller(
			new BotSailorTrigger(),
			{ event: 'newMessage', phoneNumberId: numberById, sendAndWaitAnswers: 'take' },
			fx.credentials,
		);
		expect(await poller.poll()).toEqual([]);
		const run = await ask(DOUBLE);
		const tap = tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		const other = addMessage(fx.sim.state, { phone_number: seededPhone(2), text: 'Open today?' });
		const emitted = (await poller.poll()).map((item) => item.json.wa_message_id);
		expect(emitted).toEqual([other.wa_message_id]);
		expect(emitted).not.toContain(tap.wa_message_id);
		expect(run.output('After')[0].json).toMatchObject({
			data: { approved: true },
			answeredIn: 'chat',
		});
		expect(texts().map((body) => body.message)).toEqual([
			'Approved. Thank you, your answer was recorded.',
		]);
		// A second tap found by a poll: nothing resumes, nothing is emitted, and no reply (a webhook may have sent one).
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Decline' });
		expect(await poller.poll()).toEqual([]);
		expect(texts()).toHaveLength(1);
	});

	it('finds the answer in the page its poll read: no conversation read of its own, for an ordinary message or a tap (issue 54)', async () => {
		const reads = () => requestsTo('/whatsapp/get/conversation').length;
		const poller = (sendAndWaitAnswers: string) =>
			createPoller(
				new BotSailorTrigger(),
				{ event: 'newMessage', phoneNumberId: numberById, sendAndWaitAnswers },
				fx.credentials,
			);
		const taking = poller('take');
		const plain = poller('startRun');
		await taking.poll();
		await plain.poll();
		const run = await ask(DOUBLE);
		/** The conversation reads of one poll. */
		const readsOf = async (trigger: ReturnType<typeof poller>) => {
			const before = reads();
			const items = await trigger.poll();
			return { reads: reads() - before, items: items.length };
		};
		addMessage(fx.sim.state, { phone_number: seededPhone(2), text: 'Open today?' });
		const ordinary = await readsOf(taking);
		expect(ordinary).toEqual({ reads: (await readsOf(plain)).reads, items: 1 });
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		const tap = await readsOf(taking);
		expect(tap).toEqual({ reads: (await readsOf(plain)).reads, items: 0 });
		expect(run.output('After')[0].json).toMatchObject({ data: { approved: true } });
	});

	it('version 1 (saved workflows) emits every message, a tap too', async () => {
		const poller = createPoller(
			new BotSailorTrigger(),
			{ event: 'newMessage', phoneNumberId: numberById },
			fx.credentials,
		);
		await poller.poll();
		const run = await ask(DOUBLE);
		const tap = tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		expect((await poller.poll()).map((item) => item.json.wa_message_id)).toEqual([
			tap.wa_message_id,
		]);
		expect(run.waiting).toBe(true);
	});
});

describe('Send As Template in the chat (outside the 24-hour window): a tap on its quick-reply buttons', () => {
	const templateSends = () => requestsTo('/whatsapp/send/template');
	const asTemplate = (extra: IDataObject = {}): IDataObject => ({
		...DOUBLE,
		sendAs: 'template',
		templateId: byId(QUICK_REPLY_TEMPLATE_ID),
		linkVariable: 'templateVariable-answer_link-2',
		manualVariables: { variable: [{ label: 'order', position: 1, value: '={{ $json.order }}' }] },
		...extra,
	});
	const pickLink = () =>
		chatLinksIn(String(templateSends()[0].body['templateVariable-answer_link-2']))[0];

	it("the template goes out once, its link bound to the template's button texts; a tap on the second declines (answeredIn: chat), no run starts", async () => {
		addQuickReplyTemplate(fx.sim.state, NUMBER);
		const run = await ask(asTemplate({ chatConfirmation: 'Noted.' }));
		expect(run.error).toBeUndefined();
		expect(run.waiting).toBe(true);
		expect(templateSends()).toHaveLength(1);
		expect(requestsTo('/whatsapp/send/interactive-buttons')).toHaveLength(0);
		expect(pickLink().binding).toMatchObject({
			choice: 'pick',
			to: PHONE,
			titles: ['Yes, ship it', 'No, hold it'],
		});
		await trigger();
		tapTemplateButton(fx.sim.state, { phone_number: PHONE, title: 'No, hold it' });
		await delivered();
		expect(chat.receiver.received.map((entry) => entry.body)).toEqual([
			expect.objectContaining({ user_message: 'No, hold it' }),
		]);
		expect(chat.runner.started()).toEqual([]);
		expect(run.waiting).toBe(false);
		expect(run.output('After')[0].json).toEqual({
			data: { approved: false, respondedAt: expect.stringMatching(/^\d{4}-/) },
			answer: 'Decline',
			recipient: { phone_number: PHONE, name: expect.any(String) },
			answeredIn: 'chat',
		});
		expect(texts().map((body) => body.message)).toEqual(['Declined. Noted.']);
		// A second tap: nothing resumes, "already answered".
		tapTemplateButton(fx.sim.state, { phone_number: PHONE, title: 'Yes, ship it' });
		await delivered();
		expect(chat.runner.started()).toEqual([]);
		expect(texts().at(-1)?.message).toMatch(/^This question was already answered by /);
	});

	it('a tap on the first button approves, also taken by the polling trigger', async () => {
		addQuickReplyTemplate(fx.sim.state, NUMBER);
		const poller = createPoller(
			new BotSailorTrigger(),
			{ event: 'newMessage', phoneNumberId: numberById, sendAndWaitAnswers: 'take' },
			fx.credentials,
		);
		await poller.poll();
		const run = await ask(asTemplate());
		tapTemplateButton(fx.sim.state, { phone_number: PHONE, title: 'Yes, ship it' });
		expect(await poller.poll()).toEqual([]);
		expect(run.output('After')[0].json).toMatchObject({
			data: { approved: true },
			answer: 'Approve',
			answeredIn: 'chat',
		});
	});

	it("the button's text typed as a message is not a tap: it starts a run, the question still waits", async () => {
		addQuickReplyTemplate(fx.sim.state, NUMBER);
		const run = await ask(asTemplate());
		await trigger();
		addMessage(fx.sim.state, { phone_number: PHONE, text: 'Yes, ship it' });
		await delivered();
		expect(chat.runner.started()).toHaveLength(1);
		expect(run.waiting).toBe(true);
	});

	it('a template without quick-reply buttons: the node cannot tell a tap, the link answers (answeredIn: link)', async () => {
		addQuickReplyTemplate(fx.sim.state, NUMBER, []);
		const run = await ask(asTemplate());
		expect(run.waiting).toBe(true);
		const link = pickLink();
		expect(link.binding.titles).toBeUndefined();
		const answer = await run.open(link.url, { method: 'POST', body: { approved: 'true' } });
		expect(answer.status).toBe(200);
		expect(run.output('After')[0].json).toMatchObject({
			data: { approved: true },
			answer: 'Approve',
			answeredIn: 'link',
		});
	});

	it('a link whose button texts were changed is forged', () => {
		const key = answerKey('token-1');
		const binding = {
			target: 'https://n8n.example.com/webhook-waiting/231/node-1',
			to: PHONE,
			q: 'a1b2c3d4e5f6',
			choice: 'pick' as const,
			exp: 0,
			titles: ['Yes', 'No'],
		};
		const at = (params: Record<string, string>) =>
			chatLinksIn(`${binding.target}?${new URLSearchParams(params).toString()}`)[0];
		expect(checkLink(key, at(chatLinkParameters(key, binding)), PHONE)).toBe('ok');
		expect(
			checkLink(key, at({ ...chatLinkParameters(key, binding), pick: 'No\nYes' }), PHONE),
		).toBe('forged');
	});
});

describe('the simulator: a tap on a reply button', () => {
	it("posts the incoming-message webhook with the button's title; the row carries the button in Meta's shape", async () => {
		await ask(DOUBLE);
		await trigger({ sendAndWaitAnswers: 'startRun' });
		// Over the control API, as the e2e suite and the demo's phone page do.
		const response = await fetch(`${fx.sim.url}/__control/tap`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ phone_number: PHONE, index: 1 }),
		});
		const { result } = (await response.json()) as { result: { wa_message_id: string } };
		await delivered();
		const row = fx.sim.state.messages.find(
			(message) => message.wa_message_id === result.wa_message_id,
		)!;
		const buttons = JSON.parse(
			String(requestsTo('/whatsapp/send/interactive-buttons')[0].body.buttons),
		) as Array<{ id: string; title: string }>;
		expect(JSON.parse(row.message_content)).toEqual({
			type: 'interactive',
			interactive: { type: 'button_reply', button_reply: buttons[1] },
		});
		expect(chat.receiver.received.map((entry) => entry.body)).toEqual([
			expect.objectContaining({ user_message: 'Decline', wa_message_id: result.wa_message_id }),
		]);
	});
});

describe('the signed binding (shared/conversation/answerBinding.ts)', () => {
	const key = answerKey('token-1');
	const binding = {
		target: 'https://n8n.example.com/webhook-waiting/231/node-1',
		to: PHONE,
		q: 'a1b2c3d4e5f6',
		choice: 'true' as const,
		exp: 2_000_000_000,
	};
	const link = (params: Record<string, string>, at = binding.target) =>
		chatLinksIn(`x ${at}?${new URLSearchParams(params).toString()}&signature=s`)[0];

	it('a button id carries the link whole: n8n’s signature and our query rebuilt in their signed order', () => {
		const signature = 'ab'.repeat(32);
		const url = `${binding.target}?${new URLSearchParams(chatLinkParameters(key, binding)).toString()}&signature=${signature}`;
		const id = bindingButtonId(url);
		expect(id.length).toBeLessThan(url.length - 40);
		expect(linkOfButtonId(id)).toEqual(chatLinksIn(url)[0]);
		expect(linkOfButtonId(id)!.url).toBe(url);
		expect(checkLink(key, linkOfButtonId(id)!, PHONE, 1_000)).toBe('ok');
		expect(linkOfButtonId(id.replace('bsw2:y.', 'bsw2:n.'))).toMatchObject({
			binding: { choice: 'false' },
		});
		expect(checkLink(key, linkOfButtonId(id.replace('bsw2:y.', 'bsw2:n.'))!, PHONE, 1_000)).toBe(
			'forged',
		);
		expect(parseButtonId(id)).toBeUndefined();
	});

	it('holds for the recipient until the limit, and for nobody else', () => {
		const signed = link(chatLinkParameters(key, binding));
		expect(checkLink(key, signed, PHONE, 1_000)).toBe('ok');
		expect(checkLink(key, signed, seededPhone(3), 1_000)).toBe('notRecipient');
		expect(checkLink(key, signed, PHONE, 2_000_000_000_000)).toBe('expired');
		// Another credential's key, a changed subscriber, answer or limit: forged.
		expect(checkLink(answerKey('token-2'), signed, PHONE, 1_000)).toBe('forged');
		// The same parameters on another host or another execution: forged.
		for (const at of [
			'https://evil.example.com/webhook-waiting/231/node-1',
			'https://n8n.example.com/webhook-waiting/232/node-1',
		])
			expect(checkLink(key, link(chatLinkParameters(key, binding), at), PHONE, 1_000)).toBe(
				'forged',
			);
		const changes: Array<Record<string, string>> = [
			{ to: seededPhone(3) },
			{ approved: 'false' },
			{ exp: '0' },
		];
		for (const change of changes) {
			const changed = link({ ...chatLinkParameters(key, binding), ...change });
			expect(checkLink(key, changed, change.to ?? PHONE, 1_000)).toBe('forged');
		}
	});

	it('the responder a trigger posts is taken only under the key', () => {
		const who = { phone_number: PHONE, name: 'Jonas', at: '2026-11-27T10:00:00.000Z' };
		const fields = responderFields(key, binding.q, 'true', who);
		expect(verifiedResponder(key, binding.q, 'true', fields)).toEqual(who);
		expect(verifiedResponder(key, binding.q, 'false', fields)).toBeUndefined();
		expect(verifiedResponder(answerKey('other'), binding.q, 'true', fields)).toBeUndefined();
		expect(
			verifiedResponder(key, binding.q, 'true', { ...fields, chat_from: seededPhone(3) }),
		).toBeUndefined();
	});
});
