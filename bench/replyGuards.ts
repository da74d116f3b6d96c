/**
 * Row 13: Send Text and Send Buttons with the reply guards (issue 46) against the same send without them over the same
 * items, in the same run: extra requests per send. Each subscriber wrote one message, the item names it
 * (wa_message_id), so every send goes out. Goal: both guards together at most one extra request (the conversation),
 * none when Check Window First already reads it; Takeover Includes Assignment reads Subscriber → Get, shared with
 * Skip Opted-Out Subscribers.
 */
import { runNode } from '../test/harness/harness';
import { fmt, type SimProcess } from './lib';
// The explicit .ts: under tsx, `BotSailor.node` would resolve to the codex file BotSailor.node.json.
/* eslint-disable @typescript-eslint/no-require-imports */
const { BotSailor } =
	require('../nodes/BotSailor/BotSailor.node.ts') as typeof import('../nodes/BotSailor/BotSailor.node');
/* eslint-enable @typescript-eslint/no-require-imports */

type Row = [string, string, string, string, string, string, string];

export async function replyGuardRows(
	sim: SimProcess,
	{
		count,
		phoneNumberId,
		operation = 'sendButtons',
	}: { count: number; phoneNumberId: string; operation?: 'sendButtons' | 'sendText' },
): Promise<Row[]> {
	const sendUrl =
		operation === 'sendText' ? '/whatsapp/send' : '/whatsapp/send/interactive-buttons';
	const own =
		operation === 'sendText'
			? { message: 'Yes, the table for two is free.' }
			: { message: 'Shall I book it?', buttons: { button: [{ title: 'Yes' }, { title: 'No' }] } };
	await sim.control('reset');
	await sim.control('clock', { time_zone: 'UTC' });
	const phones = Array.from(
		{ length: count },
		(_, index) => `1997${String(index).padStart(6, '0')}`,
	);
	/** Each subscriber writes again (each run's sends answer the message before), the items naming the new message. */
	const customersWrite = async () => {
		const items: Array<{ json: { phone: string; wa_message_id: string } }> = [];
		for (const phone of phones) {
			const row = await sim.control<{ wa_message_id: string }>('message', {
				phone_number_id: phoneNumberId,
				phone_number: phone,
				text: 'Is the table for two still free?',
			});
			items.push({ json: { phone, wa_message_id: row.wa_message_id } });
		}
		return items;
	};
	const credentials = { baseUrl: sim.url, apiToken: sim.token, apiForm: 'current' as const };
	const run = async (additionalFields: object, extra: object = {}) => {
		const items = await customersWrite();
		await sim.control('clear-requests');
		const result = await runNode({
			nodeType: new BotSailor(),
			credentials,
			items,
			parameters: {
				resource: 'message',
				operation,
				phoneNumberId: { __rl: true, mode: 'id', value: phoneNumberId },
				phoneNumber: '={{ $json.phone }}',
				...own,
				additionalFields,
				...extra,
			} as never,
		});
		if (result.error) throw new Error(`row 13: ${result.error.message}`);
		const requests = await sim.control<Array<{ path: string }>>('requests');
		const sent = requests.filter((request) => request.path === sendUrl);
		if (sent.length !== count)
			throw new Error(
				`row 13: ${sent.length} sends of ${count}: ${JSON.stringify(result.items[0]?.json).slice(0, 300)} ${JSON.stringify(requests.slice(0, 3).map((request) => request.path))}`,
			);
		return requests.length / count;
	};
	const id = { answersMessageId: '={{ $json.wa_message_id }}' };
	const checkFirst = { outsideWindow: 'skip', checkWindowFirst: true };
	const plain = await run({});
	const unanswered = await run({ ...id, onlyIfUnanswered: true });
	// Assignment off: the conversation read alone; the default (assignment on) is the rows below.
	const bothGuards = {
		...id,
		onlyIfUnanswered: true,
		skipIfPersonTookOver: true,
		takeoverIncludesAssignment: false,
	};
	const both = await run(bothGuards);
	const windowOnly = await run({}, checkFirst);
	const windowAndBoth = await run(bothGuards, checkFirst);
	const assignment = { ...bothGuards, takeoverIncludesAssignment: true };
	const withAssignment = await run(assignment);
	const optOutOnly = await run({}, { skipOptedOut: true });
	const optOutAndAssignment = await run(assignment, { skipOptedOut: true });
	const optOutWindowOnly = await run({}, { skipOptedOut: true, ...checkFirst });
	const optOutWindowAndAssignment = await run(assignment, { skipOptedOut: true, ...checkFirst });
	const name = operation === 'sendText' ? 'Send Text' : 'Send Buttons';
	const label = `13. ${name} × ${count} with the reply guards vs without (extra requests per send)`;
	const row = (measure: string, ours: number, reference: number, goal: string): Row => [
		label,
		'0 ms',
		measure,
		fmt(ours, 2),
		fmt(reference, 2),
		`+${fmt(ours - reference, 2)}`,
		goal,
	];
	return [
		row('Only If Still Unanswered', unanswered, plain, '+1 at most'),
		row('both guards, Takeover Includes Assignment off', both, plain, '+1 at most'),
		row('both guards, assignment off, with Check Window First', windowAndBoth, windowOnly, '+0'),
		row(
			'both guards as set by default (with the assignment: Subscriber → Get)',
			withAssignment,
			plain,
			'+2 (stated)',
		),
		row(
			'both guards + assignment with Skip Opted-Out (Subscriber → Get shared)',
			optOutAndAssignment,
			optOutOnly,
			'+1 at most',
		),
		row(
			'both guards + assignment with Skip Opted-Out and Check Window First',
			optOutWindowAndAssignment,
			optOutWindowOnly,
			'+0',
		),
	];
}
