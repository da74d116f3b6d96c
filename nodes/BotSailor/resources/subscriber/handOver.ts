import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';
import { listRecords } from '../../../shared/http/envelope';
import { inputs, refuse, subscriberKeys, validateBody, z } from '../../../shared/parameters/inputs';
import { requestBody, text } from '../../../shared/parameters/values';
import { Steps } from '../../running/steps';
import { whatsAppNumber } from '../common';
import type { OperationContext, OperationDescription } from '../resource';
import { subscriberLocator } from '../shared/subscriber';
import { teamMemberLocator } from './fields';

/** How many of the most recently active subscribers "Least Busy" counts assignments among (pages of 100). */
export const LEAST_BUSY_PAGES = 2;

/**
 * The active team member with the fewest of the most recently active conversations assigned. SPEC-GAP: the
 * platform's team member list says nothing about workload (id, name, email, role, status), so the node counts
 * `assigned_agent_id` over the newest 200 subscribers by last message (subscriber list, orderBy 1); ties go to
 * the member listed first.
 */
async function leastBusy(
	steps: Steps,
	phoneNumberId: string,
): Promise<{ member: IDataObject; assigned: number }> {
	const team = await steps.call('read the team members', '/user/team-member/list', {});
	const members = (listRecords(team) ?? []).filter(
		(member) => String(member.status ?? '1') === '1',
	);
	if (!members.length)
		await steps.run('choose a team member', async () => {
			throw new Error('the account has no active team member');
		});
	const counts = new Map<string, number>(members.map((member) => [String(member.id), 0]));
	for (let page = 1; page <= LEAST_BUSY_PAGES; page++) {
		const list = await steps.call('count assigned conversations', '/whatsapp/subscriber/list', {
			phone_number_id: phoneNumberId,
			orderBy: 1,
			limit: 100,
			offset: page,
		});
		const rows = listRecords(list) ?? [];
		for (const row of rows) {
			const agent = String(row.assigned_agent_id ?? '');
			if (counts.has(agent)) counts.set(agent, counts.get(agent)! + 1);
		}
		if (rows.length < 100 || list.nextOffset === undefined || list.nextOffset === null) break;
	}
	let best = members[0];
	for (const member of members)
		if (counts.get(String(member.id))! < counts.get(String(best.id))!) best = member;
	return { member: best, assigned: counts.get(String(best.id))! };
}

/**
 * Subscriber → Hand Over to a Person, one input item: the conversation assigned to a team member (the chosen
 * one, or the least busy), marked open in the inbox, and a note with the reason for the person who takes over.
 */
async function handOver(
	this: OperationContext,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const request = requestData.options as IHttpRequestOptions;
	const body = requestBody(request);
	const phoneNumberId = String(body.phone_number_id);
	const phoneNumber = String(body.phone_number);
	const assignTo = String(this.getNodeParameter('assignTo', 'member'));
	const reason = String(this.getNodeParameter('reason', '') ?? '').trim();
	let memberId: string | undefined;
	if (assignTo === 'member') {
		const given = this.getNodeParameter('teamMember', '', { extractValue: true }) as unknown;
		const parsed = inputs.integer.safeParse(given);
		if (!parsed.success || Number(parsed.data) < 1)
			refuse(
				this,
				'Team Member must be the ID of a team member, e.g. 501',
				`The parameter "Team Member" received ${JSON.stringify(given)}.`,
			);
		memberId = String(parsed.data);
	}
	const subscriber = { phone_number_id: phoneNumberId, phone_number: phoneNumber };
	const steps = new Steps(this, request);

	let name: string | null = null;
	let assignedBefore: number | null = null;
	if (assignTo === 'leastBusy') {
		const chosen = await leastBusy(steps, phoneNumberId);
		memberId = String(chosen.member.id);
		name = text(chosen.member.name) ?? null;
		assignedBefore = chosen.assigned;
	}
	await steps.call('assign the conversation', '/whatsapp/subscriber/chat/assign-to-team-member', {
		...subscriber,
		team_member_id: memberId,
	});
	steps.record(`conversation assigned to team member ${memberId}`);
	await steps.call('mark the conversation open', '/whatsapp/subscriber/chat/mark-conversation', {
		...subscriber,
		action: 'reopen',
	});
	steps.record('conversation marked open');
	let note: string | null = null;
	if (reason) {
		note = `Handed over to a person${name ? ` (${name})` : ''}: ${reason}`;
		await steps.call('leave the note', '/whatsapp/subscriber/chat/add-notes', {
			...subscriber,
			note_text: note,
		});
		steps.record('note added');
	}
	const json: IDataObject = {
		phone_number: phoneNumber,
		handed_over: true,
		team_member_id: Number(memberId),
		team_member_name: name,
		chosen: assignTo === 'leastBusy' ? 'least busy' : 'given',
		...(assignedBefore !== null ? { recent_conversations_assigned: assignedBefore } : {}),
		conversation_status: 'open',
		note,
	};
	return [{ json, pairedItem: { item: this.getItemIndex() } }];
}

export const handOverOperation: OperationDescription = {
	kind: 'write',
	execute: handOver,
	toolDescription:
		'Hand the conversation with this subscriber over to a person of the team: assigns it to a team member, marks it open in the inbox and leaves an internal note with the reason. Use it when the customer asks for a human, is upset, or asks something you cannot answer or decide (refunds, complaints, exceptions). Give a short reason the person can act on, e.g. "Wants a refund for order 1043, item arrived broken". After it, tell the customer a person will reply; do not keep answering questions the person now handles.',
	option: {
		name: 'Hand Over to a Person',
		value: 'handOver',
		action: 'Hand a subscriber conversation over to a person',
		description:
			'Assign the conversation to a team member (chosen, or the least busy), mark it open and leave a note with the reason',
		routing: {
			request: {},
			send: { preSend: [validateBody(() => z.object(subscriberKeys))] },
		},
	},
	fields: [
		whatsAppNumber(),
		subscriberLocator(),
		{
			displayName: 'Assign To',
			name: 'assignTo',
			type: 'options',
			options: [
				{
					name: 'Team Member',
					value: 'member',
					description: 'The team member chosen below',
				},
				{
					name: 'Least Busy Team Member',
					value: 'leastBusy',
					description:
						'The active team member with the fewest of the 200 most recently active conversations assigned (the platform does not report workload)',
				},
			],
			default: 'member',
		},
		{ ...teamMemberLocator(), displayOptions: { show: { assignTo: ['member'] } } },
		{
			displayName: 'Reason',
			name: 'reason',
			type: 'string',
			default: '',
			typeOptions: { rows: 2 },
			placeholder: 'e.g. Customer asks for a refund of order 1043',
			description:
				'Why the conversation is handed over; left as an internal note for the person who takes over (none when empty)',
		},
	],
};
