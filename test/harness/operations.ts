/**
 * The operation catalog, the one source of every operation's valid parameters: for every operation of the action
 * node, a parameter set that succeeds against the simulator's seed data (validParameters), and per user-typed
 * parameter the invalid values the node must refuse before sending and the valid edge values it must send as is
 * (the reliability matrix, test/reliability/). test/reliability/catalog.test.ts checks that every operation of the
 * node description has an entry here: a new operation is one new entry.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import type { InputItem } from './harness';
import type { Simulator } from '../simulator/server';
import { byId, fromList, NUMBER, onNumber, onSubscriber, PHONE } from './params';

/** The value every fuzzed parameter is set to; each case's value arrives as the input item's `v`. */
export const FROM_ITEM = '={{ $json.v }}';

/** A value the node must refuse, naming `parameter`, without sending anything. */
export interface InvalidValue {
	why: string;
	value: unknown;
	/** What the error must also say, beyond naming the parameter. */
	says?: RegExp;
}

/** A value the node must send unchanged: `sent` is what the simulator must receive in `field`. */
export interface EdgeValue {
	why: string;
	value: unknown;
	field: string;
	sent: string;
}

/** One user-typed parameter: where it sits in the parameters, its display name, its values. */
export interface ParameterCases {
	/** Dotted path in the node parameters (a resource locator's `.value`, a collection's `.field`). */
	path: string;
	/** The parameter's display name, which the error must start with. */
	parameter: string;
	invalid: InvalidValue[];
	edge?: EdgeValue[];
	/** The name the error uses when it is shorter than the display name ("Labels" for "Label Names or IDs"). */
	says?: string;
	/** Parameters that make this one shown (a mode switch). */
	extra?: INodeParameters;
}

export interface CatalogEntry {
	resource: string;
	operation: string;
	/** Distinguishes two entries of one operation (Send Media from a URL and from a binary file). */
	variant?: string;
	parameters: INodeParameters | ((sim: Simulator) => INodeParameters);
	items?: InputItem[];
	/** The endpoint (under /api/v1) of the operation's first request. */
	endpoint: string;
	/** Whether the operation changes platform data (batches only repeat the ones that can run twice). */
	repeatable?: boolean;
	cases: ParameterCases[];
}

/* Invalid-value generators, by the kind of value a parameter takes. */
const empty: InvalidValue[] = [
	{ why: 'empty', value: '' },
	{ why: 'only spaces', value: '   ' },
];
/** What a phone field says of a user id or a username: what the platform's API accepts today. */
const ACCEPTS_PHONES =
	/is a WhatsApp user ID or username .*the platform's API accepts only phone numbers/;
const phoneInvalid: InvalidValue[] = [
	{ why: 'letters (O for 0)', value: '+44 77OO 900123' },
	{ why: 'words', value: 'call me' },
	{ why: 'empty', value: '' },
	{ why: 'too short', value: '12345' },
	{ why: 'too long', value: '1234567890123456' },
	{ why: 'wrong type (object)', value: { phone: PHONE } },
	// Meta's ids for customers without a phone number (2026): the platform's API takes phone numbers only.
	{ why: "Meta's business-scoped user id", value: 'US.13491208655302741918', says: ACCEPTS_PHONES },
	{ why: 'a WhatsApp username', value: '@ava.bakes', says: ACCEPTS_PHONES },
];
const dateInvalid: InvalidValue[] = [
	{ why: 'day first', value: '31/12/2026' },
	{ why: 'impossible day', value: '2026-02-30' },
	{ why: 'impossible month', value: '2026-13-01' },
	{ why: 'with time', value: '2026-12-31 10:00' },
	{ why: 'empty', value: '' },
];
const integerInvalid: InvalidValue[] = [
	{ why: 'letters', value: 'abc' },
	{ why: 'fraction', value: '1.5' },
	{ why: 'empty', value: '' },
	{ why: 'wrong type (object)', value: { id: 1 } },
];
const numberInvalid: InvalidValue[] = [
	{ why: 'letters', value: 'lots' },
	{ why: 'wrong type (object)', value: { n: 1 } },
];
const jsonInvalid: InvalidValue[] = [
	{ why: 'malformed JSON', value: '{"a":' },
	{ why: 'not JSON', value: 'hello' },
	{ why: 'a JSON number', value: '42' },
];
const emailInvalid: InvalidValue[] = [
	{ why: 'no @', value: 'not-an-email' },
	{ why: 'empty', value: '' },
];
const oneOfInvalid: InvalidValue[] = [{ why: 'not an option', value: 'bogus' }];

/* Edge values: text that must arrive byte-for-byte. */
const UNICODE = 'Grüße, naïve café — 你好, مرحبا, Привет';
const EMOJI = 'Order shipped 🎉📦👍🏽 — thanks! 🇫🇷';
export const LONG_TEXT = 'x'.repeat(4_000) + '🎉'.repeat(48); // 4,096 UTF-16 units
/** WhatsApp's limit, to the character (an emoji is one): `max` x's ending in emoji. */
const textOf = (max: number) => 'x'.repeat(max - 48) + '🎉'.repeat(48);
const textEdges = (field: string, long: boolean | number = false): EdgeValue[] => [
	{ why: 'unicode', value: UNICODE, field, sent: UNICODE },
	{ why: 'emoji', value: EMOJI, field, sent: EMOJI },
	...(long === true
		? [{ why: '4,096-character text', value: LONG_TEXT, field, sent: LONG_TEXT }]
		: []),
	...(typeof long === 'number'
		? [
				{
					why: `${long.toLocaleString('en')}-character text (WhatsApp's limit)`,
					value: textOf(long),
					field,
					sent: textOf(long),
				},
			]
		: []),
];
/** Issue 34: text one character over WhatsApp's limit (nodes/shared/whatsapp/whatsAppLimits.ts) is refused before any request. */
const overLimit = (max: number): InvalidValue[] => [
	{
		why: `${(max + 1).toLocaleString('en')} characters (over WhatsApp's ${max.toLocaleString('en')})`,
		value: 'y'.repeat(max + 1),
	},
];
const phoneEdges = (field: string): EdgeValue[] => [
	{ why: 'leading zeros kept', value: '0015550100000', field, sent: '0015550100000' },
	{ why: 'formatted with spaces and dashes', value: '+1 (555) 010-0000', field, sent: PHONE },
	{ why: 'typed as a number', value: 15550100000, field, sent: PHONE },
];

const phone = (path = 'phoneNumber', field = 'phone_number'): ParameterCases => ({
	path,
	parameter: 'Phone Number',
	invalid: phoneInvalid,
	edge: phoneEdges(field),
});
/** The Subscriber field of sends and conversations (a resource locator named phoneNumber): typed values. */
const recipientPhone: ParameterCases = {
	path: 'phoneNumber',
	parameter: 'Subscriber',
	invalid: phoneInvalid.filter((entry) => entry.why !== 'wrong type (object)'),
	edge: phoneEdges('phone_number'),
};
const subscriberPhone: ParameterCases = {
	path: 'subscriber',
	parameter: 'Subscriber',
	invalid: phoneInvalid.filter((entry) => entry.why !== 'wrong type (object)'),
};
const whatsAppNumber: ParameterCases = {
	path: 'phoneNumberId.value',
	parameter: 'WhatsApp Number',
	invalid: empty,
};
const required = (path: string, parameter: string, edge: EdgeValue[] = []): ParameterCases => ({
	path,
	parameter,
	invalid: empty,
	edge,
});
const limit: ParameterCases = {
	path: 'limit',
	parameter: 'Limit',
	invalid: [
		{ why: 'letters', value: 'ten' },
		{ why: 'zero (out of range)', value: 0 },
		{ why: 'negative (out of range)', value: -5 },
	],
};

const templateId = (sim: Simulator, name: string) =>
	String(
		sim.state.templates.find(
			(entry) => entry.template_name === name && entry.phone_number_id === NUMBER,
		)?.template_id,
	);
const BINARY: InputItem[] = [
	{
		json: {},
		binary: {
			data: {
				data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]),
				mimeType: 'image/png',
				fileName: 'logo.png',
			},
		},
	},
];
const ADDON_CREATE = {
	addonName: 'Extra broadcasts',
	module: byId(4),
	addonDescription: 'More broadcasts',
	price: 12.5,
	validity: 1,
	validityType: 'M',
	addonType: 'recurring',
	extendValue: 100,
};

export const catalog: CatalogEntry[] = [
	// Account
	{
		resource: 'account',
		operation: 'connect',
		endpoint: '/whatsapp/account/connect',
		repeatable: true,
		parameters: { userId: 101, whatsappBusinessAccountId: '2099', accessToken: 'EAAG-secret' },
		cases: [
			{ path: 'userId', parameter: 'User ID', invalid: integerInvalid },
			required('whatsappBusinessAccountId', 'WhatsApp Business Account ID'),
			required('accessToken', 'Access Token'),
		],
	},
	// Addon
	{
		resource: 'addon',
		operation: 'create',
		endpoint: '/user/addon/create',
		repeatable: true,
		parameters: ADDON_CREATE,
		cases: [
			required('addonName', 'Name', textEdges('addon_name')),
			required('addonDescription', 'Description'),
			{ path: 'module.value', parameter: 'Module', invalid: integerInvalid },
			{ path: 'price', parameter: 'Price', invalid: numberInvalid },
			{ path: 'validity', parameter: 'Validity', invalid: integerInvalid },
			{
				path: 'extendValue',
				parameter: 'Extend Value',
				invalid: integerInvalid.filter((entry) => entry.why !== 'empty'),
			},
			{ path: 'validityType', parameter: 'Validity Type', invalid: oneOfInvalid },
			{
				path: 'variationsJson',
				parameter: 'Variations (JSON)',
				invalid: jsonInvalid.slice(0, 2),
				extra: { variationsInput: 'json' },
			},
		],
	},
	{
		resource: 'addon',
		operation: 'getMany',
		endpoint: '/user/addon/list',
		repeatable: true,
		parameters: {},
		cases: [],
	},
	{
		resource: 'addon',
		operation: 'update',
		endpoint: '/user/addon/update',
		repeatable: true,
		parameters: { addon: byId(1), addonName: 'Renamed', updateFields: { price: 11 } },
		cases: [
			{ path: 'addon.value', parameter: 'Addon', invalid: integerInvalid },
			required('addonName', 'Name', textEdges('addon_name')),
			{ path: 'updateFields.price', parameter: 'Price', invalid: numberInvalid },
		],
	},
	// Addon Purchase
	{
		resource: 'addonPurchase',
		operation: 'create',
		endpoint: '/user/addon/assign',
		repeatable: true,
		parameters: { user: byId(105), addon: byId('1-0'), expiredDate: '2026-08-01' },
		cases: [
			{ path: 'user.value', parameter: 'User', invalid: integerInvalid },
			{
				path: 'addon.value',
				parameter: 'Addon',
				invalid: [
					{ why: 'bad variation', value: '1-x' },
					{ why: 'letters', value: 'abc' },
					{ why: 'empty', value: '' },
				],
			},
			{ path: 'expiredDate', parameter: 'Expiry Date', invalid: dateInvalid },
		],
	},
	{
		resource: 'addonPurchase',
		operation: 'delete',
		endpoint: '/addon/purchase/delete',
		parameters: { addonPurchase: byId(900) },
		cases: [{ path: 'addonPurchase.value', parameter: 'Addon Purchase', invalid: integerInvalid }],
	},
	{
		resource: 'addonPurchase',
		operation: 'getAiTokens',
		endpoint: '/user/addon/assign/credits',
		repeatable: true,
		parameters: { addonPurchase: byId(907) },
		cases: [{ path: 'addonPurchase.value', parameter: 'Addon Purchase', invalid: integerInvalid }],
	},
	{
		resource: 'addonPurchase',
		operation: 'getMany',
		endpoint: '/user/addon/assign/list',
		repeatable: true,
		parameters: { returnAll: false, limit: 2 },
		cases: [limit],
	},
	{
		resource: 'addonPurchase',
		operation: 'update',
		endpoint: '/user/addon/assign/update',
		repeatable: true,
		parameters: {
			addonPurchase: byId(902),
			expiry: 'date',
			expiredDate: '2027-02-02',
			updateFields: { status: '1' },
		},
		cases: [
			{ path: 'addonPurchase.value', parameter: 'Addon Purchase', invalid: integerInvalid },
			{ path: 'expiredDate', parameter: 'Expiry Date', invalid: dateInvalid },
		],
	},
	{
		resource: 'addonPurchase',
		operation: 'updateAiTokens',
		endpoint: '/user/addon/assign/credits',
		repeatable: true,
		parameters: { addonPurchase: byId(907), used: 100, available: 900 },
		cases: [
			{ path: 'used', parameter: 'Used Tokens', invalid: integerInvalid },
			{ path: 'available', parameter: 'Available Tokens', invalid: integerInvalid },
		],
	},
	// AI
	{
		resource: 'ai',
		operation: 'getResponse',
		endpoint: '/ai/get_response',
		repeatable: true,
		parameters: { param: '{"prompt":"Summarise"}' },
		cases: [
			{
				path: 'param',
				parameter: 'Prompt Data',
				invalid: jsonInvalid,
				edge: [
					{
						why: 'unicode JSON',
						value: '{"prompt":"Résumé 你好 🎉"}',
						field: 'param',
						sent: '{"prompt":"Résumé 你好 🎉"}',
					},
				],
			},
		],
	},
	// Bot Flow
	{
		resource: 'botFlow',
		operation: 'getMany',
		endpoint: '/whatsapp/get/bot-flow-list',
		repeatable: true,
		parameters: { ...onNumber },
		cases: [whatsAppNumber],
	},
	{
		resource: 'botFlow',
		operation: 'trigger',
		endpoint: '/whatsapp/trigger-bot',
		repeatable: true,
		parameters: { ...onNumber, botFlowUniqueId: fromList('flow_0_0_a1b2c3'), phoneNumber: PHONE },
		cases: [
			whatsAppNumber,
			recipientPhone,
			{ path: 'botFlowUniqueId.value', parameter: 'Bot Flow', invalid: empty },
		],
	},
	// Catalog
	{
		resource: 'catalog',
		operation: 'getMany',
		endpoint: '/whatsapp/catalog/list',
		repeatable: true,
		parameters: {},
		cases: [],
	},
	{
		resource: 'catalog',
		operation: 'sync',
		endpoint: '/whatsapp/catalog/sync',
		repeatable: true,
		parameters: { catalog: fromList('7788990022') },
		cases: [{ path: 'catalog.value', parameter: 'Catalog', invalid: empty }],
	},
	// Catalog Order
	{
		resource: 'catalogOrder',
		operation: 'getMany',
		endpoint: '/whatsapp/catalog/order/list',
		repeatable: true,
		parameters: { returnAll: false, limit: 2 },
		cases: [limit],
	},
	{
		resource: 'catalogOrder',
		operation: 'updateStatus',
		endpoint: '/whatsapp/catalog/order/status-change',
		repeatable: true,
		parameters: { orderId: 'ORD-1000', status: 'Shipped' },
		cases: [
			required('orderId', 'Order ID'),
			{ path: 'status', parameter: 'Status', invalid: oneOfInvalid },
		],
	},
	// CRM Deal
	{
		resource: 'crmDeal',
		operation: 'get',
		endpoint: '/whatsapp/subscriber/crm/get',
		repeatable: true,
		parameters: { ...onSubscriber },
		cases: [whatsAppNumber, subscriberPhone],
	},
	{
		resource: 'crmDeal',
		operation: 'update',
		endpoint: '/whatsapp/subscriber/crm/update',
		repeatable: true,
		parameters: {
			...onSubscriber,
			updateFields: {
				title: 'Wedding cake',
				value: 250.5,
				expectedCloseDate: '2026-03-31',
				leadScore: 'hot',
			},
		},
		cases: [
			whatsAppNumber,
			subscriberPhone,
			{
				path: 'updateFields.expectedCloseDate',
				parameter: 'Expected Close Date',
				invalid: dateInvalid.filter((entry) => entry.why !== 'empty'),
			},
			{ path: 'updateFields.value', parameter: 'Value', invalid: numberInvalid },
			{ path: 'updateFields.leadScore', parameter: 'Lead Score', invalid: oneOfInvalid },
			{ path: 'updateFields.title', parameter: 'Title', invalid: [], edge: textEdges('title') },
		],
	},
	// Custom Field
	{
		resource: 'customField',
		operation: 'getMany',
		endpoint: '/whatsapp/subscriber/custom-fields/list',
		repeatable: true,
		parameters: {},
		cases: [],
	},
	// Label
	{
		resource: 'label',
		operation: 'create',
		endpoint: '/label/create',
		repeatable: true,
		parameters: { ...onNumber, labelName: 'Birthday club' },
		cases: [required('labelName', 'Name', textEdges('label_name'))],
	},
	{
		resource: 'label',
		operation: 'getMany',
		endpoint: '/label/list',
		repeatable: true,
		parameters: {},
		cases: [],
	},
	// Media
	{
		resource: 'media',
		operation: 'upload',
		endpoint: '/whatsapp/upload/media',
		repeatable: true,
		parameters: { ...onNumber, binaryPropertyName: 'data' },
		items: BINARY,
		cases: [whatsAppNumber],
	},
	// Message
	{
		// A seeded text message, passed through (the seed has no media unless asked): the lookup by ID is what is exercised.
		resource: 'message',
		operation: 'downloadMedia',
		endpoint: '/whatsapp/get/conversation',
		repeatable: true,
		parameters: (sim) => ({
			...onNumber,
			messageSource: 'id',
			phoneNumber: PHONE,
			options: { passThrough: true },
			messageId: String(
				sim.state.messages.find(
					(entry) =>
						entry.phone_number_id === NUMBER &&
						entry.whatsapp_bot_subscriber_subscriber_id === PHONE,
				)?.wa_message_id,
			),
		}),
		cases: [whatsAppNumber, recipientPhone, required('messageId', 'Message ID')],
	},
	{
		resource: 'message',
		operation: 'getMany',
		endpoint: '/whatsapp/get/conversation',
		repeatable: true,
		parameters: { ...onNumber, phoneNumber: PHONE, returnAll: false, limit: 5 },
		cases: [whatsAppNumber, recipientPhone, limit],
	},
	{
		resource: 'message',
		operation: 'getTranscript',
		endpoint: '/whatsapp/get/conversation',
		repeatable: true,
		parameters: { ...onNumber, phoneNumber: PHONE, lastMessages: 10, maxCharacters: 2000 },
		cases: [
			whatsAppNumber,
			recipientPhone,
			{
				path: 'lastMessages',
				parameter: 'Last Messages',
				invalid: [
					{ why: 'letters', value: 'ten' },
					{ why: 'zero (out of range)', value: 0 },
					{ why: 'over the most (1,000)', value: 1001 },
				],
			},
			{
				path: 'maxCharacters',
				parameter: 'Max Characters',
				invalid: [
					{ why: 'letters', value: 'lots' },
					{ why: 'under the least (500)', value: 499 },
				],
			},
			{
				path: 'since',
				parameter: 'Since',
				extra: { range: 'since' },
				invalid: [
					{ why: 'words', value: 'yesterday' },
					{ why: 'empty', value: '' },
					{ why: 'day first', value: '31/12/2026' },
				],
			},
		],
	},
	{
		resource: 'message',
		operation: 'getUnanswered',
		endpoint: '/whatsapp/get/conversation',
		repeatable: true,
		parameters: { ...onNumber, phoneNumber: PHONE, messageId: 'wamid.none' },
		cases: [whatsAppNumber, recipientPhone],
	},
	{
		resource: 'message',
		operation: 'getDeliveryReport',
		endpoint: '/whatsapp/get/message-status',
		repeatable: true,
		parameters: (sim) => ({
			messageIds: sim.state.messages
				.filter((entry) => entry.wa_message_id && entry.sender !== 'user')
				.slice(0, 3)
				.map((entry) => entry.wa_message_id)
				.join(', '),
		}),
		cases: [
			{
				path: 'messageIds',
				parameter: 'Message IDs',
				invalid: [
					{ why: 'empty', value: '' },
					{ why: 'separators only', value: ' , \n ' },
				],
			},
			{
				path: 'maxMessages',
				parameter: 'Max Messages',
				invalid: [
					{ why: 'zero', value: 0 },
					{ why: 'over the most (1000)', value: 1001 },
					{ why: 'letters', value: 'lots' },
				],
			},
		],
	},
	{
		resource: 'message',
		operation: 'getStatus',
		endpoint: '/whatsapp/get/message-status',
		repeatable: true,
		parameters: (sim) => ({
			waMessageId: String(sim.state.messages.find((entry) => entry.wa_message_id)?.wa_message_id),
		}),
		cases: [required('waMessageId', 'Message ID')],
	},
	{
		resource: 'message',
		operation: 'sendButtons',
		endpoint: '/whatsapp/send/interactive-buttons',
		repeatable: true,
		parameters: {
			...onNumber,
			phoneNumber: PHONE,
			message: 'Pick one',
			buttons: {
				button: [
					{ title: 'Yes', id: '' },
					{ title: 'No', id: '' },
				],
			},
		},
		cases: [
			whatsAppNumber,
			recipientPhone,
			{
				...required('message', 'Message', textEdges('message', 1024)),
				invalid: [...empty, ...overLimit(1024)],
			},
		],
	},
	{
		resource: 'message',
		operation: 'sendMedia',
		variant: 'from a URL',
		endpoint: '/whatsapp/send/file',
		repeatable: true,
		parameters: {
			...onNumber,
			phoneNumber: PHONE,
			source: 'url',
			mediaUrl: 'https://cdn.example.com/menu.pdf',
			additionalFields: { caption: 'Menu' },
		},
		cases: [
			whatsAppNumber,
			recipientPhone,
			required('mediaUrl', 'Media URL'),
			{
				path: 'additionalFields.caption',
				parameter: 'Caption',
				invalid: overLimit(1024),
				edge: textEdges('media_caption_text', 1024),
			},
		],
	},
	{
		resource: 'message',
		operation: 'sendMedia',
		variant: 'from a binary file',
		endpoint: '/whatsapp/upload/media',
		repeatable: true,
		parameters: { ...onNumber, phoneNumber: PHONE, source: 'binary', binaryPropertyName: 'data' },
		items: BINARY,
		cases: [recipientPhone],
	},
	{
		resource: 'message',
		operation: 'sendTemplate',
		endpoint: '/whatsapp/send/template',
		repeatable: true,
		parameters: (sim) => ({
			...onNumber,
			phoneNumber: PHONE,
			templateId: fromList(templateId(sim, 'welcome_offer')),
			manualVariables: { variable: [{ label: 'first_name', position: 1, value: 'Ava' }] },
		}),
		cases: [
			whatsAppNumber,
			recipientPhone,
			{ path: 'templateId.value', parameter: 'Template', invalid: empty },
		],
	},
	{
		resource: 'message',
		operation: 'sendText',
		endpoint: '/whatsapp/send',
		repeatable: true,
		parameters: { ...onNumber, phoneNumber: PHONE, message: 'Your order is ready' },
		cases: [
			whatsAppNumber,
			recipientPhone,
			{
				...required('message', 'Message', textEdges('message', true)),
				invalid: [...empty, ...overLimit(4096)],
			},
		],
	},
	{
		// The run waits for the answer after the send (test/node/sendAndWait.test.ts answers it); the question is the
		// message plus the answer links, so no byte-for-byte edge values for Message.
		resource: 'message',
		operation: 'sendAndWait',
		endpoint: '/whatsapp/send',
		parameters: { ...onNumber, phoneNumber: PHONE, message: 'Approve order A-1001?' },
		cases: [
			whatsAppNumber,
			recipientPhone,
			{ path: 'message', parameter: 'Message', invalid: empty },
		],
	},
	// Module, Package, Team Member, Transaction
	{
		resource: 'module',
		operation: 'getMany',
		endpoint: '/user/module/list',
		repeatable: true,
		parameters: {},
		cases: [],
	},
	{
		resource: 'note',
		operation: 'create',
		endpoint: '/whatsapp/subscriber/chat/add-notes',
		repeatable: true,
		parameters: { ...onSubscriber, noteText: 'Prefers delivery after 5pm' },
		cases: [
			whatsAppNumber,
			subscriberPhone,
			required('noteText', 'Note', textEdges('note_text', true)),
		],
	},
	{
		resource: 'note',
		operation: 'getMany',
		endpoint: '/whatsapp/subscriber/chat/get-notes',
		repeatable: true,
		parameters: { ...onSubscriber },
		cases: [whatsAppNumber, subscriberPhone],
	},
	{
		resource: 'package',
		operation: 'getMany',
		endpoint: '/user/package/list',
		repeatable: true,
		parameters: {},
		cases: [{ path: 'packageType', parameter: 'Package Type', invalid: oneOfInvalid }],
	},
	{
		resource: 'postBack',
		operation: 'getMany',
		endpoint: '/whatsapp/get/post-back-list',
		repeatable: true,
		parameters: { ...onNumber },
		cases: [whatsAppNumber],
	},
	{
		resource: 'sequence',
		operation: 'getMany',
		endpoint: '/whatsapp/subscriber/sequence/list',
		repeatable: true,
		parameters: { ...onNumber },
		cases: [whatsAppNumber],
	},
	// Subscriber
	{
		resource: 'subscriber',
		operation: 'addLabels',
		endpoint: '/whatsapp/subscriber/chat/assign-labels',
		repeatable: true,
		parameters: { ...onSubscriber, labelIds: ['32'] },
		cases: [
			whatsAppNumber,
			subscriberPhone,
			{
				path: 'labelIds',
				parameter: 'Label Names or IDs',
				says: 'Labels',
				invalid: [
					{ why: 'letters', value: 'vip' },
					{ why: 'empty', value: '' },
				],
			},
		],
	},
	{
		resource: 'subscriber',
		operation: 'addToSequences',
		endpoint: '/whatsapp/subscriber/chat/assign-sequence',
		repeatable: true,
		parameters: { ...onSubscriber, sequenceIds: ['41'] },
		cases: [
			whatsAppNumber,
			subscriberPhone,
			{
				path: 'sequenceIds',
				parameter: 'Sequence Names or IDs',
				says: 'Sequences',
				invalid: [
					{ why: 'letters', value: 'drip' },
					{ why: 'empty', value: '' },
				],
			},
		],
	},
	{
		resource: 'subscriber',
		operation: 'assignToTeamMember',
		endpoint: '/whatsapp/subscriber/chat/assign-to-team-member',
		repeatable: true,
		parameters: { ...onSubscriber, teamMember: fromList('502') },
		cases: [
			whatsAppNumber,
			subscriberPhone,
			{ path: 'teamMember.value', parameter: 'Team Member', invalid: integerInvalid },
		],
	},
	{
		resource: 'subscriber',
		operation: 'getWindowStatus',
		endpoint: '/whatsapp/get/conversation',
		repeatable: true,
		parameters: { ...onSubscriber },
		cases: [whatsAppNumber, subscriberPhone],
	},
	{
		resource: 'subscriber',
		operation: 'handOver',
		endpoint: '/whatsapp/subscriber/chat/assign-to-team-member',
		repeatable: true,
		parameters: { ...onSubscriber, teamMember: fromList('502'), reason: 'Asks for a refund' },
		cases: [
			whatsAppNumber,
			subscriberPhone,
			{ path: 'teamMember.value', parameter: 'Team Member', invalid: integerInvalid },
		],
	},
	{
		resource: 'subscriber',
		operation: 'optOut',
		endpoint: '/label/list',
		repeatable: true,
		parameters: { ...onSubscriber, optOutLabel: 'opted-out', blockConversation: true },
		cases: [whatsAppNumber, subscriberPhone, required('optOutLabel', 'Opt-Out Label')],
	},
	{
		resource: 'subscriber',
		operation: 'optIn',
		endpoint: '/label/list',
		repeatable: true,
		parameters: { ...onSubscriber, optOutLabel: 'VIP', unblockConversation: true },
		cases: [whatsAppNumber, subscriberPhone, required('optOutLabel', 'Opt-Out Label')],
	},
	{
		resource: 'subscriber',
		operation: 'create',
		endpoint: '/whatsapp/subscriber/create',
		parameters: { ...onNumber, phoneNumber: '+44 7700 900123', name: 'Jane Doe' },
		cases: [whatsAppNumber, phone('phoneNumber', 'phoneNumber'), required('name', 'Name')],
	},
	{
		resource: 'subscriber',
		operation: 'delete',
		endpoint: '/whatsapp/subscriber/delete',
		parameters: { ...onSubscriber },
		cases: [whatsAppNumber, subscriberPhone],
	},
	{
		resource: 'subscriber',
		operation: 'get',
		endpoint: '/whatsapp/subscriber/get',
		repeatable: true,
		parameters: { ...onSubscriber },
		cases: [whatsAppNumber, subscriberPhone],
	},
	{
		resource: 'subscriber',
		operation: 'getMany',
		endpoint: '/whatsapp/subscriber/list',
		repeatable: true,
		parameters: { ...onNumber, returnAll: false, limit: 3 },
		cases: [whatsAppNumber, limit],
	},
	{
		resource: 'subscriber',
		operation: 'removeFromSequences',
		endpoint: '/whatsapp/subscriber/chat/remove-sequence',
		repeatable: true,
		parameters: { ...onSubscriber, sequenceIds: ['41'] },
		cases: [
			whatsAppNumber,
			subscriberPhone,
			{
				path: 'sequenceIds',
				parameter: 'Sequence Names or IDs',
				says: 'Sequences',
				invalid: [{ why: 'letters', value: 'drip' }],
			},
		],
	},
	{
		resource: 'subscriber',
		operation: 'removeLabels',
		endpoint: '/whatsapp/subscriber/chat/remove-labels',
		repeatable: true,
		parameters: { ...onSubscriber, labelIds: ['31'] },
		cases: [
			whatsAppNumber,
			subscriberPhone,
			{
				path: 'labelIds',
				parameter: 'Label Names or IDs',
				says: 'Labels',
				invalid: [{ why: 'letters', value: 'vip' }],
			},
		],
	},
	{
		resource: 'subscriber',
		operation: 'resetInputFlow',
		endpoint: '/whatsapp/subscriber/reset/user-input-flow',
		repeatable: true,
		parameters: { ...onSubscriber },
		cases: [whatsAppNumber, subscriberPhone],
	},
	{
		resource: 'subscriber',
		operation: 'setConversationStatus',
		endpoint: '/whatsapp/subscriber/chat/mark-conversation',
		repeatable: true,
		parameters: { ...onSubscriber, conversationAction: 'resolved' },
		cases: [
			whatsAppNumber,
			subscriberPhone,
			{ path: 'conversationAction', parameter: 'Status', invalid: oneOfInvalid },
		],
	},
	{
		resource: 'subscriber',
		operation: 'setCustomFields',
		endpoint: '/whatsapp/subscriber/chat/assign-custom-fields',
		repeatable: true,
		parameters: { ...onSubscriber, customFieldsMode: 'json', customFieldsJson: '{"city":"Paris"}' },
		cases: [
			whatsAppNumber,
			subscriberPhone,
			{
				path: 'customFieldsJson',
				parameter: 'Custom Fields',
				invalid: [...jsonInvalid, { why: 'a JSON array', value: '["city"]' }],
				edge: [
					{
						why: 'unicode value',
						value: '{"city":"Zürich 🏔"}',
						field: 'custom_fields',
						sent: '{"city":"Zürich 🏔"}',
					},
				],
			},
		],
	},
	{
		resource: 'subscriber',
		operation: 'update',
		endpoint: '/whatsapp/subscriber/update',
		repeatable: true,
		parameters: { ...onSubscriber, updateFields: { firstName: 'Ann' } },
		cases: [
			whatsAppNumber,
			subscriberPhone,
			{ path: 'updateFields.gender', parameter: 'Gender', invalid: oneOfInvalid },
			{
				path: 'updateFields.firstName',
				parameter: 'First Name',
				invalid: [],
				edge: textEdges('first_name'),
			},
		],
	},
	{
		resource: 'teamMember',
		operation: 'getMany',
		endpoint: '/user/team-member/list',
		repeatable: true,
		parameters: {},
		cases: [],
	},
	// Template
	{
		resource: 'template',
		operation: 'create',
		endpoint: '/whatsapp/template/create',
		parameters: {
			...onNumber,
			name: 'summer_sale',
			language: 'en_US',
			templateType: 'standard',
			category: 'UTILITY',
			bodyText: 'Hello #!first_name!#',
		},
		cases: [
			whatsAppNumber,
			{
				path: 'name',
				parameter: 'Name',
				invalid: [
					{ why: 'capitals', value: 'Summer_Sale' },
					{ why: 'spaces', value: 'summer sale' },
					...empty,
				],
			},
			required('bodyText', 'Body Text'),
		],
	},
	{
		resource: 'template',
		operation: 'getMany',
		endpoint: '/whatsapp/template/list',
		repeatable: true,
		parameters: { ...onNumber },
		cases: [whatsAppNumber],
	},
	{
		resource: 'template',
		operation: 'getStatus',
		endpoint: '/whatsapp/template/status',
		repeatable: true,
		parameters: (sim) => ({ ...onNumber, templateId: fromList(templateId(sim, 'welcome_offer')) }),
		cases: [whatsAppNumber, { path: 'templateId.value', parameter: 'Template', invalid: empty }],
	},
	{
		resource: 'template',
		operation: 'sendBroadcast',
		endpoint: '/whatsapp/broadcast/template/send',
		repeatable: true,
		parameters: { ...onNumber, flowData: '{"template_id":"900000","labels":[31]}' },
		cases: [whatsAppNumber, { path: 'flowData', parameter: 'Flow Data', invalid: jsonInvalid }],
	},
	{
		resource: 'transaction',
		operation: 'getMany',
		endpoint: '/user/transaction/list',
		repeatable: true,
		parameters: { returnAll: false, limit: 4 },
		cases: [limit],
	},
	// User
	{
		resource: 'user',
		operation: 'create',
		endpoint: '/user/create',
		parameters: {
			name: 'Nora New',
			email: 'nora@example.com',
			password: 's3cret',
			package: byId(1),
			expiredDate: '2026-06-30',
		},
		cases: [
			required('name', 'Name', textEdges('name')),
			{ path: 'email', parameter: 'Email', invalid: emailInvalid },
			required('password', 'Password'),
			{ path: 'package.value', parameter: 'Package', invalid: integerInvalid },
			{ path: 'expiredDate', parameter: 'Expiry Date', invalid: dateInvalid },
			{
				path: 'additionalFields.mobile',
				parameter: 'Mobile',
				invalid: [],
				edge: [
					{
						why: 'leading zeros kept',
						value: '0044770090012',
						field: 'mobile',
						sent: '0044770090012',
					},
				],
			},
		],
	},
	{
		resource: 'user',
		operation: 'createWithLoginLink',
		endpoint: '/user/get/direct-login-url/only-new-users',
		parameters: { email: 'fresh@example.com', package: byId(1), expiredDate: '2026-10-10' },
		cases: [
			{ path: 'email', parameter: 'Email', invalid: emailInvalid },
			{ path: 'package.value', parameter: 'Package', invalid: integerInvalid },
			{ path: 'expiredDate', parameter: 'Expiry Date', invalid: dateInvalid },
		],
	},
	{
		resource: 'user',
		operation: 'get',
		endpoint: '/user/list',
		repeatable: true,
		parameters: { user: byId(101) },
		cases: [
			{
				path: 'user.value',
				parameter: 'User',
				invalid: [
					{ why: 'neither digits nor email', value: 'abc' },
					{ why: 'empty', value: '' },
				],
			},
		],
	},
	{
		resource: 'user',
		operation: 'getLoginLink',
		endpoint: '/user/get/direct-login-url',
		repeatable: true,
		parameters: { email: 'client1@agency.example' },
		cases: [{ path: 'email', parameter: 'Email', invalid: emailInvalid }],
	},
	{
		resource: 'user',
		operation: 'getMany',
		endpoint: '/user/list',
		repeatable: true,
		parameters: { returnAll: false, limit: 5 },
		cases: [limit],
	},
	{
		resource: 'user',
		operation: 'getMe',
		endpoint: '/user/myInfo',
		repeatable: true,
		parameters: {},
		cases: [],
	},
	{
		resource: 'user',
		operation: 'getUsageLog',
		endpoint: '/user/usage/log',
		repeatable: true,
		parameters: {},
		cases: [],
	},
	{
		resource: 'user',
		operation: 'logOut',
		endpoint: '/user/logout',
		repeatable: true,
		parameters: { user: byId(104) },
		cases: [{ path: 'user.value', parameter: 'User', invalid: integerInvalid }],
	},
	{
		resource: 'user',
		operation: 'update',
		endpoint: '/user/update',
		repeatable: true,
		parameters: { user: byId(101), updateFields: { name: 'Renamed' } },
		cases: [
			{ path: 'user.value', parameter: 'User', invalid: integerInvalid },
			{ path: 'updateFields.email', parameter: 'Email', invalid: emailInvalid.slice(0, 1) },
			{
				path: 'updateFields.expiredDate',
				parameter: 'Expiry Date',
				invalid: dateInvalid.filter((entry) => entry.why !== 'empty'),
			},
			{ path: 'updateFields.name', parameter: 'Name', invalid: [], edge: textEdges('name') },
		],
	},
];

/** "Message → Send Text (from a URL)" */
export function entryName(entry: CatalogEntry): string {
	return `${entry.resource}.${entry.operation}${entry.variant ? ` (${entry.variant})` : ''}`;
}

/** The entry's parameters (resource and operation included) for the simulator's current state. */
export function parametersOf(entry: CatalogEntry, sim: Simulator): INodeParameters {
	const parameters =
		typeof entry.parameters === 'function' ? entry.parameters(sim) : entry.parameters;
	return structuredClone({ resource: entry.resource, operation: entry.operation, ...parameters });
}

/**
 * The catalog's valid parameters of an operation (resource and operation included), a fresh copy a test may change:
 * what a test starts from when the operation's ordinary parameters are not what it is about. `sim` is needed by the
 * entries that read the seed (a template's id, a message's id).
 */
export function validParameters(
	resource: string,
	operation: string,
	sim?: Simulator,
	variant?: string,
): INodeParameters {
	const entry = catalog.find(
		(candidate) =>
			candidate.resource === resource &&
			candidate.operation === operation &&
			(variant === undefined || candidate.variant === variant),
	);
	if (!entry) throw new Error(`no catalog entry for ${resource}.${operation}`);
	if (typeof entry.parameters === 'function' && !sim)
		throw new Error(`${entryName(entry)}: its parameters read the seed, pass the simulator`);
	return parametersOf(entry, sim as Simulator);
}

/** A copy of `parameters` with the value at a dotted path replaced (collections are created as needed). */
export function withValue(
	parameters: INodeParameters,
	path: string,
	value: unknown,
): INodeParameters {
	const copy = structuredClone(parameters) as IDataObject;
	const keys = path.split('.');
	let target = copy;
	for (const key of keys.slice(0, -1)) {
		if (typeof target[key] !== 'object' || target[key] === null)
			target[key] = key === 'subscriber' ? { __rl: true, mode: 'phone' } : {};
		target = target[key] as IDataObject;
	}
	const last = keys[keys.length - 1];
	// A resource locator is fuzzed through its value, typed as an ID / phone number.
	if (
		typeof target[last] === 'object' &&
		target[last] !== null &&
		(target[last] as IDataObject).__rl
	) {
		target[last] = {
			...(target[last] as IDataObject),
			mode: last === 'subscriber' ? 'phone' : 'id',
			value: value as string,
		};
	} else if (last === 'value' && target.__rl) {
		target.mode = 'id';
		target.value = value as string;
	} else {
		target[last] = value as string;
	}
	return copy as INodeParameters;
}
