import type { INode } from 'n8n-workflow';
import { NodeOperationError, WAIT_INDEFINITELY } from 'n8n-workflow';

/** What Send and Wait asks, read from the node's parameters (in the run, and again when the answer arrives). */
export type ResponseType = 'approval' | 'freeText' | 'customForm';

export interface FormField {
	label: string;
	type: 'text' | 'textarea' | 'number' | 'dropdown' | 'date' | 'email';
	options: string[];
	required: boolean;
}

export interface Question {
	responseType: ResponseType;
	message: string;
	/** Approval: the labels; disapprove for "Approve and Disapprove" and "Approve, Edit or Decline". */
	approveLabel: string;
	disapproveLabel?: string;
	/** Approve, Edit or Decline (issue 53): the Edit label and the draft the person approves, corrects or declines. */
	edit?: { label: string; draft: string };
	/** In the chat: one labelled link to the page with every answer ("Answer on the Web"), off by default from 1.2. */
	webLink: boolean;
	/** The confirmation names the decision (node version 1.2; earlier versions keep their confirmation as it was). */
	namesDecision: boolean;
	/** Free Text and Custom Form: the label of the link in the message, and the page. */
	buttonLabel: string;
	formTitle: string;
	formDescription: string;
	submitLabel: string;
	fields: FormField[];
	/** Answered in the WhatsApp chat (reply buttons, the next message) rather than on a page (issue 45). */
	inChat: boolean;
	/** The text sent in the chat once a chat answer resumed the run ('' for none). */
	chatConfirmation: string;
}

/** The default text of Confirmation in Chat. */
export const CHAT_CONFIRMATION = 'Thank you, your answer was recorded.';

/** WhatsApp's limit of a reply button's title (shared/whatsapp/whatsAppLimits.ts BUTTON_LIMITS). */
const BUTTON_TITLE_MAX = 20;

/** A parameter of the item the question is about (item 0, as n8n's own Send and Wait nodes). */
export type ParameterReader = (name: string, fallback: unknown) => unknown;

const FIELD_TYPES = new Set(['text', 'textarea', 'number', 'dropdown', 'date', 'email']);

function refuse(node: INode, message: string, description: string): never {
	throw new NodeOperationError(node, message, {
		description: `${description} Nothing was sent to the platform.`,
		itemIndex: 0,
	});
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/**
 * n8n's default message of a Human review tool puts `{{ $tool.parameters }}` (an object) in the text,
 * which n8n's expressions render as "[object Object]": the person could not see what they approve.
 * There the tool's input is written out as `name: value` lines instead.
 */
export function withToolInput(message: string, toolParameters: unknown): string {
	if (!message.includes('[object Object]') || !toolParameters || typeof toolParameters !== 'object')
		return message;
	const lines = Object.entries(toolParameters as Record<string, unknown>).map(
		([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
	);
	return message.split('[object Object]').join(lines.join('\n'));
}

/** Whether the node runs as n8n's generated Human review tool (`…HitlTool`, n8n >= 2.6). */
export const isHumanReview = (node: INode) => node.type.endsWith('HitlTool');

/** The question, checked: a bad parameter fails naming the field, before any request. */
export function readQuestion(
	node: INode,
	param: ParameterReader,
	toolParameters?: unknown,
): Question {
	const message = withToolInput(text(param('message', '')).trim(), toolParameters);
	if (!message) refuse(node, 'Message is required', 'Write the question in "Message".');
	const responseType = text(param('responseType', 'approval')) as ResponseType;
	if (!['approval', 'freeText', 'customForm'].includes(responseType))
		refuse(
			node,
			`Response Type "${responseType}" is not one of Approval, Free Text, Custom Form`,
			'Pick a Response Type.',
		);
	const approval = (param('approvalOptions.values', {}) ?? {}) as {
		approvalType?: string;
		approveLabel?: string;
		disapproveLabel?: string;
		editLabel?: string;
	};
	const approveLabel = text(approval.approveLabel ?? 'Approve').trim();
	const editing = responseType === 'approval' && approval.approvalType === 'edit';
	const double = approval.approvalType === 'double' || editing;
	const editLabel = editing ? text(approval.editLabel ?? 'Edit').trim() : undefined;
	const draft = editing ? text(param('draftText', '')).trim() : '';
	const disapproveLabel = double ? text(approval.disapproveLabel ?? 'Decline').trim() : undefined;
	if (responseType === 'approval') {
		if (!approveLabel)
			refuse(node, 'Approve Button Label is empty', 'Give the approve link a label.');
		if (double && !disapproveLabel)
			refuse(node, 'Disapprove Button Label is empty', 'Give the decline link a label.');
		if (double && approveLabel === disapproveLabel)
			refuse(
				node,
				'Approve Button Label and Disapprove Button Label are the same',
				'The person could not tell the two links apart: give them different labels.',
			);
		if (editing && !editLabel)
			refuse(node, 'Edit Button Label is empty', 'Give the edit button a label.');
		if (editing && (editLabel === approveLabel || editLabel === disapproveLabel))
			refuse(
				node,
				'Edit Button Label is the same as another button’s label',
				'The person could not tell the buttons apart: give each a different label.',
			);
		if (editing && !draft)
			refuse(
				node,
				'Draft Text is empty',
				'With Approve, Edit or Decline, "Draft Text" is what the person approves, corrects or declines.',
			);
	}
	const fields: FormField[] = [];
	if (responseType === 'customForm') {
		const raw = (param('formFields.values', []) ?? []) as Array<Record<string, unknown>>;
		if (!Array.isArray(raw) || raw.length === 0)
			refuse(node, 'Form Fields has no field', 'Add at least one field under "Form Fields".');
		const seen = new Set<string>();
		for (const [index, entry] of raw.entries()) {
			const label = text(entry.fieldLabel).trim();
			const where = `Form Fields → field ${index + 1}`;
			if (!label) refuse(node, `${where}: Field Label is empty`, 'Every field needs a label.');
			if (seen.has(label))
				refuse(
					node,
					`${where}: Field Label "${label}" is used twice`,
					'The label is the key of the answer in the output: make each one unique.',
				);
			seen.add(label);
			const type = text(entry.fieldType || 'text') as FormField['type'];
			if (!FIELD_TYPES.has(type))
				refuse(node, `${where}: Element Type "${type}" is not supported`, 'Pick an Element Type.');
			const options = text(entry.fieldOptions)
				.split(',')
				.map((option) => option.trim())
				.filter(Boolean);
			if (type === 'dropdown' && options.length === 0)
				refuse(
					node,
					`${where}: Dropdown Options is empty`,
					'List the choices, separated by commas.',
				);
			fields.push({ label, type, options, required: entry.requiredField === true });
		}
	}
	// As a template, only Approval is answered in the chat (a tap on the template's quick-reply buttons).
	const asTemplate = text(param('sendAs', 'text')) === 'template';
	// n8n runs the gated tool with the agent's own input whatever the reviewer writes: an edit would be lost.
	if (editing && isHumanReview(node))
		refuse(
			node,
			'Approve, Edit or Decline is not available as a Human review tool',
			'n8n runs the reviewed tool with the agent’s own input, so a corrected text would not be used: pick Approve and Disapprove.',
		);
	if (editing && asTemplate)
		refuse(
			node,
			'Approve, Edit or Decline cannot be sent as a template',
			'Type of Approval "Approve, Edit or Decline" shows the draft with three buttons: use Send As: Text.',
		);
	const inChat =
		text(param('answerIn', 'webPage')) === 'chat' &&
		responseType !== 'customForm' &&
		!(asTemplate && responseType !== 'approval');
	if (inChat && !asTemplate && responseType === 'approval') {
		const labels: Array<[string, string | undefined]> = [
			['Approve Button Label', approveLabel],
			['Disapprove Button Label', disapproveLabel],
			['Edit Button Label', editLabel],
		];
		for (const [field, label] of labels) {
			const length = Array.from(label ?? '').length;
			if (length > BUTTON_TITLE_MAX)
				refuse(
					node,
					`${field} is too long for a WhatsApp reply button: ${length} characters, at most ${BUTTON_TITLE_MAX}`,
					`Parameter "${field}" is "${label}". With Answer In: WhatsApp Chat it is the button's title; shorten it.`,
				);
		}
	}
	const options = (param('options', {}) ?? {}) as Record<string, unknown>;
	const buttonLabel = text(options.messageButtonLabel).trim() || 'Respond';
	// Free Text in the chat: one reply button (its id carries the binding), titled with the Button Label.
	if (inChat && !asTemplate && responseType === 'freeText') {
		const length = Array.from(buttonLabel).length;
		if (length > BUTTON_TITLE_MAX)
			refuse(
				node,
				`Button Label is too long for a WhatsApp reply button: ${length} characters, at most ${BUTTON_TITLE_MAX}`,
				`Option "Button Label" is "${buttonLabel}". With Answer In: WhatsApp Chat it is the button's title; shorten it.`,
			);
	}
	const shown = editing ? `${message}\n\n${draft}` : message;
	return {
		inChat,
		chatConfirmation: inChat ? text(param('chatConfirmation', CHAT_CONFIRMATION)).trim() : '',
		responseType,
		message: shown,
		approveLabel: approveLabel || 'Approve',
		...(double ? { disapproveLabel } : {}),
		...(editing ? { edit: { label: editLabel ?? 'Edit', draft } } : {}),
		webLink: inChat && param('webLink', node.typeVersion < 1.2) === true,
		namesDecision: node.typeVersion >= 1.2,
		buttonLabel,
		formTitle: text(options.responseFormTitle).trim(),
		formDescription: text(options.responseFormDescription).trim() || shown,
		submitLabel: text(options.responseFormButtonLabel).trim() || 'Submit',
		fields,
	};
}

/** Past tense of the usual labels, for the confirmation ("Approved"); any other label is quoted as it is. */
const DONE: Record<string, string> = {
	approve: 'Approved',
	accept: 'Accepted',
	allow: 'Allowed',
	refuse: 'Refused',
	confirm: 'Confirmed',
	decline: 'Declined',
	disapprove: 'Disapproved',
	reject: 'Rejected',
	deny: 'Denied',
	edit: 'Edited and approved',
};

/**
 * What was decided, in the user's wording (issue 53 point 3): "Approved", "Declined", "Edited and approved" for the
 * default labels, else the label the person pressed ("Ship it" chosen). Empty for Free Text and forms.
 */
export function decisionText(question: Question, answer: 'true' | 'false' | 'edit'): string {
	if (question.responseType !== 'approval' || !question.namesDecision) return '';
	const label =
		answer === 'edit'
			? (question.edit?.label ?? 'Edit')
			: answer === 'true'
				? question.approveLabel
				: (question.disapproveLabel ?? 'Decline');
	return DONE[label.toLowerCase()] ?? `"${label}" chosen`;
}

/** The confirmation in the chat: the decision, then Confirmation in Chat (either may be empty). */
export function chatConfirmationText(
	question: Question,
	answer: 'true' | 'false' | 'edit',
): string {
	const decision = decisionText(question, answer);
	return [decision && `${decision}.`, question.chatConfirmation].filter(Boolean).join(' ');
}

const UNIT_MS: Record<string, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

/** Until when the run waits: Options → Limit Wait Time, else indefinitely. A bad limit fails naming the field. */
export function waitTill(node: INode, param: ParameterReader, now = Date.now()): Date {
	const limit = param('options.limitWaitTime.values', {}) as
		| { limitType?: string; resumeAmount?: unknown; resumeUnit?: string; maxDateAndTime?: unknown }
		| undefined;
	if (!limit || Object.keys(limit).length === 0) return WAIT_INDEFINITELY;
	if (limit.limitType === 'atSpecifiedTime') {
		const raw = limit.maxDateAndTime;
		const at = new Date(raw instanceof Date ? raw.getTime() : text(raw));
		if (!text(raw) || Number.isNaN(at.getTime()))
			refuse(
				node,
				'Limit Wait Time: Max Date and Time is not a date',
				`It received ${JSON.stringify(text(raw))}. Pick a date and time.`,
			);
		if (at.getTime() <= now)
			refuse(
				node,
				'Limit Wait Time: Max Date and Time is in the past',
				`It is ${at.toISOString()}: the wait would be over before the person could answer.`,
			);
		return at;
	}
	const amount = Number(limit.resumeAmount ?? 1);
	const unit = UNIT_MS[limit.resumeUnit ?? 'hours'];
	if (!Number.isFinite(amount) || amount <= 0 || unit === undefined)
		refuse(
			node,
			'Limit Wait Time: Amount must be a number above 0',
			`It received ${JSON.stringify(limit.resumeAmount)} ${text(limit.resumeUnit)}.`,
		);
	return new Date(now + amount * unit);
}
