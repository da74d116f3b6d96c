import { z } from 'zod';
import { fail, ok, p, page, SUBSCRIBER_LIMIT_TEXT, type Route } from '../route';
import type { SimState, Subscriber } from '../state';
import { conversationWebhook } from '../webhooks';

/**
 * The spec's "Subscriber group" and "Labels". Texts the spec does not give (unknown subscriber,
 * unknown WhatsApp number on other endpoints) reuse the closest spec wording.
 */

const NOT_FOUND = 'Subscriber not found.';
const ACCOUNT_NOT_FOUND = 'WhatsApp account not found.';

/** The CRM pipelines of the simulated account (the spec only says ids are obtainable from CRM get). */
export const PIPELINES = [
	{
		id: 1,
		name: 'Sales',
		stages: [
			{ id: 11, name: 'New', color: '#3b82f6', type: 'open' },
			{ id: 12, name: 'Qualified', color: '#f59e0b', type: 'open' },
			{ id: 13, name: 'Won', color: '#10b981', type: 'won' },
		],
	},
	{
		id: 2,
		name: 'Wholesale',
		stages: [
			{ id: 21, name: 'Inquiry', color: '#6366f1', type: 'open' },
			{ id: 22, name: 'Lost', color: '#ef4444', type: 'lost' },
		],
	},
];

const limitUpTo100 = p.integer.refine(
	(value) => Number(value) >= 1 && Number(value) <= 100,
	'must be between 1 and 100',
);
const subscriberParams = { phone_number_id: p.required, phone_number: p.required };

function labelNames(state: SimState, ids: number[]): string {
	return ids
		.map((id) => state.labels.find((label) => label.id === id)?.label_name)
		.filter(Boolean)
		.join(',');
}

/** The Subscriber fields of the list (spec's Subscriber table); the earlier list form also has label_names. */
function listItem(state: SimState, entry: Subscriber, earlierForm: boolean) {
	const { subscriber_id, chat_id, first_name, last_name, email, gender, assigned_agent_id } = entry;
	return {
		subscriber_id,
		chat_id,
		first_name,
		last_name,
		email,
		gender,
		assigned_agent_id,
		...(earlierForm ? { label_names: labelNames(state, entry.label_ids) } : {}),
		...metaIdsOf(state, chat_id),
	};
}

/**
 * SPEC-GAP (as webhooks.ts customerIdsOf): Meta's ids of a customer listed in `state.customerIds`
 * (`/__control/customer-ids`) as Meta names them, and with `no_phone` no phone number in the row (`chat_id` empty):
 * what the platform's rows will carry for such a customer is not published.
 */
function metaIdsOf(state: SimState, chatId: string): Record<string, string> {
	const ids = state.customerIds[chatId];
	if (!ids) return {};
	const fields: Record<string, string> = { user_id: ids.user_id };
	if (ids.username) fields.username = ids.username;
	if (ids.parent_user_id) fields.parent_user_id = ids.parent_user_id;
	return ids.no_phone ? { ...fields, chat_id: '' } : fields;
}

function singleItem(state: SimState, entry: Subscriber) {
	const agent = state.teamMembers.find((member) => member.id === entry.assigned_agent_id);
	return {
		...listItem(state, entry, false),
		created_at: entry.created_at,
		assigned_agent: agent ? String(agent.name) : '',
		bot_reply_label: entry.conversation_status === 3 ? 'Blocked' : 'Bot reply on',
		ai_reply_label: 'AI reply off',
		label_names: labelNames(state, entry.label_ids),
	};
}

/** A route acting on one existing subscriber of one number. */
function onSubscriber(
	path: string,
	extra: z.ZodRawShape,
	act: (
		entry: Subscriber,
		params: Record<string, string>,
		state: SimState,
	) => Record<string, unknown>,
	methods?: Array<'GET' | 'POST'>,
): Route {
	return {
		path,
		methods,
		params: z.object({ ...subscriberParams, ...extra }),
		handle: ({ params, state }) => {
			if (!state.bot(params.phone_number_id)) return fail(ACCOUNT_NOT_FOUND);
			const entry = state.subscriber(params.phone_number_id, params.phone_number);
			if (!entry) return fail(NOT_FOUND);
			return act(entry, params, state);
		},
	};
}

function isJsonObject(value: string): boolean {
	try {
		const parsed = JSON.parse(value);
		return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
	} catch {
		return false;
	}
}

const ids = (text: string) => text.split(',').map(Number);
const CONVERSATION_STATUS: Record<string, number> = {
	resolved: 1,
	reopen: 0,
	unarchived: 0,
	unblocked: 0,
	archived: 2,
	blocked: 3,
};

function dealOverview(state: SimState, entry: Subscriber) {
	const deal = state.deals.find(
		(row) => row.phone_number_id === entry.phone_number_id && row.chat_id === entry.chat_id,
	);
	const pipeline =
		PIPELINES.find((row) => row.id === Number(deal?.pipeline_id ?? PIPELINES[0].id)) ??
		PIPELINES[0];
	const stage =
		pipeline.stages.find((row) => row.id === Number(deal?.stage_id)) ?? pipeline.stages[0];
	const owner = state.teamMembers.find((member) => member.id === Number(deal?.owner_user_id));
	return {
		has_deal: Boolean(deal),
		deal_id: deal?.deal_id ?? null,
		pipeline_id: pipeline.id,
		pipeline_name: pipeline.name,
		stage_id: stage.id,
		stage_name: stage.name,
		stage_color: stage.color,
		stage_type: stage.type,
		title: deal?.title ?? '',
		value: Number(deal?.value ?? 0),
		currency: deal?.currency ?? 'USD',
		expected_close_date: deal?.expected_close_date ?? null,
		owner_user_id: deal?.owner_user_id ?? null,
		owner_name: owner ? String(owner.name) : null,
		lead_score: deal?.lead_score ?? null,
		source: deal?.source ?? '',
		status: deal ? 'open' : '',
	};
}

export const subscriberRoutes: Route[] = [
	{
		path: '/whatsapp/subscriber/get',
		params: z.object(subscriberParams),
		handle: ({ params, state }) => {
			if (!state.bot(params.phone_number_id)) return fail(ACCOUNT_NOT_FOUND);
			const entry = state.subscriber(params.phone_number_id, params.phone_number);
			return entry ? ok({ message: [singleItem(state, entry)] }) : fail(NOT_FOUND);
		},
	},
	{
		path: '/whatsapp/subscriber/list',
		// limit is required in the current form; its absence is the earlier, unpaginated form (spec, Versioning 2).
		params: z.object({
			phone_number_id: p.required,
			limit: limitUpTo100.optional(),
			offset: p.integer.optional(),
			orderBy: p.flag.optional(),
		}),
		handle: ({ params, state }) => {
			if (!state.bot(params.phone_number_id)) return fail(ACCOUNT_NOT_FOUND);
			if (state.earlierFormOnly) {
				const stray = ['limit', 'offset'].filter((key) => params[key] !== undefined);
				if (stray.length) return fail(`Unknown parameter: ${stray.join(', ')}.`);
			}
			const rows = [...state.subscribersOf(params.phone_number_id)].sort(
				(a, b) => a.subscriber_id - b.subscriber_id,
			);
			// SPEC-GAP: the default order's variants (state.subscriberDefaultOrder).
			if (state.subscriberDefaultOrder === 'newestFirst') rows.reverse();
			if (state.subscriberDefaultOrder === 'byName')
				rows.sort(
					(a, b) =>
						`${a.first_name} ${a.last_name}`.localeCompare(`${b.first_name} ${b.last_name}`) ||
						a.chat_id.localeCompare(b.chat_id),
				);
			if (params.orderBy === '1')
				rows.sort(
					(a, b) =>
						b.last_message_at.localeCompare(a.last_message_at) || b.subscriber_id - a.subscriber_id,
				);
			if (params.limit === undefined)
				return ok({ message: rows.map((entry) => listItem(state, entry, true)) });
			const result = page(rows, params.limit, params.offset, { defaultLimit: 100, maxLimit: 100 });
			return ok({
				...result,
				message: result.message.map((entry) => listItem(state, entry, false)),
			});
		},
	},
	{
		path: '/whatsapp/subscriber/create',
		params: z.object({ phoneNumberID: p.required, name: p.required, phoneNumber: p.required }),
		handle: ({ params, state }) => {
			const bot = state.bot(params.phoneNumberID);
			if (!bot) return fail(ACCOUNT_NOT_FOUND);
			if (state.subscribers.length >= state.subscriberLimit) return fail(SUBSCRIBER_LIMIT_TEXT);
			if (
				!/^\d{6,15}$/.test(params.phoneNumber) ||
				state.subscriber(bot.phone_number_id, params.phoneNumber)
			) {
				return fail('Something went wrong or subscriber already exist.');
			}
			const [first, ...rest] = String(params.name).trim().split(/\s+/);
			const time = state.now();
			state.subscribers.push({
				subscriber_id: state.nextId(),
				phone_number_id: bot.phone_number_id,
				chat_id: params.phoneNumber,
				first_name: first,
				last_name: rest.join(' '),
				email: 'null',
				gender: '',
				created_at: time,
				assigned_agent_id: 0,
				label_ids: [],
				sequence_ids: [],
				custom_fields: {},
				conversation_status: 0,
				last_message_at: time,
				input_flow_reset_count: 0,
			});
			return { status: '1', mesasge: 'WhatsApp subscriber has been created.' };
		},
	},
	onSubscriber(
		'/whatsapp/subscriber/update',
		{
			first_name: p.string.optional(),
			last_name: p.string.optional(),
			gender: p.string.optional(),
			label_ids: p.idList.optional(),
		},
		(entry, params) => {
			if (params.first_name !== undefined) entry.first_name = params.first_name;
			if (params.last_name !== undefined) entry.last_name = params.last_name;
			if (params.gender !== undefined) entry.gender = params.gender;
			if (params.label_ids !== undefined) entry.label_ids = ids(params.label_ids);
			return ok({ message: 'Subscriber Updated Successfully.' });
		},
	),
	onSubscriber('/whatsapp/subscriber/delete', {}, (entry, _params, state) => {
		state.subscribers.splice(state.subscribers.indexOf(entry), 1);
		return ok({ message: 'Subscriber has been deleted successfully.' });
	}),
	onSubscriber('/whatsapp/subscriber/reset/user-input-flow', {}, (entry) => {
		entry.input_flow_reset_count++;
		return ok({ message: 'Reset User Input Flow successfully.' });
	}),
	onSubscriber(
		'/whatsapp/subscriber/chat/assign-to-team-member',
		{ team_member_id: p.integer },
		(entry, params) => {
			entry.assigned_agent_id = Number(params.team_member_id);
			return ok({ message: 'Successfully Assign Agent to Conversation.' });
		},
	),
	onSubscriber(
		'/whatsapp/subscriber/chat/mark-conversation',
		{ action: p.oneOf(['resolved', 'reopen', 'archived', 'unarchived', 'blocked', 'unblocked']) },
		(entry, params, state) => {
			entry.conversation_status = CONVERSATION_STATUS[params.action];
			conversationWebhook(state, entry, params.action);
			return ok({ message: `Conversation has been marked as ${params.action}.` });
		},
	),
	onSubscriber(
		'/whatsapp/subscriber/chat/assign-custom-fields',
		{
			custom_fields: p.string.refine(isJsonObject, 'must be a JSON object'),
		},
		(entry, params) => {
			for (const [name, value] of Object.entries(
				JSON.parse(params.custom_fields) as Record<string, unknown>,
			))
				entry.custom_fields[name] = String(value);
			return ok({ message: 'Subscriber changes have been saved successfully.' });
		},
	),
	{
		path: '/whatsapp/subscriber/custom-fields/list',
		params: z.object({}),
		handle: ({ state }) =>
			ok({ message: 'Custom fields retrieved successfully', data: state.customFields }),
	},
	onSubscriber(
		'/whatsapp/subscriber/chat/assign-labels',
		{ label_ids: p.idList },
		(entry, params) => {
			entry.label_ids = [...new Set([...entry.label_ids, ...ids(params.label_ids)])];
			return ok({ message: 'Labels have been assigned successfully.' });
		},
	),
	onSubscriber(
		'/whatsapp/subscriber/chat/remove-labels',
		{ label_ids: p.idList },
		(entry, params) => {
			entry.label_ids = entry.label_ids.filter((id) => !ids(params.label_ids).includes(id));
			return ok({ message: 'Labels have been assigned successfully.' }); // sic: the spec's text for remove
		},
	),
	{
		path: '/whatsapp/subscriber/sequence/list',
		params: z.object({ phone_number_id: p.required }),
		handle: ({ params, state }) =>
			state.bot(params.phone_number_id)
				? ok({ message: state.sequences })
				: fail(ACCOUNT_NOT_FOUND),
	},
	onSubscriber(
		'/whatsapp/subscriber/chat/assign-sequence',
		{ sequence_ids: p.idList },
		(entry, params) => {
			entry.sequence_ids = [...new Set([...entry.sequence_ids, ...ids(params.sequence_ids)])];
			return ok({ message: 'Sequences have been assigned successfully.' });
		},
	),
	onSubscriber(
		'/whatsapp/subscriber/chat/remove-sequence',
		{ sequence_ids: p.idList },
		(entry, params) => {
			entry.sequence_ids = entry.sequence_ids.filter(
				(id) => !ids(params.sequence_ids).includes(id),
			);
			return ok({ message: 'Sequences have been removed successfully.' });
		},
	),
	onSubscriber(
		'/whatsapp/subscriber/chat/add-notes',
		{ note_text: p.required },
		(entry, params, state) => {
			state.notes.push({
				id: state.nextId(),
				note_text: params.note_text,
				noted_by_user_id: state.me.user_id,
				noted_by_name: state.me.name,
				updated_at: state.now(),
				phone_number_id: entry.phone_number_id,
				chat_id: entry.chat_id,
			});
			return ok({ message: 'Notes have been added successfully.' });
		},
	),
	onSubscriber('/whatsapp/subscriber/chat/get-notes', {}, (entry, _params, state) =>
		ok({
			message: state.notes
				.filter(
					(note) =>
						note.phone_number_id === entry.phone_number_id && note.chat_id === entry.chat_id,
				)
				.map(({ id, note_text, noted_by_user_id, noted_by_name, updated_at }) => ({
					id,
					note_text,
					noted_by_user_id,
					noted_by_name,
					updated_at,
				})),
		}),
	),
	onSubscriber('/whatsapp/subscriber/crm/get', {}, (entry, _params, state) =>
		ok({ message: dealOverview(state, entry) }),
	),
	onSubscriber(
		'/whatsapp/subscriber/crm/update',
		{
			title: p.string.optional(),
			pipeline_id: p.integer.optional(),
			stage_id: p.integer.optional(),
			value: p.number.optional(),
			currency: p.string.optional(),
			expected_close_date: p.date.optional(),
			owner_user_id: p.integer.optional(),
			lead_score: p.oneOf(['hot', 'warm', 'cold']).optional(),
			source: p.string.optional(),
		},
		(entry, params, state) => {
			let deal = state.deals.find(
				(row) => row.phone_number_id === entry.phone_number_id && row.chat_id === entry.chat_id,
			);
			if (!deal) {
				deal = {
					deal_id: state.nextId(),
					phone_number_id: entry.phone_number_id,
					chat_id: entry.chat_id,
					has_deal: true,
				};
				state.deals.push(deal);
			}
			for (const [key, value] of Object.entries(params))
				if (key !== 'phone_number_id' && key !== 'phone_number' && value !== undefined)
					deal[key] = value;
			deal.updated_at = state.now();
			return ok({ message: 'CRM Overview updated successfully.' });
		},
	),
];

const labelItem = ({ id, label_name, status }: Record<string, unknown>) => ({
	id,
	label_name,
	status,
});

function createLabel(state: SimState, labelName: string, phoneNumberId: string) {
	state.labels.push({
		id: state.nextId(),
		label_name: labelName,
		status: '1',
		phone_number_id: phoneNumberId,
	});
	return ok({ message: 'Label has been created successfully.' });
}

/** The spec's "Labels": current paths, and the earlier form's paths with phone_number_id. */
export const labelRoutes: Route[] = [
	{
		path: '/label/list',
		params: z.object({}),
		handle: ({ state }) => ok({ message: state.labels.map(labelItem) }),
	},
	{
		path: '/label/create',
		params: z.object({ label_name: p.required }),
		handle: ({ params, state }) =>
			createLabel(state, params.label_name, state.bots[0].phone_number_id),
	},
	{
		path: '/whatsapp/label/list',
		params: z.object({ phone_number_id: p.required }),
		handle: ({ params, state }) =>
			state.bot(params.phone_number_id)
				? ok({
						message: state.labels
							.filter((label) => label.phone_number_id === params.phone_number_id)
							.map(labelItem),
					})
				: fail(ACCOUNT_NOT_FOUND),
	},
	{
		path: '/whatsapp/label/create',
		params: z.object({ phone_number_id: p.required, label_name: p.required }),
		handle: ({ params, state }) =>
			state.bot(params.phone_number_id)
				? createLabel(state, params.label_name, params.phone_number_id)
				: fail(ACCOUNT_NOT_FOUND),
	},
];
