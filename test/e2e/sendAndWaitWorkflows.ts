import { CREDENTIAL_ID, CREDENTIAL_NAME, PACKAGE_NAME } from './n8n';
import { NUMBER } from '../harness/params';

/** The OpenAI stand-in's credential, as the Human review workflows import it. */
export const OPENAI_CREDENTIAL = { id: 'OpenAiStandIn001', name: 'OpenAI stand-in' };
/** The BotSailor Send Text tool the reviewer gates, as n8n names it for the model. */
export const GATED_TOOL = 'Send_WhatsApp_Text';

const credentials = { botSailorApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };

/** The Manual Trigger every Send and Wait e2e workflow starts from. */
export const MANUAL_TRIGGER = {
	id: 'manual',
	name: 'Manual',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** A BotSailor Message node (version 1.2) on the seeded number, to `phone`. */
export function botSailorMessageNode(
	name: string,
	position: [number, number],
	parameters: Record<string, unknown>,
	phone: string,
) {
	return {
		id: name.toLowerCase().replace(/\W+/g, '-'),
		name,
		type: `${PACKAGE_NAME}.botSailor`,
		typeVersion: 1.2,
		position,
		parameters: {
			resource: 'message',
			phoneNumberId: { __rl: true, mode: 'id', value: NUMBER },
			phoneNumber: { __rl: true, mode: 'phone', value: phone },
			...parameters,
		},
		credentials,
	};
}

/**
 * Manual → Ask (Send and Wait with `ask`'s parameters) → Approved? → Confirm (Send Text `reply`) when approved, else
 * Hold (Send Text "Order held."), all to `phone`.
 */
export function approvalWorkflow(
	id: string,
	name: string,
	ask: Record<string, unknown>,
	reply: string,
	phone: string,
) {
	const node = (
		nodeName: string,
		position: [number, number],
		parameters: Record<string, unknown>,
	) => botSailorMessageNode(nodeName, position, parameters, phone);
	return {
		id,
		name,
		active: false,
		nodes: [
			MANUAL_TRIGGER,
			node('Ask', [200, 0], { operation: 'sendAndWait', ...ask }),
			{
				id: 'if',
				name: 'Approved?',
				type: 'n8n-nodes-base.if',
				typeVersion: 1,
				position: [400, 0],
				parameters: {
					conditions: {
						boolean: [{ value1: '={{ $json.data.approved === true }}', value2: true }],
					},
				},
			},
			node('Confirm', [600, -100], { operation: 'sendText', message: reply }),
			node('Hold', [600, 100], { operation: 'sendText', message: 'Order held.' }),
		],
		connections: {
			Manual: { main: [[{ node: 'Ask', type: 'main', index: 0 }]] },
			Ask: { main: [[{ node: 'Approved?', type: 'main', index: 0 }]] },
			'Approved?': {
				main: [
					[{ node: 'Confirm', type: 'main', index: 0 }],
					[{ node: 'Hold', type: 'main', index: 0 }],
				],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * An AI Agent whose BotSailor Send Text tool is gated by n8n's Human review tool of this node (the owner approves or
 * refuses the send): the model (the OpenAI stand-in) calls the tool, n8n asks the owner first. `review` adds the
 * reviewer's own parameters (for example Answer In).
 */
export function humanReviewWorkflow(options: {
	id: string;
	name: string;
	/** The agent's prompt. */
	text: string;
	ownerPhone: string;
	review?: Record<string, unknown>;
}) {
	return {
		id: options.id,
		name: options.name,
		active: false,
		nodes: [
			MANUAL_TRIGGER,
			{
				id: 'agent',
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 3.1,
				position: [220, 0],
				parameters: { promptType: 'define', text: options.text, options: {} },
			},
			{
				id: 'model',
				name: 'OpenAI Chat Model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.2,
				position: [100, 240],
				parameters: { model: { __rl: true, mode: 'id', value: 'gpt-4o-mini' }, options: {} },
				credentials: { openAiApi: OPENAI_CREDENTIAL },
			},
			{
				id: 'human-review',
				name: 'Owner Review',
				type: `${PACKAGE_NAME}.botSailorHitlTool`,
				typeVersion: 1.2,
				position: [320, 240],
				// The message is n8n's default for Human review tools: which tool, with which input.
				parameters: {
					phoneNumberId: { __rl: true, mode: 'id', value: NUMBER },
					phoneNumber: { __rl: true, mode: 'phone', value: options.ownerPhone },
					...options.review,
					approvalOptions: {
						values: { approvalType: 'double', approveLabel: 'Allow', disapproveLabel: 'Refuse' },
					},
				},
				credentials,
			},
			{
				id: 'send-text-tool',
				name: 'Send WhatsApp Text',
				type: `${PACKAGE_NAME}.botSailorTool`,
				typeVersion: 1.1,
				position: [320, 480],
				parameters: {
					resource: 'message',
					operation: 'sendText',
					phoneNumberId: { __rl: true, mode: 'id', value: NUMBER },
					phoneNumber: `={{ $fromAI('phone_number', 'The subscriber phone number, digits with country code', 'string') }}`,
					message: `={{ $fromAI('message', 'The text to send', 'string') }}`,
				},
				credentials,
			},
		],
		connections: {
			Manual: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': {
				ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
			},
			'Owner Review': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
			'Send WhatsApp Text': { ai_tool: [[{ node: 'Owner Review', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}
