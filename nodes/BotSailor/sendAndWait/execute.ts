import { randomBytes } from 'crypto';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';
import { WAIT_INDEFINITELY } from 'n8n-workflow';
import {
	answerKey,
	bindingButtonId,
	chatLinkParameters,
	linkTarget,
	type Choice,
} from '../../shared/conversation/answerBinding';
import { BUTTON_LIMITS, checkWhatsAppLimits } from '../../shared/whatsapp/whatsAppLimits';
import { CREDENTIAL_TYPE, sendsInFlight } from '../../shared/http/credential';
import { checkFields, onFirstUse, refuse, subscriberKeys, z } from '../../shared/parameters/inputs';
import { sendRequest } from '../../shared/http/transport';
import { atMostOnce } from '../sending/atMostOnce';
import {
	requestDefaults,
	requestTemplate,
	type RequestOptionsParameter,
} from '../running/requestOptions';
import { deliver } from '../sending/delivery';
import { asNodeError, errorItem } from '../running/itemResult';
import { fingerprintOf, sendRecordOf } from '../sending/sendRecord';
import { isHumanReview, readQuestion, waitTill, type Question } from './question';
import { markRecipients } from './mark';
import { recipientName } from './recipient';
import { linkValue, quickReplyTitles, readTemplate, type TemplateQuestion } from './template';
import type { SendItem } from '../sending/sendItem';
import { isOutsideWindowRefusal } from '../../shared/whatsapp/sessionWindow';
import { isPlatformRefusal } from '../../shared/http/failures';

const SEND_URL = '/whatsapp/send';
const TEMPLATE_URL = '/whatsapp/send/template';
const BUTTONS_URL = '/whatsapp/send/interactive-buttons';

/** With a draft, the message's length is that of Message and Draft Text together. */
const DRAFT_FIELDS = { message: 'Message and Draft Text' };

const schema = onFirstUse(() => z.object(subscriberKeys));

/** One link per answer, as `getSignedResumeUrl` gives it (n8n ≥ 1.104) or `$execution.resumeUrl` did before. */
export function answerLink(context: IExecuteFunctions, parameters: Record<string, string>): string {
	// Feature-detected, not version-checked: older hosts lack the method (n8n-workflow < 1.104).
	if (typeof context.getSignedResumeUrl === 'function')
		return context.getSignedResumeUrl(parameters);
	const resumeUrl = String(context.evaluateExpression('{{ $execution.resumeUrl }}', 0));
	return `${resumeUrl}/${context.getNode().id}?${new URLSearchParams(parameters).toString()}`;
}

/** The WhatsApp text of a page question: the question, then one labelled link per answer, then how the links work. */
export function questionText(question: Question, links: Array<[string, string]>): string {
	const lines = links.map(([label, url]) => `${label}: ${url}`);
	const howTo =
		question.responseType === 'approval'
			? 'Open a link, then press the button on the page to answer.'
			: 'Open the link to answer.';
	return `${question.message}\n\n${lines.join('\n\n')}\n\n${howTo}`;
}

/** The label of the chat question's one web link (Answer on the Web). */
export const WEB_LINK_LABEL = 'Answer on the web';

/**
 * The WhatsApp text of a chat question (issue 53): the question as the user wrote it (with the draft), Free Text one
 * short line saying a reply answers it, and the web link only when asked for. The binding is in the buttons' ids.
 */
export function chatQuestionText(question: Question, webLink?: string): string {
	const lines = [question.message];
	if (question.responseType === 'freeText') lines.push('Reply to this message to answer.');
	if (webLink) lines.push(`${WEB_LINK_LABEL}: ${webLink}`);
	return lines.join('\n\n');
}

/** More Recipients: digits with the country code, each refused naming the field when it is not a number. */
function moreRecipients(
	target: { getNode: () => INode; getItemIndex: () => number },
	param: (name: string, fallback: unknown) => unknown,
	first: string,
): string[] {
	const raw = param('moreRecipients', '');
	const entries = (Array.isArray(raw) ? raw.map(String) : String(raw ?? '').split(/[,;\n]/))
		.map((entry) => entry.trim())
		.filter(Boolean);
	const phones: string[] = [];
	for (const entry of entries) {
		const digits = entry.replace(/[\s().+-]/g, '');
		if (!/^\d{7,15}$/.test(digits))
			refuse(
				target,
				`More Recipients: "${entry}" is not a phone number`,
				'Parameter "More Recipients": digits with the country code, e.g. 15550100002, separated by commas.',
			);
		if (digits !== first.replace(/\D/g, '') && !phones.includes(digits)) phones.push(digits);
	}
	return phones;
}

/** The refusal of a free-text send, explained: outside the 24-hour window nothing can be sent, so nothing waits. */
function explainRefusal(error: unknown): unknown {
	// Only the platform's own refusal (status "0"): no answer (DNS, refused, timeout), an HTML page or a broken answer
	// is no statement about the window.
	if (!isPlatformRefusal(error)) return error;
	const windowText = isOutsideWindowRefusal(error);
	const rule =
		'WhatsApp delivers free text (which carries this question) only within 24 hours after the subscriber’s last message.';
	const fix =
		'Ask with an approved template instead (Send As: Template, its variable carrying the link), or send one first (Message → Send Template) and ask again once they reply.';
	const explanation = `${windowText ? `The platform refused the question because the 24-hour window is closed. ${rule}` : `The platform refused the question. If the subscriber has not written in the last 24 hours, this is why: ${rule}`} ${fix} Nothing was sent, and the workflow does not wait.`;
	error.description = [error.description, explanation].filter(Boolean).join(' ');
	return error;
}

/** What a run asks, read from the parameters and checked before any request (a bad one is refused naming it). */
interface Asking {
	target: { getNode: () => INode; getItemIndex: () => number };
	item: Pick<SendItem, 'param' | 'getNode' | 'getItemIndex'>;
	/** phone_number_id and phone_number: the first recipient. */
	base: IDataObject;
	question: Question;
	until: Date;
	asTemplate?: TemplateQuestion;
	/** More Recipients (WhatsApp Chat only). */
	more: string[];
}

function readAsking(context: IExecuteFunctions): Asking {
	const node = context.getNode();
	const param = (name: string, fallback: unknown) =>
		context.getNodeParameter(name, 0, fallback) as unknown;
	const target = { getNode: () => node, getItemIndex: () => 0 };
	const base = checkFields(target, schema(), {
		phone_number_id: context.getNodeParameter('phoneNumberId', 0, undefined, {
			extractValue: true,
		}),
		phone_number: context.getNodeParameter('phoneNumber', 0, undefined, { extractValue: true }),
	});
	// As a Human review tool, the input item holds the gated tool's call (n8n's engine request).
	const question = readQuestion(
		node,
		param,
		isHumanReview(node) ? context.getInputData()[0]?.json.toolParameters : undefined,
	);
	const item = {
		...target,
		param: (name: string, fallback?: unknown, options?: { extractValue?: boolean }) =>
			context.getNodeParameter(name, 0, fallback, options) as IDataObject[string],
	};
	return {
		target,
		item,
		base,
		question,
		until: waitTill(node, param),
		asTemplate: param('sendAs', 'text') === 'template' ? readTemplate(item) : undefined,
		more: question.inChat ? moreRecipients(target, param, String(base.phone_number)) : [],
	};
}

/**
 * The question to each recipient: one link per answer, each naming this question (a second answer to it is refused);
 * a template carries one link, to a page with every answer's button (Approval) or to the form. Answered in the chat,
 * each link also binds its recipient and the limit under our HMAC (shared/conversation/answerBinding.ts).
 */
async function buildQuestions(
	context: IExecuteFunctions,
	{ target, item, base, question, until, asTemplate, more }: Asking,
): Promise<{ url: string; questions: Array<{ phone: string; fields: IDataObject }> }> {
	const ask = randomBytes(6).toString('hex');
	const key = question.inChat
		? answerKey(
				String(
					(await context.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE))
						.apiToken ?? '',
				).trim(),
			)
		: undefined;
	const exp =
		until.getTime() >= WAIT_INDEFINITELY.getTime() ? 0 : Math.ceil(until.getTime() / 1000);
	// The address every answer link of this question has (n8n's waiting URL of this execution and node).
	const address = key ? linkTarget(answerLink(context, {})) : '';
	// A template answered in the chat: a tap on its quick-reply buttons (the first approves, the second declines),
	// where the node can tell them (the template lists them, and its row carries the whole link); else the link.
	const titles =
		key && asTemplate && !asTemplate.linkBaseUrl
			? (
					await quickReplyTitles(context, String(base.phone_number_id), asTemplate.template_id)
				).slice(0, question.disapproveLabel ? 2 : 1)
			: [];
	// In the chat every text question goes out with reply buttons whose ids carry the binding (Free Text: one).
	const buttons = question.inChat && !asTemplate;
	const url = asTemplate ? TEMPLATE_URL : buttons ? BUTTONS_URL : SEND_URL;
	const answers: Array<[string, Choice]> =
		question.responseType !== 'approval'
			? [[question.buttonLabel, asTemplate && key ? 'pick' : 'text']]
			: asTemplate
				? [[question.buttonLabel, key ? 'pick' : 'text']]
				: [
						[question.approveLabel, 'true'],
						...(question.edit ? [[question.edit.label, 'edit'] as [string, Choice]] : []),
						...(question.disapproveLabel
							? [[question.disapproveLabel, 'false'] as [string, Choice]]
							: []),
					];
	// One question per recipient: the same question id, each link bound to its own subscriber.
	const questionFor = (phone: string) => {
		const linkOf = (choice: Choice) =>
			key
				? answerLink(
						context,
						chatLinkParameters(key, {
							target: address,
							to: phone,
							q: ask,
							choice,
							exp,
							...(choice === 'pick' ? { titles } : {}),
						}),
					)
				: answerLink(context, { ...(choice === 'text' ? {} : { approved: choice }), q: ask });
		const links = answers.map(([label, choice]): [string, string] => [label, linkOf(choice)]);
		let fields: IDataObject;
		if (asTemplate)
			fields = {
				...base,
				phone_number: phone,
				template_id: asTemplate.template_id,
				...asTemplate.variables,
				[asTemplate.linkVariable]: linkValue(item, asTemplate, links[0][1]),
			};
		else if (buttons) {
			const ids = links.map(([label, link]) => ({ id: bindingButtonId(link), title: label }));
			// The binding must fit WhatsApp's id: a long n8n address (WEBHOOK_URL) is refused naming it, before any request.
			const long = ids.find((button) => button.id.length > BUTTON_LIMITS.id);
			if (long)
				refuse(
					target,
					`The answer link does not fit a WhatsApp reply button's id: ${long.id.length} characters, at most ${BUTTON_LIMITS.id}`,
					`With Answer In: WhatsApp Chat each button's id carries its answer link; n8n's address ${address} is too long for it. Use a shorter WEBHOOK_URL, or Answer In: Web Page.`,
				);
			fields = {
				...base,
				phone_number: phone,
				// Approval: a page with every answer (the link without an answer of its own); Free Text: its one link.
				message: chatQuestionText(
					question,
					question.webLink
						? question.responseType === 'approval'
							? linkOf('text')
							: links[0][1]
						: undefined,
				),
				buttons: JSON.stringify(ids),
			};
		} else fields = { ...base, phone_number: phone, message: questionText(question, links) };
		// WhatsApp's limits (an interactive message's body: 1,024 characters, titles, ids, count), refused naming the
		// field before any request.
		return checkWhatsAppLimits(target, url, fields, question.edit ? DRAFT_FIELDS : undefined);
	};
	return {
		url,
		questions: [String(base.phone_number), ...more].map((phone) => ({
			phone,
			fields: questionFor(phone),
		})),
	};
}

/**
 * The questions sent, each at most once (Retry On Fail outputs an earlier outcome instead of sending again). The first
 * recipient's must go out (else nothing waits); another recipient's failure is reported.
 */
async function sendQuestions(
	context: IExecuteFunctions,
	{ base, question, asTemplate }: Asking,
	{ url, questions }: Awaited<ReturnType<typeof buildQuestions>>,
): Promise<{ confirmation: IDataObject; unreached: IDataObject[] }> {
	const node = context.getNode();
	const record = sendRecordOf(context);
	const credentials = await context.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	// The node's Options (timeout, proxy, certificates), as every send applies them.
	const request = requestTemplate(
		node,
		url,
		context.getNodeParameter('requestOptions', 0, {}) as RequestOptionsParameter,
	);
	const sendOnce = async (slot: number, phone: string, fields: IDataObject) => {
		const fingerprint = fingerprintOf(url, {
			...base,
			phone_number: phone,
			question: question.message,
			...(asTemplate ? { template_id: asTemplate.template_id } : {}),
		});
		const once = atMostOnce(record, slot, fingerprint);
		if ('records' in once) return once.records[0] ?? {};
		const [sent] = await once.send(async () => {
			try {
				return [
					await deliver(
						node,
						0,
						async () => await sendRequest.call(context, { ...request, body: fields }, 0),
						{
							options: { concurrency: sendsInFlight(credentials) },
							cancelled: () => context.getExecutionCancelSignal()?.aborted === true,
						},
					),
				];
			} catch (error) {
				// A template is not bound to the 24-hour window: its refusal stays the platform's text as it is.
				throw asNodeError(node, asTemplate ? error : explainRefusal(error), 0);
			}
		});
		return sent;
	};
	const confirmation = await sendOnce(0, questions[0].phone, questions[0].fields);
	const unreached: IDataObject[] = [];
	for (const [index, other] of questions.slice(1).entries()) {
		try {
			await sendOnce(index + 1, other.phone, other.fields);
		} catch (error) {
			unreached.push({ phone_number: other.phone, error: (error as Error).message });
		}
	}
	return { confirmation, unreached };
}

/**
 * The wait. Who was asked, by name when the platform knows it (a read under the node's Options; its failure does not
 * matter): the answer's webhook reads it from the waiting items, so answering never waits on the platform. What the
 * node holds while waiting is also what it outputs when Limit Wait Time runs out: n8n then passes the node's input
 * through, so the input is replaced by items that say so.
 */
async function waitForAnswer(
	context: IExecuteFunctions,
	{ base, question, until, more }: Asking,
	{ confirmation, unreached }: Awaited<ReturnType<typeof sendQuestions>>,
): Promise<INodeExecutionData[][]> {
	const name = await recipientName(
		context,
		base,
		requestDefaults(
			context.getNode(),
			context.getNodeParameter('requestOptions', 0, {}) as RequestOptionsParameter,
		),
	);
	const recipient = { phone_number: base.phone_number, ...(name ? { name } : {}) };
	const waiting: INodeExecutionData[] = context.getInputData().map((item, index) => ({
		json: {
			...item.json,
			data: {
				timedOut: true,
				...(question.responseType === 'approval' ? { approved: false } : {}),
				// Approve, Edit or Decline: the same fields as an answer (an Edit tap with no text ends here too).
				...(question.edit ? { edited: false, text: null, draft: question.edit.draft } : {}),
			},
			recipient,
			wa_message_id: confirmation.wa_message_id,
			// Several recipients: who else was asked, and whom the question did not reach.
			...(more.length
				? { also_asked: more, ...(unreached.length ? { not_asked: unreached } : {}) }
				: {}),
		},
		...(item.binary ? { binary: item.binary } : {}),
		pairedItem: { item: index },
	}));
	const executeData =
		typeof context.getExecuteData === 'function' ? context.getExecuteData() : undefined;
	if (executeData?.data?.main) executeData.data = { ...executeData.data, main: [waiting] };
	await context.putExecutionToWait(until);
	return [waiting];
}

/**
 * Message → Send and Wait for Response in a workflow run (the operation's record is resources/message/sendAndWait.ts):
 * reads and checks every parameter, builds the question, sends it once (the delivery policy of every send: a retry
 * only when the platform provably did not act; n8n's Retry On Fail does not send it again), then puts the execution
 * to wait. The answer arrives through the node's webhook (webhook.ts). As n8n's own nodes, it asks once per run, about
 * the first item.
 */
export async function askAndWait(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	try {
		const asking = readAsking(this);
		const built = await buildQuestions(this, asking);
		// In the chat, each recipient is marked first: the Webhook Trigger reads only for marked subscribers (issue 54).
		const mark = asking.question.inChat
			? await markRecipients(
					this,
					String(asking.base.phone_number_id),
					built.questions.map((question) => question.phone),
				)
			: undefined;
		const sent = await sendQuestions(
			this,
			asking,
			mark
				? {
						...built,
						questions: built.questions.filter((question) => mark.marked.includes(question.phone)),
					}
				: built,
		);
		if (mark?.unmarked.length) sent.unreached.push(...mark.unmarked);
		return await waitForAnswer(this, asking, sent);
	} catch (error) {
		const failure = asNodeError(this.getNode(), error, 0);
		if (!this.continueOnFail()) throw failure;
		return [[errorItem(failure, 0)]];
	}
}
