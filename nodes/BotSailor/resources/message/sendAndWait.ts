import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError, SEND_AND_WAIT_OPERATION } from 'n8n-workflow';
import { recipient, whatsAppNumber } from '../common';
import { templateLocator } from '../shared/templateLocator';
import { manualVariables } from './sendTemplate';
import type { OperationContext, OperationDescription } from '../resource';
import { CHAT_CONFIRMATION } from '../../sendAndWait/question';

/**
 * Message → Send and Wait for Response: the parameters. Names follow n8n's own messaging nodes
 * (message, responseType, approvalOptions, formFields, options.limitWaitTime) so that n8n's
 * Human review tool and users who know those nodes find the same fields. The run itself is in
 * sendAndWait/.
 */
const forTemplate = { show: { sendAs: ['template'] } };
/**
 * Answer In applies to Approval or Free Text (Custom Form stays a page); sent as a template, to Approval only (a tap
 * on the template's quick-reply buttons).
 */
const forChat = {
	show: { responseType: ['approval', 'freeText'], answerIn: ['chat'] },
};

const WEB_LINK_DESCRIPTION =
	'Whether the message also carries one short labelled link, "Answer on the web", to a page with every answer (for people who might not get the buttons)';

const fields: INodeProperties[] = [
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		description:
			'The question. Answered on a web page, the node adds one link per answer below it; in the WhatsApp chat, the person reads only this and the buttons. Also shown on the page.',
	},
	{
		displayName: 'Send As',
		name: 'sendAs',
		type: 'options',
		default: 'text',
		options: [
			{
				name: 'Text',
				value: 'text',
				description: 'The message with the answer links; only within the 24-hour window',
			},
			{
				name: 'Template',
				value: 'template',
				description:
					'An approved template whose variable carries the answer link; also outside the 24-hour window',
			},
		],
	},
	// The template picker of Send Template (no routing: this operation sends from its own code).
	{ ...templateLocator(), displayOptions: forTemplate },
	{
		displayName: 'Link Variable',
		name: 'linkVariable',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. templateVariable-answer_link-1',
		description:
			'The template variable that carries the answer link, as templateVariable-{label}-{position} (or {label}-{position}). With Approval the link opens a page with the answer buttons.',
		displayOptions: forTemplate,
	},
	{
		displayName: 'Button Base URL',
		name: 'linkBaseUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://n8n.example.com/webhook-waiting/',
		description:
			"Only when the variable is a URL button's: the fixed start of the button's URL in the template. WhatsApp appends the variable to it, so the node sends the rest of the link. Empty: the variable carries the whole link (a body variable).",
		displayOptions: forTemplate,
	},
	{
		...manualVariables(forTemplate),
		displayName: 'Other Variables',
		description:
			"The template's other variables by label and position (the question, a name…), sent as templateVariable-{label}-{position}",
	},
	{
		displayName: 'Answer In',
		name: 'answerIn',
		type: 'options',
		// Web Page: what saved workflows (which store no value) keep doing.
		default: 'webPage',
		options: [
			{
				name: 'Web Page',
				value: 'webPage',
				description: 'The person opens a link and answers on a page of this n8n',
			},
			{
				name: 'WhatsApp Chat',
				value: 'chat',
				description:
					"Approval as reply buttons (as a template: a tap on the template's first or second quick-reply button), Free Text as the next message; taken by a BotSailor trigger on this n8n. The message carries no link unless Answer on the Web Link is on.",
			},
		],
		displayOptions: { show: { responseType: ['approval', 'freeText'] } },
	},
	{
		displayName:
			'The answer in the chat is taken by a <b>BotSailor Webhook Trigger</b> (Incoming Message, with a secret and this credential; or the BotSailor Trigger’s New Message, one poll later) in an active workflow on this n8n, with Send and Wait Answers: Take Them: it resumes this execution and starts no run for that message, then replies with the confirmation. Without one, turn on Answer on the Web Link. Button labels: at most 20 characters. Sent as a template (Approval only): its first quick-reply button approves, the second declines, and Link Variable must carry the whole link (a body variable); a template without quick-reply buttons is answered through the link. The output’s answeredIn says which way was used (chat or link).',
		name: 'chatNotice',
		type: 'notice',
		default: '',
		displayOptions: forChat,
	},
	{
		displayName: 'More Recipients',
		name: 'moreRecipients',
		type: 'string',
		default: '',
		placeholder: 'e.g. 15550100002, 447700900123',
		description:
			'Also ask these numbers (digits with the country code, separated by commas). The first answer counts; a later one resumes nothing and is told in the chat that the question was already answered.',
		displayOptions: forChat,
	},
	// Off from version 1.2; saved workflows (1, 1.1) keep a web link, their answer path when no trigger takes answers.
	{
		displayName: 'Answer on the Web Link',
		name: 'webLink',
		type: 'boolean',
		default: false,
		description: WEB_LINK_DESCRIPTION,
		displayOptions: {
			show: { ...forChat.show, sendAs: ['text'], '@version': [{ _cnd: { gte: 1.2 } }] },
		},
	},
	{
		displayName: 'Answer on the Web Link',
		name: 'webLink',
		type: 'boolean',
		default: true,
		description: WEB_LINK_DESCRIPTION,
		displayOptions: {
			show: { ...forChat.show, sendAs: ['text'], '@version': [{ _cnd: { lt: 1.2 } }] },
		},
	},
	{
		displayName: 'Confirmation in Chat',
		name: 'chatConfirmation',
		type: 'string',
		default: CHAT_CONFIRMATION,
		description:
			'The text the trigger sends in the chat once the answer has resumed the workflow, after what was decided in the button labels\' words ("Approved.", "Declined.", "Edited and approved."). Empty: only the decision.',
		displayOptions: forChat,
	},
	{
		displayName: 'Response Type',
		name: 'responseType',
		type: 'options',
		default: 'approval',
		options: [
			{
				name: 'Approval',
				value: 'approval',
				description: 'The person approves (or declines) through a link',
			},
			{
				name: 'Free Text',
				value: 'freeText',
				description: 'The person answers in a text field on a page',
			},
			{
				name: 'Custom Form',
				value: 'customForm',
				description: 'The person fills in a form defined here',
			},
		],
	},
	{
		displayName: 'Approval Options',
		name: 'approvalOptions',
		type: 'fixedCollection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { responseType: ['approval'] } },
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Type of Approval',
						name: 'approvalType',
						type: 'options',
						default: 'single',
						options: [
							{ name: 'Approve Only', value: 'single' },
							{ name: 'Approve and Disapprove', value: 'double' },
							{
								name: 'Approve, Edit or Decline',
								value: 'edit',
								description:
									'The question shows Draft Text; the person approves it as is, corrects it (in the chat: their next message; on the page: a text box filled with the draft) or declines',
							},
						],
					},
					{
						displayName: 'Approve Button Label',
						name: 'approveLabel',
						type: 'string',
						default: 'Approve',
					},
					{
						displayName: 'Disapprove Button Label',
						name: 'disapproveLabel',
						type: 'string',
						default: 'Decline',
						displayOptions: { show: { approvalType: ['double', 'edit'] } },
					},
					{
						displayName: 'Edit Button Label',
						name: 'editLabel',
						type: 'string',
						default: 'Edit',
						displayOptions: { show: { approvalType: ['edit'] } },
					},
				],
			},
		],
	},
	{
		displayName: 'Draft Text',
		name: 'draftText',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		placeholder: 'e.g. {{ $json.output }}',
		description:
			'With Type of Approval: Approve, Edit or Decline (required there, ignored otherwise): what the person approves, corrects or declines (an AI draft, a reply…), shown below Message. The output has it as draft, and the approved or corrected text as text.',
		displayOptions: { show: { responseType: ['approval'] } },
	},
	{
		displayName: 'Form Fields',
		name: 'formFields',
		type: 'fixedCollection',
		placeholder: 'Add Form Field',
		default: {},
		typeOptions: { multipleValues: true, sortable: true },
		displayOptions: { show: { responseType: ['customForm'] } },
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Field Label',
						name: 'fieldLabel',
						type: 'string',
						default: '',
						placeholder: 'e.g. Delivery date',
						required: true,
						description: 'Shown on the form; also the key of the answer in the output',
					},
					{
						displayName: 'Element Type',
						name: 'fieldType',
						type: 'options',
						default: 'text',
						options: [
							{ name: 'Date', value: 'date' },
							{ name: 'Dropdown List', value: 'dropdown' },
							{ name: 'Email', value: 'email' },
							{ name: 'Number', value: 'number' },
							{ name: 'Text', value: 'text' },
							{ name: 'Textarea', value: 'textarea' },
						],
					},
					{
						displayName: 'Dropdown Options',
						name: 'fieldOptions',
						type: 'string',
						default: '',
						placeholder: 'e.g. Small, Medium, Large',
						description: 'The choices, separated by commas',
						displayOptions: { show: { fieldType: ['dropdown'] } },
					},
					{
						displayName: 'Required Field',
						name: 'requiredField',
						type: 'boolean',
						default: false,
						description: 'Whether the form can only be sent with this field filled in',
					},
				],
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Limit Wait Time',
				name: 'limitWaitTime',
				type: 'fixedCollection',
				default: {
					values: { limitType: 'afterTimeInterval', resumeAmount: 1, resumeUnit: 'hours' },
				},
				description:
					'Whether to stop waiting after a while. The node then goes on with its input and data.timedOut set to true.',
				options: [
					{
						displayName: 'Values',
						name: 'values',
						values: [
							{
								displayName: 'Limit Type',
								name: 'limitType',
								type: 'options',
								default: 'afterTimeInterval',
								options: [
									{ name: 'After Time Interval', value: 'afterTimeInterval' },
									{ name: 'At Specified Time', value: 'atSpecifiedTime' },
								],
							},
							{
								displayName: 'Amount',
								name: 'resumeAmount',
								type: 'number',
								default: 1,
								typeOptions: { minValue: 0, numberPrecision: 2 },
								displayOptions: { show: { limitType: ['afterTimeInterval'] } },
							},
							{
								displayName: 'Unit',
								name: 'resumeUnit',
								type: 'options',
								default: 'hours',
								options: [
									{ name: 'Minutes', value: 'minutes' },
									{ name: 'Hours', value: 'hours' },
									{ name: 'Days', value: 'days' },
								],
								displayOptions: { show: { limitType: ['afterTimeInterval'] } },
							},
							{
								displayName: 'Max Date and Time',
								name: 'maxDateAndTime',
								type: 'dateTime',
								default: '',
								description: 'Continue execution after the specified date and time',
								displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
							},
						],
					},
				],
			},
			{
				displayName: 'Message Button Label',
				name: 'messageButtonLabel',
				type: 'string',
				default: 'Respond',
				description: 'The label before the link in the message (Free Text and Custom Form)',
			},
			{
				displayName: 'Response Form Button Label',
				name: 'responseFormButtonLabel',
				type: 'string',
				default: 'Submit',
			},
			{
				displayName: 'Response Form Description',
				name: 'responseFormDescription',
				type: 'string',
				default: '',
				description: 'Text on the answer page (default: the message)',
			},
			{
				displayName: 'Response Form Title',
				name: 'responseFormTitle',
				type: 'string',
				default: '',
				description: 'Title of the page where the person answers',
			},
		],
	},
];

/**
 * The declarative engine (AI Agent 2.x tool calls, MCP) runs routing, not customOperations: there the
 * operation cannot pause, so it says so instead of sending a request without a URL. n8n's Human review
 * tool (…HitlTool) does not come here: the engine runs it as a workflow node, customOperations first
 * (n8n-core workflow-execute.js executeNode), so it sends and waits (test/e2e/sendAndWait.e2e.test.ts).
 */
async function notInTheDeclarativePath(this: OperationContext): Promise<never> {
	throw new NodeOperationError(this.getNode(), 'Send and Wait for Response cannot run here', {
		description:
			'It pauses the workflow until the person answers, which only a workflow run (or n8n’s Human review tool) can do. Use it as a workflow step.',
		itemIndex: this.getItemIndex(),
	});
}

export const sendAndWaitOperation: OperationDescription = {
	kind: 'send',
	execute: notInTheDeclarativePath,
	toolDescription:
		'Ask one subscriber over WhatsApp to approve, decline or answer, and wait for their answer before going on. Use it when a person must decide before the next step. The question is free text, so it reaches the subscriber only inside the 24-hour window after their last message. Each call sends one question.',
	returnsCustomerText: true,
	option: {
		name: 'Send and Wait for Response',
		value: SEND_AND_WAIT_OPERATION,
		action: 'Send message and wait for response',
		description:
			'Ask a subscriber to approve or answer, and wait: the workflow goes on with the answer. As text: only inside the 24-hour window; as a template: also outside it.',
		routing: { request: { url: '/whatsapp/send' } },
	},
	fields: [whatsAppNumber(), recipient(), ...fields],
};
