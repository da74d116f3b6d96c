import { z } from 'zod';
import { fail, ok, p, page, SUBSCRIBER_LIMIT_TEXT, type Route } from '../route';
import type { Row, SimState } from '../state';

/** The spec's "User group": users, team members, packages, modules, addons, purchases, transactions. */

const optional = <T extends z.ZodTypeAny>(schema: T) => schema.optional();
/** A user reference: the spec's `id` takes a user id or an email. */
const userRef = z.string().min(1);
/** `<addon_id>` or `<addon_id>-<variation index>`. */
const addonRef = z.string().regex(/^\d+(-\d+)?$/, 'must be <addon_id> or <addon_id>-<variation>');
const VALIDITY_TYPES = ['D', 'W', 'M', 'Y'] as const;
const AI_TOKEN_MODULE = 18;

const SINGLE_USER_FIELDS = [
	'user_id',
	'user_type',
	'name',
	'email',
	'mobile',
	'package_id',
	'package_name',
	'expired_date',
	'created_at',
	'last_login_at',
	'status',
	'last_login_ip',
	'agent_has_ppu',
	'agent_ppu_remaining',
];
const LIST_USER_FIELDS = [
	'user_id',
	'name',
	'email',
	'mobile',
	'package_name',
	'expired_date',
	'created_at',
	'last_login_at',
	'last_login_ip',
];
const ADDON_FIELDS = [
	'id',
	'addon_name',
	'addon_description',
	'addon_type',
	'access_type',
	'price',
	'validity',
	'product_data',
	'variation_data',
	'discount_data',
	'visible',
];
/** Purchase rows also hold the AI-token wallet (used/available), which only the credits endpoint shows. */
const PURCHASE_HIDDEN = ['used', 'available'];

const pick = (row: Row, fields: string[]) =>
	Object.fromEntries(fields.filter((field) => field in row).map((field) => [field, row[field]]));
const omit = (row: Row, fields: string[]) =>
	Object.fromEntries(Object.entries(row).filter(([field]) => !fields.includes(field)));

/** The subscriber-limit rule: the API owner's package cap is reached. */
const overSubscriberLimit = (state: SimState) => state.subscribers.length >= state.subscriberLimit;

function findUser(state: SimState, ref: unknown): Row | undefined {
	const text = String(ref).trim().toLowerCase();
	return state.users.find(
		(user) => String(user.user_id) === text || String(user.email).toLowerCase() === text,
	);
}

function fullUser(state: SimState, user: Row) {
	return {
		user_type: 'Member',
		agent_has_ppu: '0',
		agent_ppu_remaining: 0,
		status: '1',
		...pick(user, SINGLE_USER_FIELDS),
		bot_subscriber_data: { limit: '1000', count: '0' },
		message_credit_data: { limit: 'unlimited', used: 0 },
		whatsapp_bots_details: state.bots
			.filter((bot) => bot.user_id === user.user_id)
			.map(
				({
					display_phone_number,
					phone_number_id,
					whatsapp_business_account_id,
					whatsapp_business_name,
				}) => ({
					display_phone_number,
					phone_number_id,
					whatsapp_business_account_id,
					whatsapp_business_name,
				}),
			),
	};
}

const packageName = (state: SimState, packageId: unknown) =>
	String(
		state.packages.find((entry) => String(entry.id) === String(packageId))?.package_name ?? '',
	);

/** A date parameter as the platform stores expiry timestamps. */
const expiry = (date: string) => `${date} 00:00:00`;

function createUser(
	state: SimState,
	fields: {
		name?: string;
		email: string;
		mobile?: string;
		password: string;
		package_id: string;
		expired_date: string;
		status?: string;
	},
): Row {
	const user: Row = {
		user_id: state.nextId(),
		user_type: 'Member',
		name: fields.name ?? fields.email.split('@')[0],
		email: fields.email,
		mobile: fields.mobile ?? '',
		package_id: Number(fields.package_id),
		package_name: packageName(state, fields.package_id),
		expired_date: expiry(fields.expired_date),
		created_at: state.now(),
		last_login_at: '',
		status: fields.status ?? '1',
		last_login_ip: '',
		password: fields.password,
	};
	state.users.push(user);
	return user;
}

function loginResult(state: SimState, user: Row, password: string) {
	const token = `dl${state.nextId()}${String(user.user_id).padStart(6, '0')}`;
	return {
		email: user.email,
		password,
		login_url: 'https://app.botsailor.example/login',
		direct_login_url: `https://app.botsailor.example/direct-login/${token}`,
	};
}

const generatedPassword = (state: SimState) => `Pw${state.nextId()}x!`;

/** Parses the parallel variation arrays of addon create/update; a string explains the first problem. */
function variations(params: Record<string, string | undefined>): Row[] | string | undefined {
	const keys = [
		'variation_name',
		'variation_validity',
		'variation_validity_type',
		'variation_extend_value',
		'variation_price',
	] as const;
	const arrays: Record<string, unknown[]> = {};
	for (const key of keys) {
		if (params[key] === undefined) continue;
		const value = JSON.parse(params[key] as string);
		if (!Array.isArray(value)) return `The ${key} field must be a JSON array.`;
		arrays[key] = value;
	}
	if (!Object.keys(arrays).length) return undefined;
	const count = arrays.variation_price?.length ?? 0;
	for (const [key, values] of Object.entries(arrays)) {
		if (values.length !== count) return `The ${key} field must have one entry per variation.`;
	}
	if (
		(arrays.variation_validity_type ?? []).some(
			(type) => !VALIDITY_TYPES.includes(String(type) as never),
		)
	) {
		return 'The variation_validity_type field must contain only D, W, M or Y.';
	}
	return Array.from({ length: count }, (_, index) => ({
		name: String(arrays.variation_name?.[index] ?? ''),
		validity: String(arrays.variation_validity?.[index] ?? ''),
		validity_type: String(arrays.variation_validity_type?.[index] ?? ''),
		extend_value: String(arrays.variation_extend_value?.[index] ?? ''),
		price: String(arrays.variation_price?.[index] ?? ''),
	}));
}

function findAddon(state: SimState, ref: string): { addon?: Row; variation?: number } {
	const [id, variation] = ref.split('-');
	const addon = state.addons.find((entry) => String(entry.id) === id);
	return { addon, variation: variation === undefined ? undefined : Number(variation) };
}

/** Checks that `<addon_id>-<variation>` names an existing variation of an existing addon. */
function addonProblem(addon: Row | undefined, variation: number | undefined): string | undefined {
	if (!addon) return 'Addon not found.';
	if (variation === undefined) return undefined;
	const list = addon.variation_data ? (JSON.parse(String(addon.variation_data)) as unknown[]) : [];
	return variation < list.length ? undefined : 'Addon variation not found.';
}

const addonFields = {
	addon_description: p.string,
	price: p.number,
	validity: p.integer,
	validity_type: p.oneOf(VALIDITY_TYPES),
	addon_type: p.oneOf(['recurring', 'one-time']),
	access_type: optional(p.oneOf(['extend', 'allow'])),
	extend_value: p.integer,
	visible: optional(p.flag),
	variation_name: optional(p.json),
	variation_validity: optional(p.json),
	variation_validity_type: optional(p.json),
	variation_extend_value: p.json,
	variation_price: p.json,
};

/** Writes the addon fields given in a create/update request onto the stored addon. */
function applyAddon(
	addon: Row,
	params: Record<string, string | undefined>,
	parsed: Row[] | undefined,
) {
	for (const key of [
		'addon_name',
		'addon_description',
		'addon_type',
		'access_type',
		'validity_type',
		'visible',
	] as const) {
		if (params[key] !== undefined) addon[key] = params[key];
	}
	if (params.price !== undefined) addon.price = Number(params.price);
	if (params.validity !== undefined) addon.validity = Number(params.validity);
	if (params.extend_value !== undefined) addon.extend_value = Number(params.extend_value);
	if (parsed !== undefined) addon.variation_data = parsed.length ? JSON.stringify(parsed) : null;
}

function findPurchase(state: SimState, id: unknown) {
	return state.purchases.find((purchase) => String(purchase.id) === String(id));
}

export const userRoutes: Route[] = [
	{
		path: '/user/myInfo',
		params: z.object({}),
		handle: ({ state }) =>
			ok({
				message: {
					...state.me,
					bot_subscriber_data: {
						limit: String(state.subscriberLimit),
						count: String(state.subscribers.length),
					},
					whatsapp_bots_details: state.bots.map(
						({
							display_phone_number,
							phone_number_id,
							whatsapp_business_account_id,
							whatsapp_business_name,
						}) => ({
							display_phone_number,
							phone_number_id,
							whatsapp_business_account_id,
							whatsapp_business_name,
						}),
					),
				},
			}),
	},
	{
		path: '/user/usage/log',
		params: z.object({}),
		handle: ({ state }) => {
			const owned =
				state.packages.find((entry) => entry.id === state.me.package_id) ?? state.packages[0];
			const limits = JSON.parse(String(owned?.monthly_limit ?? '{}')) as Record<string, string>;
			const used: Record<string, number> = {
				9: state.subscribers.length,
				19: Number((state.me.message_credit_data as Row | undefined)?.used ?? 0),
			};
			const modules = String(owned?.module_ids ?? '')
				.split(',')
				.filter(Boolean)
				.map((id) => ({
					module_name: String(
						state.modules.find((module) => String(module.id) === id)?.module_name ?? id,
					),
					limit: Number(limits[id] ?? 0) || 0,
					used: used[id] ?? 0,
				}));
			return ok({
				message: {
					modules,
					package_name: owned?.package_name ?? '',
					total_modules: modules.length,
				},
			});
		},
	},
	{
		path: '/user/list',
		params: z.object({
			id: optional(userRef),
			limit: optional(p.integer),
			offset: optional(p.integer),
		}),
		handle: ({ params, state }) => {
			if (params.id !== undefined) {
				const user = findUser(state, params.id);
				return user ? ok({ message: fullUser(state, user) }) : fail('No user found');
			}
			const rows = state.users.map((user) => pick(user, LIST_USER_FIELDS));
			return ok(page(rows, params.limit, params.offset, { defaultLimit: 1000, maxLimit: 1000 }));
		},
	},
	{
		// SPEC-GAP: the spec's team member fields (id, name, email, role_id, role, status) say nothing about workload, and
		// the simulator adds none: Hand Over to a Person → Least Busy counts the subscriber list's assigned_agent_id.
		path: '/user/team-member/list',
		params: z.object({}),
		handle: ({ state }) =>
			state.teamMembers.length ? ok({ message: state.teamMembers }) : fail('No team member found'),
	},
	{
		path: '/user/create',
		params: z.object({
			name: p.required,
			email: p.email,
			mobile: optional(p.string),
			password: p.required,
			package_id: p.integer,
			expired_date: p.date,
		}),
		handle: ({ params, state }) => {
			if (overSubscriberLimit(state)) return fail(SUBSCRIBER_LIMIT_TEXT);
			const user = createUser(state, params as never);
			// The spec's quirk: success text under `mesasge`.
			return { status: '1', mesasge: 'User Created Successfully.', id: user.user_id };
		},
	},
	{
		path: '/user/update',
		params: z.object({
			id: userRef,
			name: optional(p.string),
			email: optional(p.email),
			mobile: optional(p.string),
			password: optional(p.string),
			package_id: optional(p.integer),
			expired_date: optional(p.date),
			status: optional(p.flag),
			reset_monthly_usage: optional(p.flag),
			reset_ai_token_usage: optional(p.flag),
		}),
		handle: ({ params, state }) => {
			const user = findUser(state, params.id);
			if (!user) return fail('No user found');
			if (overSubscriberLimit(state)) return fail(SUBSCRIBER_LIMIT_TEXT);
			for (const key of ['name', 'email', 'mobile', 'password', 'status'] as const) {
				if (params[key] !== undefined) user[key] = params[key];
			}
			if (params.package_id !== undefined) {
				user.package_id = Number(params.package_id);
				user.package_name = packageName(state, params.package_id);
			}
			if (params.expired_date !== undefined) user.expired_date = expiry(params.expired_date);
			if (params.reset_monthly_usage === '1') user.monthly_usage_reset_at = state.now();
			if (params.reset_ai_token_usage === '1') user.ai_token_usage_reset_at = state.now();
			return ok({ message: 'User Updated Successfully.' });
		},
	},
	{
		path: '/user/package/list',
		params: z.object({ package_type: optional(z.enum(['', 'subscription', 'team'])) }),
		handle: ({ params, state }) =>
			ok({
				message: params.package_type
					? state.packages.filter((entry) => entry.package_type === params.package_type)
					: state.packages,
			}),
	},
	{
		path: '/user/module/list',
		params: z.object({}),
		handle: ({ state }) => ok({ message: state.modules }),
	},
	{
		path: '/user/addon/list',
		params: z.object({}),
		handle: ({ state }) => ok({ message: state.addons.map((addon) => pick(addon, ADDON_FIELDS)) }),
	},
	{
		path: '/user/addon/create',
		params: z.object({ addon_name: p.required, module_id: p.integer, ...addonFields }),
		handle: ({ params, state }) => {
			if (!state.modules.some((module) => String(module.id) === params.module_id))
				return fail('Module not found.');
			const parsed = variations(params);
			if (typeof parsed === 'string') return fail(parsed);
			const addon: Row = {
				id: state.nextId(),
				module_id: Number(params.module_id),
				product_data: JSON.stringify({}),
				discount_data: JSON.stringify({}),
				visible: '1',
				variation_data: null,
			};
			applyAddon(addon, params, parsed ?? []);
			state.addons.push(addon);
			return ok({ message: 'Addon has been saved successfully..' });
		},
	},
	{
		path: '/user/addon/update',
		params: z.object({
			id: p.integer,
			addon_name: p.required,
			...Object.fromEntries(
				Object.entries(addonFields).map(([key, schema]) => [
					key,
					key.startsWith('variation_extend') || key === 'variation_price'
						? schema
						: schema.optional(),
				]),
			),
		}),
		handle: ({ params, state }) => {
			const addon = state.addons.find((entry) => String(entry.id) === params.id);
			if (!addon) return fail('Addon not found.');
			const parsed = variations(params);
			if (typeof parsed === 'string') return fail(parsed);
			applyAddon(addon, params, parsed);
			return ok({ message: 'Addon has been saved successfully.' });
		},
	},
	{
		path: '/user/addon/assign',
		params: z.object({
			user_id: p.integer,
			addon_id: addonRef,
			expired_date: p.date,
			status: optional(p.flag),
		}),
		handle: ({ params, state }) => {
			const user = state.users.find((entry) => String(entry.user_id) === params.user_id);
			if (!user) return fail('No user found');
			const { addon, variation } = findAddon(state, params.addon_id);
			const problem = addonProblem(addon, variation);
			if (problem || !addon) return fail(problem ?? 'Addon not found.');
			state.purchases.push({
				id: state.nextId(),
				user_id: user.user_id,
				seller_user_id: state.me.user_id,
				purchase_date: state.now(),
				addon_id: addon.id,
				expired_date: params.expired_date,
				subscription_enabled: '0',
				subscription_data: JSON.stringify({}),
				access_data: JSON.stringify({ variation_index: variation ?? null }),
				last_payment_method: 'manual',
				comment: '',
				status: params.status ?? '1',
				updated_at: state.now(),
				name: user.name,
				email: user.email,
				addon_name: addon.addon_name,
				stripe_subscriber_id: '',
				stripe_next_check_time: null,
				stripe_processing: '0',
				used: 0,
				available: 0,
			});
			return ok({ message: 'Addon has been assign successfully.' });
		},
	},
	{
		path: '/user/addon/assign/list',
		params: z.object({
			user_id: optional(z.union([p.integer, z.literal('')])),
			limit: optional(p.integer),
			offset: optional(p.integer),
		}),
		handle: ({ params, state }) => {
			const rows = state.purchases
				.filter((purchase) => !params.user_id || String(purchase.user_id) === params.user_id)
				.map((purchase) => omit(purchase, PURCHASE_HIDDEN));
			return ok(page(rows, params.limit, params.offset, { defaultLimit: 50, maxLimit: 100 }));
		},
	},
	{
		path: '/user/addon/assign/update',
		params: z.object({
			id: p.integer,
			addon_id: optional(addonRef),
			expired_date: optional(z.union([p.date, z.literal('')])),
			status: optional(p.flag),
		}),
		handle: ({ params, state }) => {
			const purchase = findPurchase(state, params.id);
			if (!purchase) return fail('Addon purchase not found.');
			if (params.addon_id !== undefined) {
				const { addon, variation } = findAddon(state, params.addon_id);
				const problem = addonProblem(addon, variation);
				if (problem || !addon) return fail(problem ?? 'Addon not found.');
				purchase.addon_id = addon.id;
				purchase.addon_name = addon.addon_name;
				purchase.access_data = JSON.stringify({ variation_index: variation ?? null });
			}
			// Blank expiry means unlimited.
			if (params.expired_date !== undefined)
				purchase.expired_date = params.expired_date === '' ? null : params.expired_date;
			if (params.status !== undefined) purchase.status = params.status;
			purchase.updated_at = state.now();
			return ok({ message: 'Addon purchase updated successfully.' });
		},
	},
	{
		path: '/user/addon/assign/credits',
		params: z.object({
			id: p.integer,
			used: optional(p.integer),
			available: optional(p.integer),
			user_id: optional(p.integer),
		}),
		handle: ({ params, state }) => {
			const purchase = findPurchase(state, params.id);
			if (
				!purchase ||
				(params.user_id !== undefined && String(purchase.user_id) !== params.user_id)
			)
				return fail('Addon purchase not found');
			if ((params.used === undefined) !== (params.available === undefined)) {
				return fail(`The ${params.used === undefined ? 'used' : 'available'} field is required.`);
			}
			if (params.used !== undefined) {
				purchase.used = Number(params.used);
				purchase.available = Number(params.available);
				purchase.updated_at = state.now();
			}
			const used = Number(purchase.used ?? 0);
			const available = Number(purchase.available ?? 0);
			return ok({
				message: 'AI tokens have been updated successfully.',
				used,
				available,
				credit_limit: used + available,
			});
		},
	},
	{
		path: '/addon/purchase/delete',
		params: z.object({ id: p.integer }),
		handle: ({ params, state }) => {
			const purchase = findPurchase(state, params.id);
			if (!purchase) return fail('Addon purchase not found');
			const addon = state.addons.find((entry) => entry.id === purchase.addon_id);
			if (Number(addon?.module_id) === AI_TOKEN_MODULE) {
				return fail(
					'AI token addon purchases cannot be deleted. Use Update AI token to change the token wallet.',
				);
			}
			state.purchases = state.purchases.filter((entry) => entry !== purchase);
			return ok({ message: 'Addon purchase has been deleted successfully.' });
		},
	},
	{
		path: '/user/get/direct-login-url',
		params: z.object({
			email: p.email,
			name: optional(p.string),
			mobile: optional(p.string),
			package_id: optional(p.integer),
			expired_date: optional(p.date),
			status: optional(p.flag),
			create_on_fail: optional(p.flag),
		}),
		handle: ({ params, state }) => {
			const existing = findUser(state, params.email);
			const password = generatedPassword(state);
			if (existing) {
				existing.password = password;
				return ok({ message: loginResult(state, existing, password) });
			}
			if (params.create_on_fail !== '1') return fail('User not found');
			if (params.package_id === undefined) return fail('The package_id field is required.');
			if (params.expired_date === undefined) return fail('The expired_date field is required.');
			const user = createUser(state, { ...params, password } as never);
			return ok({ message: loginResult(state, user, password) });
		},
	},
	{
		path: '/user/get/direct-login-url/only-new-users',
		params: z.object({ email: p.email, package_id: p.integer, expired_date: p.date }),
		handle: ({ params, state }) => {
			if (findUser(state, params.email)) return fail('User already existed');
			const password = generatedPassword(state);
			const user = createUser(state, { ...params, password } as never);
			return ok({ message: loginResult(state, user, password) });
		},
	},
	{
		path: '/user/logout',
		params: z.object({ user_id: p.integer }),
		handle: ({ params, state }) => {
			const user = state.users.find((entry) => String(entry.user_id) === params.user_id);
			if (!user) return fail('No user found');
			state.loggedOutUserIds.push(Number(user.user_id));
			return ok({ message: 'User logout from the system successfully.' });
		},
	},
	{
		path: '/user/transaction/list',
		params: z.object({ limit: optional(p.integer), offset: optional(p.integer) }),
		handle: ({ params, state }) =>
			ok(
				page(state.transactions, params.limit, params.offset, { defaultLimit: 50, maxLimit: 100 }),
			),
	},
];
