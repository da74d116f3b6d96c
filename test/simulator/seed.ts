import { seedMedia, seedMediaFiles } from './media';
import {
	SimState,
	realClockIdBase,
	timestamp,
	type ConversationMessage,
	type Subscriber,
} from './state';

/** The modules of the spec's module table (id, name). */
export const MODULES: Array<[number, string]> = [
	[1, 'Connect Account'],
	[19, 'Message Credit'],
	[18, 'AI Token'],
	[9, 'Subscribers'],
	[10, 'Bot Message Insight'],
	[11, 'Bot Conditional Reply'],
	[40, 'Bot Typing On Display'],
	[2, 'Input Flow Campaign'],
	[26, 'Instagram Bot'],
	[44, 'Incoming Message to Webhook URL'],
	[50, 'Live Chat - Widget'],
	[20, 'Live Chat - Advanced'],
	[30, 'Livechat - Restriction'],
	[3, 'Live Chat'],
	[24, 'Live Chat - Translator'],
	[4, 'Broadcast'],
	[7, 'Sequence Campaign'],
	[43, 'Social Posting'],
	[29, 'WhatsApp Embedded Signup'],
	[28, 'Comment Automation'],
	[23, 'WhatsApp - Flows'],
	[53, 'WhatsApp - Calling'],
	[47, 'WhatsApp - Appointment System'],
	[16, 'WhatsApp - Webhook Workflow'],
	[42, 'WhatsApp - Click Ads'],
	[37, 'WhatsApp - Carousel Template'],
	[21, 'WhatsApp - Catalog'],
	[38, 'Webchat Bot'],
	[27, 'Whatsapp About Field Brand Name'],
	[17, 'WhatsApp - WordPress/Shopify Integration'],
	[35, 'Integration - HTTP API'],
	[46, 'Google - Connect Account'],
	[48, 'Google - Google Calendar'],
	[22, 'Telegram - Group Manager'],
	[36, 'Google - Google Sheet'],
	[45, 'Google - Google Contacts'],
	[15, 'API Developer'],
	[13, 'Team Member'],
	[54, 'Data Delete Retention'],
	[49, 'AI Assistant'],
	[39, 'AI Agent'],
	[51, 'Service - Shopify App Verification'],
	[52, 'Service - Meta App Verification'],
];

const FIRST = [
	'Ava',
	'Ben',
	'Chloe',
	'Daniel',
	'Emma',
	'Farid',
	'Grace',
	'Hugo',
	'Isla',
	'Jonas',
	'Kemi',
	'Liam',
	'Maya',
	'Noah',
	'Olivia',
	'Priya',
];
const LAST = [
	'Smith',
	'Garcia',
	'Khan',
	'Müller',
	'Rossi',
	'Silva',
	'Okafor',
	'Tanaka',
	'Brown',
	'Novak',
];
/**
 * The names of a world whose customers can be told apart (SeedOptions.distinctNames): 20 × 20 pairs, enumerated so
 * that neighbours differ in both names and the first three are the story customers (gcd(21, 20) = 1: no pair twice).
 */
const DISTINCT_FIRST = [...FIRST, 'Rosa', 'Samir', 'Tess', 'Yusuf'];
const DISTINCT_LAST = [
	...LAST,
	'Dubois',
	'Haddad',
	'Ivanova',
	'Jensen',
	'Kowalski',
	'Lopez',
	'Nakamura',
	'Petrov',
	'Quinn',
	'Weber',
];
export function distinctName(index: number): [string, string] {
	const pairs = DISTINCT_FIRST.length * DISTINCT_LAST.length;
	const k = index % pairs;
	const q = Math.floor(k / DISTINCT_FIRST.length);
	const round = Math.floor(index / pairs); // beyond 400 customers: numbered, still distinct
	return [
		DISTINCT_FIRST[k % DISTINCT_FIRST.length],
		`${DISTINCT_LAST[(k + q) % DISTINCT_LAST.length]}${round ? ` ${round + 1}` : ''}`,
	];
}
/** The customers the examples' sample data talks about, at the same numbers on the first WhatsApp number: one story in the demo. */
export const STORY_SUBSCRIBERS: Readonly<Record<string, readonly [string, string]>> = Object.freeze(
	{
		'15550100001': ['Ava', 'Smith'],
		'15550100002': ['Ben', 'Garcia'],
		'15550100003': ['Chloe', 'Khan'],
	},
);

/** A small deterministic PRNG, so every run sees the same world. */
function prng(seed: number) {
	let value = seed;
	return () => {
		value = (value * 1103515245 + 12345) % 2147483648;
		return value / 2147483648;
	};
}

export interface SeedOptions {
	/** Subscribers per WhatsApp number (default 150, so the account has a few hundred). */
	subscribersPerNumber?: number;
	/** Conversation messages per subscriber (default 3). */
	messagesPerSubscriber?: number;
	/** Media messages (a photo, a voice note, a PDF, a photo known by media id only) whose files the simulator serves (see media.ts). */
	media?: boolean;
	/** The real clock instead of the fixed 2026-01-15 (the demo): the seeded history ends now (state.realClock). */
	realClock?: boolean;
	/** Every customer a name of their own (the demo: the phone page lists them by name); default: random, repeated. */
	distinctNames?: boolean;
}

export function seedState({
	subscribersPerNumber = 150,
	messagesPerSubscriber = 3,
	media = false,
	realClock = false,
	distinctNames = false,
}: SeedOptions = {}): SimState {
	const state = new SimState();
	if (realClock) {
		state.realClock = true;
		state.clock = Date.now();
		state.waIdBase = realClockIdBase();
	}
	const random = prng(42);
	const at = (daysAgo: number) => timestamp(state.clock - daysAgo * 86_400_000);

	state.bots = [
		{
			phone_number_id: '104382179270221',
			display_phone_number: '+1 555 010 2000',
			whatsapp_business_account_id: '209991122334455',
			whatsapp_business_name: 'Sunrise Bakery',
			whatsapp_bot_id: 11,
			user_id: 1,
		},
		{
			phone_number_id: '104382179270999',
			display_phone_number: '+44 20 7946 0000',
			whatsapp_business_account_id: '209991122330000',
			whatsapp_business_name: 'Sunrise Bakery UK',
			whatsapp_bot_id: 12,
			user_id: 1,
		},
	];

	state.packages = [
		{
			id: 1,
			package_name: 'Starter',
			package_type: 'subscription',
			price: '19',
			validity: 30,
			module_ids: '1,9,19,4',
			monthly_limit: JSON.stringify({ 1: '1', 9: '1000', 19: '5000', 4: '10' }),
			visible: '1',
		},
		{
			id: 2,
			package_name: 'Agency',
			package_type: 'subscription',
			price: '99',
			validity: 30,
			module_ids: '1,9,19,4,37,21,39',
			monthly_limit: JSON.stringify({ 1: '5', 9: '100000', 19: 'unlimited', 37: '5' }),
			visible: '1',
		},
		{
			id: 3,
			package_name: 'Support Agent',
			package_type: 'team',
			price: '0',
			validity: 0,
			module_ids: '3,20',
			monthly_limit: JSON.stringify({ 3: '0' }),
			visible: '1',
		},
	];

	state.me = {
		user_id: 1,
		user_type: 'Admin',
		name: 'Sunrise Owner',
		email: 'owner@sunrise.example',
		mobile: '15550102000',
		package_id: 2,
		package_name: 'Agency',
		expired_date: '2027-01-31 00:00:00',
		created_at: '2024-02-01 10:00:00',
		last_login_at: '2026-01-14 08:30:00',
		status: '1',
		last_login_ip: '203.0.113.7',
		agent_has_ppu: '0',
		agent_ppu_remaining: 0,
		bot_subscriber_data: { limit: '100000', count: '0' },
		message_credit_data: { limit: 'unlimited', used: 1234 },
	};

	state.users = Array.from({ length: 12 }, (_, index) => {
		const id = 100 + index;
		return {
			user_id: id,
			user_type: 'Member',
			name: `${FIRST[index % FIRST.length]} Reseller`,
			email: `client${index + 1}@agency.example`,
			mobile: `1555020${String(index).padStart(4, '0')}`,
			package_id: index % 2 ? 1 : 2,
			package_name: index % 2 ? 'Starter' : 'Agency',
			expired_date: '2026-12-31 00:00:00',
			created_at: at(300 - index),
			last_login_at: at(5 + index),
			status: '1',
			last_login_ip: `198.51.100.${index + 10}`,
			password: 'secret',
		};
	});

	state.teamMembers = [
		{
			id: 501,
			name: 'Alex Agent',
			email: 'alex@sunrise.example',
			role_id: 3,
			role: 'Support Agent',
			status: '1',
		},
		{
			id: 502,
			name: 'Bea Manager',
			email: 'bea@sunrise.example',
			role_id: 3,
			role: 'Support Agent',
			status: '1',
		},
	];

	state.modules = MODULES.map(([id, module_name]) => ({
		id,
		module_name,
		extra_text: '',
		limit_enabled: id === 9 || id === 19 || id === 18 ? '1' : '0',
		status: '1',
	}));

	state.addons = [
		{
			id: 1,
			addon_name: 'Extra 1,000 subscribers',
			addon_description: 'Raise the subscriber limit',
			addon_type: 'recurring',
			price: 9.5,
			validity: 1,
			module_id: 9,
			product_data: JSON.stringify({ stripe: { product_id: 'prod_1', coupon: '' } }),
			variation_data: JSON.stringify([
				{ name: '5,000', validity: '1', validity_type: 'M', extend_value: '5000', price: '29' },
			]),
			discount_data: JSON.stringify({
				percent: '10',
				terms: 'Launch',
				start_date: '2026-01-01',
				end_date: '2026-12-31',
				timezone: 'UTC',
				status: '1',
			}),
			visible: '1',
		},
		{
			id: 2,
			addon_name: 'AI tokens',
			addon_description: '100k AI tokens',
			addon_type: 'one-time',
			price: 15,
			validity: 12,
			module_id: 18,
			product_data: JSON.stringify({ paypal: { plan_id: 'P-1' } }),
			variation_data: null,
			discount_data: JSON.stringify({
				percent: '0',
				terms: '',
				start_date: '',
				end_date: '',
				timezone: 'UTC',
				status: '0',
			}),
			visible: '1',
		},
	];

	state.purchases = Array.from({ length: 8 }, (_, index) => ({
		id: 900 + index,
		user_id: 100 + index,
		seller_user_id: 1,
		purchase_date: at(40 - index),
		addon_id: index === 7 ? 2 : 1,
		expired_date: '2026-12-31',
		subscription_enabled: '0',
		subscription_data: JSON.stringify({}),
		access_data: JSON.stringify({ extend_value: 1000 }),
		last_payment_method: 'stripe',
		comment: '',
		status: '1',
		updated_at: at(10),
		name: `${FIRST[index]} Reseller`,
		email: `client${index + 1}@agency.example`,
		addon_name: index === 7 ? 'AI tokens' : 'Extra 1,000 subscribers',
		stripe_subscriber_id: '',
		stripe_next_check_time: null,
		stripe_processing: '0',
		used: index === 7 ? 2500 : 0,
		available: index === 7 ? 97500 : 0,
	}));

	state.transactions = Array.from({ length: 6 }, (_, index) => ({
		id: 700 + index,
		user_id: 1,
		buyer_user_id: 100 + index,
		verify_status: 'verified',
		first_name: FIRST[index],
		last_name: 'Reseller',
		buyer_email: `client${index + 1}@agency.example`,
		country: 'US',
		paid_currency: 'USD',
		paid_at: at(30 - index),
		payment_method: 'stripe',
		transaction_id: `txn_${index}`,
		paid_amount: 9.5,
		cycle_start_date: '2026-01-01',
		cycle_expired_date: null,
		package_id: null,
		addon_id: 1,
		variation_index: 0,
		variation_data_copy: JSON.stringify({
			name: '5,000',
			validity: '1',
			validity_type: 'M',
			extend_value: '5000',
			price: '29',
			stripe: { product_id: 'prod_1' },
			status: '1',
		}),
		package_name: 'Agency',
		response_source: 'stripe',
		stripe_txn_type: 'charge',
		invoice_url: null,
		subscription_unique_id: null,
		email: `client${index + 1}@agency.example`,
	}));

	state.labels = ['VIP', 'New lead', 'Wholesale', 'Complained'].map((label_name, index) => ({
		id: 31 + index,
		label_name,
		status: '1',
		phone_number_id: state.bots[0].phone_number_id,
	}));
	state.sequences = ['Welcome drip', 'Abandoned cart'].map((name, index) => ({
		id: 41 + index,
		name,
		campaign_type: 'drip',
		sequence_type: 'default',
		status: '1',
	}));
	state.customFields = [
		{ id: 61, name: 'city', reply_type: 'text' },
		{ id: 62, name: 'order_count', reply_type: 'number' },
		{ id: 63, name: 'birthday', reply_type: 'date' },
	];

	for (const bot of state.bots) {
		for (let index = 0; index < subscribersPerNumber; index++) {
			const randomFirst = FIRST[Math.floor(random() * FIRST.length)];
			const randomLast = LAST[Math.floor(random() * LAST.length)];
			const phone = `${bot.phone_number_id.endsWith('999') ? '447700' : '15550'}${String(100000 + index).slice(-6)}`;
			// Distinct: numbered so that the first number's 15550100001 gets the first name pair (Ava Smith, the story's).
			const total = subscribersPerNumber * state.bots.length;
			const position = state.bots.indexOf(bot) * subscribersPerNumber + index;
			const [first, last] = distinctNames
				? distinctName((position + total - 1) % total)
				: (bot === state.bots[0] && STORY_SUBSCRIBERS[phone]) || [randomFirst, randomLast];
			const createdDaysAgo = 200 - Math.floor(index / 2);
			const subscriber: Subscriber = {
				subscriber_id: state.nextId(),
				phone_number_id: bot.phone_number_id,
				chat_id: phone,
				first_name: first,
				last_name: last,
				email: index % 3 === 0 ? 'null' : `${first.toLowerCase()}.${index}@mail.example`,
				gender: index % 2 ? 'female' : 'male',
				created_at: at(createdDaysAgo),
				assigned_agent_id: 0,
				label_ids: index % 5 === 0 ? [31] : [],
				sequence_ids: [],
				custom_fields: {},
				conversation_status: 0,
				last_message_at: at(createdDaysAgo),
				input_flow_reset_count: 0,
			};
			state.subscribers.push(subscriber);
			for (let turn = 0; turn < messagesPerSubscriber; turn++) {
				const incoming = turn % 2 === 0;
				const time = timestamp(
					state.clock - createdDaysAgo * 86_400_000 + turn * 60_000 + index * 1000,
				);
				const message: ConversationMessage = {
					id: state.nextId(),
					phone_number_id: bot.phone_number_id,
					whatsapp_bot_subscriber_subscriber_id: phone,
					whatsapp_bot_id: bot.whatsapp_bot_id,
					sender: incoming ? 'user' : 'bot',
					agent_name: null,
					message_content: JSON.stringify(
						incoming
							? { type: 'text', text: { body: turn ? 'Thanks!' : 'Hi, are you open today?' } }
							: { type: 'text', text: { body: 'Yes, 8am to 6pm.' } },
					),
					conversation_time: time,
					wa_message_id: state.newWaMessageId(),
					reaction_data: null,
					message_status: incoming ? null : 'delivered',
					delivery_status_updated_at: time,
					failed_reason: '',
					read_time: null,
					failed_time: null,
				};
				state.messages.push(message);
				subscriber.last_message_at = time;
			}
		}
	}
	state.me.bot_subscriber_data = {
		limit: String(state.subscriberLimit),
		count: String(state.subscribers.length),
	};

	state.templates = [
		[
			'welcome_offer',
			'en_US',
			'APPROVED',
			{
				header: [],
				body: [
					{ position: 1, label: 'first_name' },
					{ position: 2, label: 'discount' },
				],
			},
		],
		[
			'order_update',
			'en_US',
			'APPROVED',
			{ header: [{ position: 1, label: 'order_id' }], body: [{ position: 1, label: 'status' }] },
		],
		['promo_es', 'es', 'Submitted', { header: [], body: [] }],
		['old_flyer', 'en_US', 'Rejected', { header: [], body: [] }],
	].flatMap(([template_name, locale, status, map], index) =>
		state.bots.map((bot, botIndex) => ({
			id: 200 + index * 10 + botIndex,
			template_id: `${900000 + index * 10 + botIndex}`,
			phone_number_id: bot.phone_number_id,
			whatsapp_business_id: bot.whatsapp_business_account_id,
			template_name,
			template_type: 'mixed',
			locale,
			header_type: 'text',
			header_subtype: '',
			header_content: '',
			body_content: 'Hello #first_name#, enjoy #discount# off',
			footer_content: 'Sunrise Bakery',
			button_content: JSON.stringify([{ type: 'quick_reply', text: 'Stop' }]),
			template_json: JSON.stringify({
				name: template_name,
				language: locale,
				category: 'MARKETING',
				components: [{ type: 'BODY', text: 'Hello {{1}}' }],
				access_token: 'hidden',
			}),
			button_type: 'quick_reply',
			variable_map: JSON.stringify(map),
			updated_at: at(20 - index),
			user_id: 1,
			status,
			system_template: '0',
			map_needed: '1',
			check_wp_type: 'mixed',
			category: 'MARKETING',
			quality_score: { score: 'GREEN' },
			rejected_reason: status === 'Rejected' ? 'Promotional content' : null,
		})),
	);

	state.botFlows = state.bots.flatMap((bot, botIndex) =>
		['Welcome flow', 'Order tracking'].map((name, index) => ({
			id: 300 + botIndex * 10 + index,
			name,
			unique_id: `flow_${botIndex}_${index}_a1b2c3`,
			status: '1',
			phone_number_id: bot.phone_number_id,
		})),
	);

	state.postBacks = state.bots.flatMap((bot, botIndex) =>
		['GET_STARTED', 'TALK_TO_AGENT'].map((postback_id, index) => ({
			id: 400 + botIndex * 10 + index,
			user_id: 1,
			postback_id,
			whatsapp_bot_id: bot.whatsapp_bot_id,
			use_status: '1',
			status: '1',
			whatsapp_bot_setting_id: 1,
			bot_name: postback_id.toLowerCase(),
			is_template: '0',
			template_jsoncode: JSON.stringify([{ type: 'text', text: 'Welcome!' }]),
			template_name: postback_id,
			template_for: 'reply_message',
			template_id: '0',
			inherit_from_template: '0',
			whatsapp_bot_label_ids: '',
			whatsapp_bot_remove_label_ids: '',
			remove_sequence_campaign_id: '',
			team_assign_role_id: '',
			team_assign_user_id: '',
			broadcast_sequence_campaign_id: '',
			visual_flow_type: 'flow',
			postback_type: 'main',
			whatsapp_bot_visual_flow_builder_campaign_id: '',
			google_sheet_ids: '',
			updated_at: at(15),
			row_type: '',
			custom_field_id: '',
			custom_field_index: '',
			custom_field_index_title: '',
			generateGoogleMeetLink: '0',
			googleCalendarId: '',
			googleMeetToCustomFieldId: '',
			phone_number_id: bot.phone_number_id,
		})),
	);

	state.catalogs = [
		{
			catalog_id: '7788990011',
			catalog_name: 'Breads',
			catalog_url: 'https://business.facebook.com/commerce/catalogs/7788990011',
			checkout_settings: JSON.stringify({ tax_percentage: '5', shipping_charge: '3' }),
		},
		{
			catalog_id: '7788990022',
			catalog_name: 'Cakes',
			catalog_url: 'https://business.facebook.com/commerce/catalogs/7788990022',
			checkout_settings: JSON.stringify({ tax_percentage: '5', shipping_charge: '0' }),
		},
	];
	state.orders = Array.from({ length: 6 }, (_, index) => {
		const catalog = state.catalogs[index % 2];
		const subscriber = state.subscribers[index];
		return {
			order_unique_id: `ORD-${1000 + index}`,
			catalog_id: catalog.catalog_id,
			chat_id: subscriber.chat_id,
			catalog_name: catalog.catalog_name,
			first_name: subscriber.first_name,
			cart_total: 12.5 + index,
			cart_currency: 'USD',
			cart_status_raw: index < 3 ? 'Approved' : 'Delivered',
			ordered_at: at(6 - index),
			updated_at: at(6 - index),
			payment_amount: 12.5 + index,
			payment_method: 'cod',
			shipping_address: JSON.stringify({
				name: subscriber.first_name,
				phone_number: subscriber.chat_id,
				email: '',
				address: '1 Main St',
			}),
			checkout_account_email: '',
			checkout_amount: String(12.5 + index),
			checkout_timestamp: at(6 - index),
			transaction_id: '',
			paid_at: '',
			status_changed_at: at(6 - index),
		};
	});

	state.deals = [];
	seedMediaFiles(state);
	if (media) seedMedia(state);
	return state;
}
