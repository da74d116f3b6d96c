import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { testBotSailorApi } from '../shared/http/credentialTest';
import { listSearch } from './methods/listSearch';
import { loadOptions } from './methods/loadOptions';
import { resourceMapping } from './methods/resourceMapping';
import { FORM_CONTENT_TYPE } from '../shared/http/transport';
import { RESOURCES } from './resources';
import { SENDS } from './resources/sends';
import { bulkSends } from './sending/bulkSend';
import { sendAndWaitWebhook, sendAndWaitWebhooks, withSendAndWait } from './sendAndWait';
import { exposesSendAndWaitWebhook } from './sendAndWait/webhookGate';

export class BotSailor implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'BotSailor',
		name: 'botSailor',
		icon: { light: 'file:../../icons/botsailor.svg', dark: 'file:../../icons/botsailor.dark.svg' },
		group: ['output'],
		// 1.1: Send Template shows one place to enter variables (Variables: From the Template / By Label and Position).
		// 1.2: Send and Wait in the chat sends no link unless Answer on the Web Link is on, and its confirmation names
		// the decision (earlier versions keep their web link and their confirmation as it was).
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		subtitle:
			'={{ ({"addLabels":"Add Labels","addToSequences":"Add to Sequences","assignToTeamMember":"Assign to Team Member","connect":"Connect","create":"Create","createWithLoginLink":"Create With Login Link","delete":"Delete","downloadMedia":"Download Media","get":"Get","getAiTokens":"Get AI Tokens","getDeliveryReport":"Get Delivery Report","getLoginLink":"Get Login Link","getMany":"Get Many","getMe":"Get Me","getResponse":"Get Response","getStatus":"Get Status","getTranscript":"Get Transcript","getUnanswered":"Get Unanswered","getUsageLog":"Get Usage Log","getWindowStatus":"Get Window Status","handOver":"Hand Over to a Person","logOut":"Log Out","optIn":"Opt In","optOut":"Opt Out","removeFromSequences":"Remove From Sequences","removeLabels":"Remove Labels","resetInputFlow":"Reset Input Flow","sendAndWait":"Send and Wait for Response","sendBroadcast":"Send Broadcast","sendButtons":"Send Buttons","sendMedia":"Send Media","sendTemplate":"Send Template","sendText":"Send Text","setConversationStatus":"Set Conversation Status","setCustomFields":"Set Custom Fields","sync":"Sync","trigger":"Trigger","update":"Update","updateAiTokens":"Update AI Tokens","updateStatus":"Update Status","upload":"Upload"}[$parameter["operation"]] || $parameter["operation"]) + ": " + ({"account":"Account","addon":"Addon","addonPurchase":"Addon Purchase","ai":"AI","botFlow":"Bot Flow","catalog":"Catalog","catalogOrder":"Catalog Order","crmDeal":"CRM Deal","customField":"Custom Field","label":"Label","media":"Media","message":"Message","module":"Module","note":"Note","package":"Package","postBack":"Post-Back","sequence":"Sequence","subscriber":"Subscriber","teamMember":"Team Member","template":"Template","transaction":"Transaction","user":"User"}[$parameter["resource"]] || $parameter["resource"]) }}',
		description:
			'Send WhatsApp messages and manage subscribers, templates, CRM, catalogs and resellers on BotSailor',
		defaults: { name: 'BotSailor' },
		usableAsTool: true,
		// For n8n's AI workflow builder (n8n-workflow's IBuilderHint): which resource and operation fits which task.
		builderHint: {
			searchHint:
				"WhatsApp through BotSailor or a white-label BotSailor platform. Set resource and operation: message/sendText for free text (WhatsApp delivers it only within 24 hours of the customer's last message), message/sendTemplate outside that window or to write first, message/sendButtons and message/sendMedia for reply buttons and files, message/sendAndWait to ask a person for an approval or an answer and wait, message/getTranscript and message/getUnanswered to give an AI agent the conversation, subscriber/get, create, update, addLabels and optOut for contacts, template/sendBroadcast for a campaign. Phone numbers are digits with the country code. To start a workflow on a customer's message use BotSailor Webhook Trigger (instant) or BotSailor Trigger (polling).",
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-botsailor.botSailorWebhookTrigger',
					relationHint: 'Starts the workflow when a customer writes, to answer with this node',
				},
				{
					nodeType: 'n8n-nodes-botsailor.botSailorTrigger',
					relationHint: 'Polling trigger for new messages, subscribers, orders and statuses',
				},
			],
		},
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'botSailorApi', required: true, testedBy: 'botSailorApiTest' }],
		// Message → Send and Wait for Response: the answer links of a waiting execution (sendAndWait/).
		webhooks: sendAndWaitWebhooks,
		// No baseURL here: the credential's authenticate sets it from the Base URL (normalised). An
		// expression would be evaluated twice per item by RoutingNode, and expressions are its main cost.
		requestDefaults: {
			method: 'POST',
			headers: { 'Content-Type': FORM_CONTENT_TYPE, Accept: 'application/json' },
			ignoreHttpStatusErrors: true,
			// A redirect is an error (envelope.ts): following it would send the form body, API token included, elsewhere.
			disableFollowRedirect: true,
		},
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Account', value: 'account' },
					{ name: 'Addon', value: 'addon' },
					{ name: 'Addon Purchase', value: 'addonPurchase' },
					{ name: 'AI', value: 'ai' },
					{ name: 'Bot Flow', value: 'botFlow' },
					{ name: 'Catalog', value: 'catalog' },
					{ name: 'Catalog Order', value: 'catalogOrder' },
					{ name: 'CRM Deal', value: 'crmDeal' },
					{ name: 'Custom Field', value: 'customField' },
					{ name: 'Label', value: 'label' },
					{ name: 'Media', value: 'media' },
					{ name: 'Message', value: 'message' },
					{ name: 'Module', value: 'module' },
					{ name: 'Note', value: 'note' },
					{ name: 'Package', value: 'package' },
					{ name: 'Post-Back', value: 'postBack' },
					{ name: 'Sequence', value: 'sequence' },
					{ name: 'Subscriber', value: 'subscriber' },
					{ name: 'Team Member', value: 'teamMember' },
					{ name: 'Template', value: 'template' },
					{ name: 'Transaction', value: 'transaction' },
					{ name: 'User', value: 'user' },
				],
				default: 'message',
			},
			...RESOURCES.flatMap((resource) => resource.properties),
		],
	};

	methods = {
		listSearch,
		loadOptions,
		resourceMapping,
		credentialTest: { botSailorApiTest: testBotSailorApi },
	};

	// In a workflow the sends run on the bulk path (checked first, bounded, at most once, a failed run says what
	// was delivered); n8n's declarative engine, used by some AI Agent tool paths, runs the same definitions.
	customOperations = withSendAndWait(bulkSends([...SENDS]));

	/** The answers to Send and Wait, where n8n can use them safely (sendAndWait/webhookGate.ts says when). */
	get webhook(): INodeType['webhook'] {
		return exposesSendAndWaitWebhook(this) ? sendAndWaitWebhook : undefined;
	}
}
