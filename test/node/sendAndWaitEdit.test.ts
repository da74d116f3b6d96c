/**
 * Send and Wait → Type of Approval: Approve, Edit or Decline (issue 53 point 5) in n8n-core's engine against the
 * simulator: the draft shown with three buttons; Approve takes the draft, Decline refuses, Edit asks for the corrected
 * text (in the chat: the person's next message, taken by the Webhook Trigger; on the page: a text box filled with the
 * draft); the first answer wins, a second changes nothing, and an Edit tap with no text before the limit ends as the
 * limit says.
 */
import type { INode } from 'n8n-workflow';
import { readQuestion } from '../../nodes/BotSailor/sendAndWait/question';
import { DOUBLE, linksOf, useChatAnswers } from '../harness/chatAnswers';
import { PHONE, seededPhone } from '../harness/params';
import { addMessage, tapButton } from '../simulator/control';

const chat = useChatAnswers();
const { fx, trigger, ask, requestsTo, texts, delivered } = chat;
const DRAFT = 'Hi Ava, your order A-1001 ships on Tuesday.';
const EDIT = {
	...DOUBLE,
	approvalOptions: { values: { approvalType: 'edit' } },
	message: '=Send this reply about {{ $json.order }}?',
	draftText: DRAFT,
};
const ASKED = 'Send the corrected text as your next message.';
const question = (phone = PHONE) =>
	requestsTo('/whatsapp/send/interactive-buttons').find(
		(request) => request.body.phone_number === phone,
	)!.body;

describe('Approve, Edit or Decline in the chat', () => {
	it('the draft goes out below the question with Approve, Edit and Decline; no URL', async () => {
		const run = await ask(EDIT);
		expect(run.waiting).toBe(true);
		const sent = question();
		expect(sent.message).toBe(`Send this reply about A-1001?\n\n${DRAFT}`);
		expect(
			(JSON.parse(String(sent.buttons)) as Array<{ title: string }>).map((b) => b.title),
		).toEqual(['Approve', 'Edit', 'Decline']);
		expect(linksOf(sent).map((link) => link.binding.choice)).toEqual(['true', 'edit', 'false']);
	});

	it('Approve takes the draft as it is: approved, not edited, text = draft; "Approved." in the chat', async () => {
		const run = await ask(EDIT);
		await trigger();
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Approve' });
		await delivered();
		expect(chat.runner.started()).toEqual([]);
		expect(run.output('After')[0].json).toMatchObject({
			data: { approved: true, edited: false, text: DRAFT, draft: DRAFT },
			recipient: { phone_number: PHONE },
			answeredIn: 'chat',
		});
		expect(texts().map((body) => body.message)).toEqual([
			'Approved. Thank you, your answer was recorded.',
		]);
	});

	it('Decline refuses: approved false, text null; the confirmation in the user’s labels', async () => {
		const run = await ask({
			...EDIT,
			approvalOptions: {
				values: { approvalType: 'edit', disapproveLabel: 'Not now', editLabel: 'Change' },
			},
		});
		await trigger();
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Not now' });
		await delivered();
		expect(run.output('After')[0].json).toMatchObject({
			data: { approved: false, edited: false, text: null, draft: DRAFT },
			answer: 'Not now',
		});
		expect(texts().map((body) => body.message)).toEqual([
			'"Not now" chosen. Thank you, your answer was recorded.',
		]);
	});

	it('Edit by chat: the tap asks for the text (no run, still waiting); the next message resumes with it', async () => {
		const run = await ask(EDIT);
		await trigger();
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Edit' });
		await delivered();
		expect(chat.runner.started()).toEqual([]);
		expect(run.waiting).toBe(true);
		expect(texts().map((body) => body.message)).toEqual([ASKED]);
		addMessage(fx.sim.state, { phone_number: PHONE, text: 'Hi Ava, it ships on Wednesday.' });
		await delivered();
		expect(chat.runner.started()).toEqual([]);
		expect(run.output('After')[0].json).toMatchObject({
			data: {
				approved: true,
				edited: true,
				text: 'Hi Ava, it ships on Wednesday.',
				draft: DRAFT,
			},
			answer: 'Edit',
			recipient: { phone_number: PHONE },
			answeredIn: 'chat',
		});
		expect(texts().map((body) => body.message)).toEqual([
			ASKED,
			'Edited and approved. Thank you, your answer was recorded.',
		]);
	});

	it('a second answer changes nothing: a tap after the edit is "already answered", a message starts a run', async () => {
		const run = await ask(EDIT);
		await trigger();
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Edit' });
		addMessage(fx.sim.state, { phone_number: PHONE, text: 'Corrected text' });
		await delivered();
		const first = run.output('After');
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Decline' });
		await delivered();
		addMessage(fx.sim.state, { phone_number: PHONE, text: 'and another thing' });
		await delivered();
		expect(run.output('After')).toEqual(first);
		expect(texts().map((body) => body.message)).toEqual([
			ASKED,
			'Edited and approved. Thank you, your answer was recorded.',
			expect.stringMatching(/^This question was already answered by /),
		]);
		expect(chat.runner.started()).toEqual([expect.objectContaining({ text: 'and another thing' })]);
	});

	it('a message without an Edit tap is no answer: it starts a run, the question still waits', async () => {
		const run = await ask(EDIT);
		await trigger();
		addMessage(fx.sim.state, { phone_number: PHONE, text: 'What is this?' });
		await delivered();
		expect(chat.runner.started()).toEqual([expect.objectContaining({ text: 'What is this?' })]);
		expect(run.waiting).toBe(true);
	});

	it('an Edit tap with no text before the limit ends as the limit says (timedOut)', async () => {
		const run = await ask({
			...EDIT,
			options: {
				limitWaitTime: {
					values: { limitType: 'afterTimeInterval', resumeAmount: 1, resumeUnit: 'hours' },
				},
			},
		});
		await trigger();
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Edit' });
		await delivered();
		await run.timeOut();
		expect(run.output('After')[0].json.data).toEqual({
			timedOut: true,
			approved: false,
			edited: false,
			text: null,
			draft: DRAFT,
		});
		// The text arriving after the limit resumes nothing.
		addMessage(fx.sim.state, { phone_number: PHONE, text: 'Too late' });
		await delivered();
		expect(run.output('After')).toHaveLength(1);
		expect(texts().map((body) => body.message)).toEqual([
			ASKED,
			'This question was already answered. Only the first answer counts.',
		]);
	});

	it('More Recipients: one taps Edit, another approves first; the approval wins, the later text is "already answered"', async () => {
		const other = seededPhone(2);
		const run = await ask({ ...EDIT, moreRecipients: other });
		await trigger();
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Edit' });
		await delivered();
		tapButton(fx.sim.state, { phone_number: other, title: 'Approve' });
		await delivered();
		expect(run.output('After')[0].json).toMatchObject({
			data: { approved: true, edited: false, text: DRAFT },
			recipient: { phone_number: other },
		});
		addMessage(fx.sim.state, { phone_number: PHONE, text: 'My correction' });
		await delivered();
		// A later Edit tap is not asked for a text in vain: the question was answered.
		tapButton(fx.sim.state, { phone_number: PHONE, title: 'Edit' });
		await delivered();
		expect(run.output('After')).toHaveLength(1);
		expect(texts().map((body) => [body.phone_number, body.message])).toEqual([
			[PHONE, ASKED],
			[other, 'Approved. Thank you, your answer was recorded.'],
			[PHONE, expect.stringMatching(/^This question was already answered by /)],
			[PHONE, expect.stringMatching(/^This question was already answered by /)],
		]);
	});

	it('Draft Text empty is refused naming the field, before any request', async () => {
		const run = await ask({ ...EDIT, draftText: ' ' });
		expect(run.error?.message).toBe('Draft Text is empty');
		expect(fx.sim.requests).toHaveLength(0);
	});
});

describe('Approve, Edit or Decline where an edit could not be used', () => {
	const asked: Record<string, unknown> = {
		message: 'Send this reply?',
		draftText: DRAFT,
		approvalOptions: { values: { approvalType: 'edit' } },
		answerIn: 'chat',
	};
	const param = (name: string, fallback: unknown) =>
		name
			.split('.')
			.reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key], asked) ??
		fallback;
	const node = (type: string) =>
		({
			id: 'n',
			name: 'Review',
			type,
			typeVersion: 1.2,
			position: [0, 0],
			parameters: {},
		}) as INode;

	it('as a Human review tool it is refused naming it (n8n runs the tool with the agent’s own input)', () => {
		expect(() => readQuestion(node('n8n-nodes-botsailor.botSailorHitlTool'), param)).toThrow(
			'Approve, Edit or Decline is not available as a Human review tool',
		);
		expect(readQuestion(node('n8n-nodes-botsailor.botSailor'), param).edit).toEqual({
			label: 'Edit',
			draft: DRAFT,
		});
	});
});

describe('Approve, Edit or Decline on the page', () => {
	it('Edit by page: the Edit link opens a text box filled with the draft; sending it resumes (answeredIn: link)', async () => {
		const run = await ask(EDIT);
		const edit = linksOf(question()).find((link) => link.binding.choice === 'edit')!;
		const page = await run.open(edit.url);
		expect(page.html).toContain(`<textarea id="f0" name="field-0">${DRAFT}</textarea>`);
		const empty = await run.open(edit.url, { method: 'POST', body: { 'field-0': ' ' } });
		expect(empty.status).toBe(400);
		expect(run.waiting).toBe(true);
		const answer = await run.open(edit.url, {
			method: 'POST',
			body: { 'field-0': 'Ships Wednesday.' },
		});
		expect(answer.html).toContain('Edited and approved. Your answer was recorded.');
		expect(run.output('After')[0].json).toMatchObject({
			data: { approved: true, edited: true, text: 'Ships Wednesday.', draft: DRAFT },
			answeredIn: 'link',
		});
		// A second answer changes nothing.
		const again = await run.open(linksOf(question())[0].url, { method: 'POST', race: true });
		expect(again.status).toBe(409);
		expect(run.output('After')).toHaveLength(1);
	});

	it('Answer In: Web Page lists Approve, Edit and Decline links; the page of every answer takes an edit', async () => {
		const run = await ask({ ...EDIT, answerIn: 'webPage' });
		const message = String(requestsTo('/whatsapp/send')[0].body.message);
		expect(message).toContain(`${DRAFT}\n\nApprove: http`);
		expect(message.match(/^(Approve|Edit|Decline): http/gm)).toEqual([
			'Approve: http',
			'Edit: http',
			'Decline: http',
		]);
		const webLink = await ask({ ...EDIT, webLink: true });
		const url = String(question().message).split('Answer on the web: ')[1];
		const page = await webLink.open(url);
		expect(page.html).toContain('name="approved" value="edit"');
		await webLink.open(url, {
			method: 'POST',
			body: { approved: 'edit', 'field-0': 'Edited on the page' },
		});
		expect(webLink.output('After')[0].json).toMatchObject({
			data: { approved: true, edited: true, text: 'Edited on the page' },
			answeredIn: 'link',
		});
		expect(run.waiting).toBe(true);
	});
});
