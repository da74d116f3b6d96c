import type {
	IDataObject,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import {
	answerKeyOf,
	chatLinksIn,
	checkLink,
	verifiedResponder,
} from '../../shared/conversation/answerBinding';
import { boundedMemory } from '../../shared/parameters/boundedMemory';
import { approvalPage, choicePage, donePage, editPage, formPage } from './page';
import {
	chatConfirmationText,
	decisionText,
	isHumanReview,
	readQuestion,
	type FormField,
	type Question,
} from './question';

/**
 * The answer side of Send and Wait: n8n calls the node's `webhook()` when a link of a waiting execution
 * is opened (`restartWebhook`). A GET only shows a page (a link preview fetches the link too, and must
 * not answer); the answer is the POST of the page's button or form, which resumes the execution.
 */
export const sendAndWaitWebhooks: IWebhookDescription[] = (['GET', 'POST'] as const).map(
	(httpMethod) => ({
		name: 'default',
		httpMethod,
		responseMode: 'onReceived',
		responseData: '',
		path: '={{ $nodeId }}',
		restartWebhook: true,
		isFullPath: true,
	}),
);

/**
 * Questions answered in this n8n process: the first answer counts, a second one (a double tap, a second
 * person, an old link of a question asked again in a loop) is refused. n8n itself refuses answers to a
 * finished execution; this covers the moments before, and the moment itself: n8n reads the execution as waiting
 * for every request that arrives together, so the first answer is decided here. Bounded; per process (queue mode:
 * per webhook process, docs/queue-mode.md).
 */
const answered = boundedMemory<string, string>({ maxEntries: 10_000, maxBytes: 4_000_000 });

/**
 * Check and record in one step (no await between): the time of an earlier answer, or undefined when this one is the
 * first, now recorded.
 */
function claim(key: string, at: string): string | undefined {
	const before = answered.get(key);
	if (before) return before;
	answered.set(key, at);
	return undefined;
}

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

function sendPage(response: Response, status: number, html: string): IWebhookResponseData {
	response.status(status);
	response.setHeader('Content-Type', 'text/html; charset=utf-8');
	response.setHeader('Cache-Control', 'no-store');
	response.end(html);
	return { noWebhookResponse: true };
}

const digits = (value: unknown) => String(value ?? '').replace(/\D/g, '');

/** What a form's answer must be (issue 42 point 7): checked here, whatever the browser's own checks let through. */
const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** A calendar date as the page's date field sends it (YYYY-MM-DD), or undefined. */
function calendarDate(value: string): string | undefined {
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
	if (!match) return undefined;
	const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
	return date.toISOString().slice(0, 10) === value ? value : undefined;
}

/** One field's answer, or the error shown next to it. */
function fieldAnswer(
	field: FormField,
	raw: unknown,
): { value: IDataObject[string] } | { error: string } {
	if (Array.isArray(raw) && field.type !== 'text' && field.type !== 'textarea')
		return { error: 'Give one answer.' };
	const value = Array.isArray(raw) ? raw.join(', ') : String(raw ?? '').trim();
	if (!value) return field.required ? { error: 'Required: fill this in.' } : { value: null };
	switch (field.type) {
		case 'number': {
			const number = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value)
				? Number(value)
				: Number.NaN;
			return Number.isFinite(number)
				? { value: number }
				: { error: 'Enter a number, e.g. 12 or 2.5.' };
		}
		case 'dropdown':
			return field.options.includes(value)
				? { value }
				: { error: `Choose one of: ${field.options.join(', ')}.` };
		case 'date': {
			const date = calendarDate(value);
			return date ? { value: date } : { error: 'Enter a date as YYYY-MM-DD, e.g. 2026-12-01.' };
		}
		case 'email':
			return EMAIL.test(value)
				? { value }
				: { error: 'Enter an email address, e.g. name@example.com.' };
		default:
			return { value };
	}
}

/**
 * A form's answers by field label: numbers as numbers, dates as YYYY-MM-DD, empty optional fields as null; or, when
 * any answer is not what its field takes, the error of each such field (by index) and what was sent, to show again.
 */
function formAnswers(
	fields: FormField[],
	body: IDataObject,
): { answers: IDataObject } | { errors: Record<number, string>; values: string[] } {
	const answers: IDataObject = {};
	const errors: Record<number, string> = {};
	for (const [index, field] of fields.entries()) {
		const checked = fieldAnswer(field, body[`field-${index}`]);
		if ('error' in checked) errors[index] = checked.error;
		else answers[field.label] = checked.value;
	}
	if (Object.keys(errors).length === 0) return { answers };
	const values = fields.map((_, index) => {
		const raw = body[`field-${index}`];
		return Array.isArray(raw) ? raw.join(', ') : String(raw ?? '');
	});
	return { errors, values };
}

/** As a Human review tool: the gated tool's input, as the run saw it (`$tool`), for the page's question. */
function toolParameters(context: IWebhookFunctions): unknown {
	// evaluateExpression is feature-detected: older hosts' webhook context lacks it.
	if (!isHumanReview(context.getNode()) || typeof context.evaluateExpression !== 'function')
		return undefined;
	try {
		return context.evaluateExpression('{{ $tool.parameters }}', 0);
	} catch {
		return undefined;
	}
}

/**
 * The subscriber's name as the question knew it: the waiting items carry `recipient` (execute.ts looked it up when it
 * sent the question), and n8n gives the webhook the waiting node's input. Nothing is asked of the platform here: the
 * answer is taken and the page shown at once, whatever the platform does.
 */
function askedName(context: IWebhookFunctions, phoneNumber: string): string | undefined {
	if (!phoneNumber || typeof context.evaluateExpression !== 'function') return undefined;
	try {
		const recipient = context.evaluateExpression('{{ $json.recipient }}', 0) as unknown;
		if (!recipient || typeof recipient !== 'object') return undefined;
		const { name, phone_number } = recipient as IDataObject;
		return digits(phone_number) === phoneNumber && typeof name === 'string' && name.trim()
			? name
			: undefined;
	} catch {
		return undefined;
	}
}

type Answer = 'true' | 'false' | 'edit';

const optionOf = (question: Question, answer: Answer) =>
	answer === 'edit'
		? (question.edit?.label ?? 'Edit')
		: answer === 'true'
			? question.approveLabel
			: (question.disapproveLabel ?? 'Decline');

/** An answer a link or a page's button names: Edit only where the question offers it, Decline where it does. */
function answerOf(question: Question, value: unknown): Answer | undefined {
	if (value === 'true') return 'true';
	if (value === 'false' && question.disapproveLabel) return 'false';
	if (value === 'edit' && question.edit) return 'edit';
	return undefined;
}

function alreadyAnswered(response: Response, at: string): IWebhookResponseData {
	return sendPage(
		response,
		409,
		donePage(
			'Already answered',
			`This question was answered on ${at.replace('T', ' ').slice(0, 16)} UTC. Only the first answer counts.`,
		),
	);
}

/** Who gave an answer: a number, the name the answer carried, and whether a trigger took it in the chat. */
interface Responder {
	phone_number: string;
	name?: string;
	inChat?: boolean;
}

/** The address the question's links were made for (execute.ts `address`): n8n's waiting URL of this execution and node. */
function linkAddress(context: IWebhookFunctions, path: string): string | undefined {
	if (typeof context.evaluateExpression !== 'function') return undefined;
	try {
		const base = new URL(String(context.evaluateExpression('{{ $execution.resumeUrl }}', 0)));
		const [execution, node] = path.split('/').slice(-2);
		return `${base.origin}${base.pathname.split('/').slice(0, -1).join('/')}/${execution}/${node}`;
	} catch {
		return undefined;
	}
}

/**
 * Who answered a question meant for the chat, from what verifies under the credential's key
 * (shared/conversation/answerBinding.ts): the responder a BotSailor trigger posted with a tap or reply, else the
 * subscriber the opened link is bound to (More Recipients: each has links of their own), else the one asked.
 */
async function chatResponder(
	context: IWebhookFunctions,
	answer: {
		path: string;
		query: Record<string, string | undefined>;
		body: IDataObject;
		value: string;
		asked: string;
	},
): Promise<Responder> {
	const key = await answerKeyOf(context);
	const q = String(answer.query.q ?? '');
	const chat = verifiedResponder(key, q, answer.value, answer.body);
	if (chat) return { phone_number: chat.phone_number, name: chat.name, inChat: true };
	const address = linkAddress(context, answer.path);
	const parameters = Object.entries(answer.query).filter(
		(entry): entry is [string, string] => typeof entry[1] === 'string',
	);
	const [link] = address
		? chatLinksIn(`${address}?${new URLSearchParams(parameters).toString()}`)
		: [];
	const check = link ? checkLink(key, link, link.binding.to) : 'forged';
	return {
		phone_number: check === 'ok' || check === 'expired' ? digits(link.binding.to) : answer.asked,
	};
}

export async function sendAndWaitWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const node = this.getNode();
	const request = this.getRequestObject();
	const response = this.getResponseObject();
	const query = this.getQueryData() as Record<string, string | undefined>;
	const question = readQuestion(
		node,
		(name, fallback) => this.getNodeParameter(name, fallback),
		toolParameters(this),
	);
	const phoneNumber = digits(this.getNodeParameter('phoneNumber', '', { extractValue: true }));
	const recipient = phoneNumber ? `+${phoneNumber}` : 'the subscriber';
	const path = String(request.originalUrl ?? request.url ?? '').split('?')[0];
	const key = `${path}\u0000${query.q ?? ''}`;

	const earlier = answered.get(key);
	if (earlier) return alreadyAnswered(response, earlier);

	// A text question has one link per answer (approved=true|false|edit in the signed link); a template's one link (and
	// the chat's "Answer on the web" link) opens a page with every answer's button, and the pressed button names it.
	const choosing = question.responseType === 'approval' && query.approved === undefined;
	const formFields: FormField[] =
		question.responseType === 'freeText'
			? [{ label: 'Your answer', type: 'textarea', options: [], required: true }]
			: question.fields;

	if (request.method !== 'POST') {
		const html = choosing
			? choicePage(question, recipient)
			: question.responseType === 'approval'
				? query.approved === 'edit' && question.edit
					? editPage(question, recipient)
					: approvalPage(
							question,
							recipient,
							optionOf(question, query.approved === 'false' ? 'false' : 'true'),
						)
				: formPage(question, recipient, formFields);
		return sendPage(response, 200, html);
	}

	const body = (this.getBodyData() ?? {}) as IDataObject;
	// The page's buttons name the answer; "Approve Only" offers no decline, so none is taken from a form.
	const chosen = choosing ? answerOf(question, String(body.approved)) : undefined;
	if (choosing && !chosen)
		return sendPage(
			response,
			400,
			donePage('Not sent', 'No answer was chosen. Go back and press one of the buttons.'),
		);
	const answer: Answer =
		chosen ??
		(query.approved === 'false'
			? 'false'
			: query.approved === 'edit' && question.edit
				? 'edit'
				: 'true');
	const option = optionOf(question, answer);
	// The corrected text of an Edit (the page's text box, or the trigger's next message in the chat).
	const edited = answer === 'edit' ? String(body['field-0'] ?? '').trim() : '';
	if (answer === 'edit' && !edited)
		return sendPage(response, 400, editPage(question, recipient, 'Required: write the text.'));
	let data: IDataObject;
	if (question.responseType === 'approval')
		data = question.edit
			? {
					approved: answer !== 'false',
					edited: answer === 'edit',
					text: answer === 'edit' ? edited : answer === 'true' ? question.edit.draft : null,
					draft: question.edit.draft,
				}
			: { approved: answer === 'true' };
	else {
		const checked = formAnswers(formFields, body);
		// Refused: the form again, each error next to its field, what was typed kept; the execution keeps waiting.
		if ('errors' in checked)
			return sendPage(
				response,
				400,
				formPage(question, recipient, formFields, {
					errors: checked.errors,
					values: checked.values,
				}),
			);
		data =
			question.responseType === 'freeText'
				? { text: checked.answers['Your answer'] }
				: checked.answers;
	}
	// The first answer counts: checked and recorded in one step, before anything is awaited; verified after.
	const respondedAt = new Date().toISOString();
	const first = claim(key, respondedAt);
	if (first) return alreadyAnswered(response, first);
	let responder: Responder | undefined;
	try {
		responder = question.inChat
			? await chatResponder(this, {
					path,
					query,
					body,
					value:
						question.responseType === 'approval' && answer !== 'edit'
							? answer
							: String(body['field-0'] ?? ''),
					asked: phoneNumber,
				})
			: { phone_number: phoneNumber };
	} finally {
		// Not verified (the key could not be read): nothing was taken, the answer may come again (a trigger retries).
		if (!responder) answered.delete(key);
	}
	const name = askedName(this, responder.phone_number) ?? responder.name;
	const json: IDataObject = {
		data: { ...data, respondedAt },
		...(question.responseType === 'approval' ? { answer: option } : {}),
		recipient: { phone_number: responder.phone_number, ...(name ? { name } : {}) },
		// A question meant for the chat, answered there or through its link (the fallback).
		...(question.inChat ? { answeredIn: responder.inChat ? 'chat' : 'link' } : {}),
	};
	const decision = decisionText(question, answer);
	return {
		webhookResponse: responder.inChat
			? { resumed: true, confirmation: chatConfirmationText(question, answer) }
			: donePage(
					decision || 'Thank you',
					`${decision ? `${decision}. ` : ''}Your answer was recorded. You can close this page.`,
				),
		workflowData: [[{ json }]],
	};
}
