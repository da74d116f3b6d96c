/**
 * Subscriber → Opt Out, Opt In and Hand Over to a Person (issue 29): several requests per item, through n8n's
 * engine and the tool path; a failed step names itself and what was already done.
 */
import type { IDataObject } from 'n8n-workflow';
import { hasOptOutLabel } from '../../nodes/BotSailor/resources/subscriber/optOut';
import { runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { AVA, NUMBER, rl } from '../harness/params';

const fx = useSimulator();
/** Ava, a story subscriber of the seed. */
const PHONE = AVA;
const subscriber = () => fx.sim.state.subscriber(NUMBER, PHONE)!;
const label = (name: string) => fx.sim.state.labels.find((entry) => entry.label_name === name);
const paths = () => fx.sim.requests.map((request) => request.path);

async function run(
	operation: string,
	extra: IDataObject = {},
	path: 'workflow' | 'execute' = 'workflow',
) {
	return await runNode({
		parameters: {
			resource: 'subscriber',
			operation,
			phoneNumberId: rl(NUMBER),
			subscriber: rl(PHONE),
			...extra,
		},
		credentials: fx.credentials,
		path,
	});
}

describe('Subscriber → Opt Out / Opt In', () => {
	it('creates the label when the account has none, labels the subscriber, removes every sequence, blocks when asked', async () => {
		subscriber().sequence_ids = [41, 42];
		expect(label('opted-out')).toBeUndefined();
		const { items, error } = await run('optOut', { blockConversation: true });
		expect(error).toBeUndefined();
		const created = label('opted-out')!;
		expect(created).toBeDefined();
		expect(subscriber().label_ids).toContain(created.id);
		expect(subscriber().sequence_ids).toEqual([]);
		expect(subscriber().conversation_status).toBe(3);
		expect(paths()).toEqual([
			'/label/list',
			'/label/create',
			'/label/list',
			'/whatsapp/subscriber/chat/assign-labels',
			'/whatsapp/subscriber/sequence/list',
			'/whatsapp/subscriber/chat/remove-sequence',
			'/whatsapp/subscriber/chat/mark-conversation',
		]);
		expect(items[0].json).toMatchObject({
			phone_number: PHONE,
			opted_out: true,
			label: { id: created.id, name: 'opted-out' },
			label_created: true,
			removed_from_sequences: ['41', '42'],
			blocked: true,
		});

		// What a send's "skip opted-out" check reads: Subscriber → Get's label_names.
		const got = await run('get');
		expect(hasOptOutLabel(got.items[0].json)).toBe(true);
		expect(hasOptOutLabel({ label_names: 'VIP, Opted-Out ' })).toBe(true);
		expect(hasOptOutLabel({ label_names: 'VIP' })).toBe(false);
		expect(hasOptOutLabel({ label_names: 'unsubscribed' }, 'Unsubscribed')).toBe(true);

		// Opt In: the label off, the conversation unblocked; the label itself stays for the next opt-out.
		fx.sim.clearRequests();
		const back = await run('optIn', { unblockConversation: true }, 'execute');
		expect(back.error).toBeUndefined();
		expect(subscriber().label_ids).not.toContain(created.id);
		expect(subscriber().conversation_status).toBe(0);
		expect(back.items[0].json).toMatchObject({
			opted_out: false,
			label_removed: true,
			unblocked: true,
		});
		expect(hasOptOutLabel((await run('get')).items[0].json)).toBe(false);
	});

	it('uses an existing label of the chosen name (any case), as a tool too; leaves the conversation and sequences when asked to', async () => {
		subscriber().sequence_ids = [41];
		const vip = label('VIP')!;
		const { items, error } = await run(
			'optOut',
			{ optOutLabel: ' vip ', removeFromSequences: false },
			'execute',
		);
		expect(error).toBeUndefined();
		expect(paths()).toEqual(['/label/list', '/whatsapp/subscriber/chat/assign-labels']);
		expect(subscriber().label_ids).toContain(vip.id);
		expect(subscriber().sequence_ids).toEqual([41]);
		expect(items[0].json).toMatchObject({ label_created: false, blocked: false });
	});

	it('Opt In without such a label changes nothing', async () => {
		const { items } = await run('optIn', { optOutLabel: 'never-made' });
		expect(paths()).toEqual(['/label/list']);
		expect(items[0].json).toMatchObject({ label_removed: false, label: null });
	});

	it('a failed step names itself and what was already done', async () => {
		fx.sim.faults.add('/whatsapp/subscriber/sequence/list', {
			kind: 'status0',
			message: 'Sequence module is not available.',
		});
		const { error } = await run('optOut');
		expect(error?.message).toBe(
			'Subscriber → Opt Out failed at step "read the sequences": Sequence module is not available.',
		);
		expect(error?.description).toContain(
			'Already done before it failed: label "opted-out" created; label "opted-out" added to 15550100001.',
		);
	});

	it('refuses an empty label or a bad subscriber before any request', async () => {
		const empty = await run('optOut', { optOutLabel: '  ' });
		expect(empty.error?.message).toBe('Opt-Out Label is required');
		const bad = await run('optIn', { subscriber: rl('call me', 'phone') });
		expect(bad.error?.message).toMatch(/^Subscriber /);
		expect(fx.sim.requests).toHaveLength(0);
	});
});

describe('Subscriber → Hand Over to a Person', () => {
	it('assigns to the chosen team member, marks the conversation open and leaves the reason as a note', async () => {
		subscriber().conversation_status = 1;
		const { items, error } = await run('handOver', {
			teamMember: rl('502'),
			reason: 'Wants a refund for order 1043',
		});
		expect(error).toBeUndefined();
		expect(paths()).toEqual([
			'/whatsapp/subscriber/chat/assign-to-team-member',
			'/whatsapp/subscriber/chat/mark-conversation',
			'/whatsapp/subscriber/chat/add-notes',
		]);
		expect(subscriber()).toMatchObject({ assigned_agent_id: 502, conversation_status: 0 });
		const note = fx.sim.state.notes.find((entry) => entry.chat_id === PHONE);
		expect(note?.note_text).toBe('Handed over to a person: Wants a refund for order 1043');
		expect(items[0].json).toMatchObject({
			handed_over: true,
			team_member_id: 502,
			chosen: 'given',
			conversation_status: 'open',
		});
	});

	it('least busy: the active team member with the fewest recent conversations (SPEC-GAP: the platform reports no workload), as a tool', async () => {
		const others = fx.sim.state.subscribersOf(NUMBER).filter((entry) => entry.chat_id !== PHONE);
		others.slice(0, 3).forEach((entry) => (entry.assigned_agent_id = 501));
		others.slice(3, 4).forEach((entry) => (entry.assigned_agent_id = 502));
		const { items, error } = await run(
			'handOver',
			{ assignTo: 'leastBusy', reason: 'Asked for a person' },
			'execute',
		);
		expect(error).toBeUndefined();
		expect(subscriber().assigned_agent_id).toBe(502);
		expect(items[0].json).toMatchObject({
			team_member_id: 502,
			team_member_name: 'Bea Manager',
			chosen: 'least busy',
			recent_conversations_assigned: 1,
		});
		expect(paths().slice(0, 2)).toEqual(['/user/team-member/list', '/whatsapp/subscriber/list']);
		// An inactive member is never chosen.
		fx.sim.state.teamMembers[1].status = '0';
		await run('handOver', { assignTo: 'leastBusy' });
		expect(subscriber().assigned_agent_id).toBe(501);
	});

	it('no note without a reason; a failed step says the assignment was already done', async () => {
		fx.sim.faults.add('/whatsapp/subscriber/chat/mark-conversation', {
			kind: 'status0',
			message: 'Try later.',
		});
		const { error } = await run('handOver', { teamMember: rl('501', 'id') });
		expect(error?.message).toBe(
			'Subscriber → Hand Over to a Person failed at step "mark the conversation open": Try later.',
		);
		expect(error?.description).toContain('conversation assigned to team member 501');
		expect(fx.sim.state.notes.some((entry) => entry.chat_id === PHONE)).toBe(false);
	});

	it.each(['Bea', '1.5', '0'])('refuses team member %j before any request', async (value) => {
		const { error } = await run('handOver', { teamMember: rl(value, 'id') });
		expect(error?.message).toMatch(/^Team Member must be the ID of a team member/);
		expect(fx.sim.requests).toHaveLength(0);
	});
});
