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
	/** Approval: the labels; disapprove only for "Approve and Disapprove". */
	approveLabel: string;
	disapproveLabel?: string;
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
	};
	const approveLabel = text(approval.approveLabel ?? 'Approve').trim();
	const double = approval.approvalType === 'double';
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
	const inChat =
		text(param('answerIn', 'webPage')) === 'chat' &&
		responseType !== 'customForm' &&
		!(asTemplate && responseType !== 'approval');
	if (inChat && !asTemplate && responseType === 'approval') {
		const labels: Array<[string, string | undefined]> = [
			['Approve Button Label', approveLabel],
			['Disapprove Button Label', disapproveLabel],
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
	return {
		inChat,
		chatConfirmation: inChat ? text(param('chatConfirmation', CHAT_CONFIRMATION)).trim() : '',
		responseType,
		message,
		approveLabel: approveLabel || 'Approve',
		...(double ? { disapproveLabel } : {}),
		buttonLabel: text(options.messageButtonLabel).trim() || 'Respond',
		formTitle: text(options.responseFormTitle).trim(),
		formDescription: text(options.responseFormDescription).trim() || message,
		submitLabel: text(options.responseFormButtonLabel).trim() || 'Submit',
		fields,
	};
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
