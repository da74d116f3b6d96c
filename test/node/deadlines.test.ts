/**
 * Issue 42 point 4: every request an operation makes obeys Options → Timeout, the reads a send makes first (Skip
 * Opted-Out's Subscriber → Get, Check Window First's conversation) and the reads of multi-step operations included.
 * The simulator never answers the read ('timeout' fault); with Options → Timeout at 300 ms the item fails naming that
 * deadline, and nothing is sent. Without the deadline the read would wait n8n's 300 s and the test would time out.
 * What is guaranteed is checked, not how far a request got in 300 ms: on a loaded machine the deadline can cut the read
 * before the in-process simulator has recorded it.
 */
import { sendTextNode } from '../../bench/sendTextNode';
import { loadedNode, runNode, type RunResult } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { WaitingRun } from '../harness/waiting';
import { validParameters } from '../harness/operations';
import { AVA, fromList, numberFromList, onNumber, onSubscriber, PHONE } from '../harness/params';

const withOptions = sendTextNode({});
const fx = useSimulator({ seed: { subscribersPerNumber: 5 } });
const PATHS = ['workflow', 'execute'] as const;
const TIMEOUT = { requestOptions: { timeout: 300 } };
const DEADLINE = /timed out: no complete answer within 0\.3 s/;
const SEND_PATHS = ['/whatsapp/send', '/whatsapp/send/template'];

const paths = () => fx.sim.requests.map((request) => request.path);
const failureOf = (result: RunResult) =>
	result.error ?? result.items.find((item) => item.error)?.error;

function run(
	path: (typeof PATHS)[number],
	parameters: object,
	continueOnFail = false,
): Promise<RunResult> {
	return runNode({
		// The node as n8n loads it: with the Options n8n adds to a declarative node (Timeout among them).
		nodeType: withOptions,
		path,
		credentials: fx.credentials,
		continueOnFail,
		items: [{ json: { phone: AVA } }],
		parameters: { ...parameters, ...TIMEOUT } as never,
	});
}

describe('4. the reads a send makes first obey Options → Timeout', () => {
	// The catalog's Send Text, to the input item's number.
	const sendText = { ...validParameters('message', 'sendText'), phoneNumber: '={{ $json.phone }}' };
	const cases = [
		['Skip Opted-Out (Subscriber → Get)', '/whatsapp/subscriber/get', { skipOptedOut: true }],
		[
			'Check Window First (the conversation)',
			'/whatsapp/get/conversation',
			{ outsideWindow: 'skip', checkWindowFirst: true },
		],
	] as const;
	for (const [name, read, extra] of cases)
		for (const path of PATHS)
			for (const continueOnFail of [false, true])
				it(`${name} (${path}${continueOnFail ? ', Continue On Fail' : ''}): cut at the deadline, nothing sent`, async () => {
					fx.sim.faults.add(read, { kind: 'timeout' });
					const result = await run(path, { ...sendText, ...extra }, continueOnFail);
					expect(String(failureOf(result)?.message)).toMatch(DEADLINE);
					if (continueOnFail) expect(result.items[0].pairedItem).toEqual({ item: 0 });
					expect(paths().filter((entry) => SEND_PATHS.includes(entry))).toEqual([]);
				});
});

describe('4. the reads of multi-step operations obey Options → Timeout', () => {
	const operations = [
		[
			'Message → Get Transcript',
			'/whatsapp/get/conversation',
			{ resource: 'message', operation: 'getTranscript', ...onNumber, phoneNumber: PHONE },
		],
		[
			'Message → Get Unanswered',
			'/whatsapp/get/conversation',
			{
				resource: 'message',
				operation: 'getUnanswered',
				...onNumber,
				phoneNumber: PHONE,
				messageId: 'wamid.none',
			},
		],
		[
			'Message → Download Media',
			'/whatsapp/get/conversation',
			{
				resource: 'message',
				operation: 'downloadMedia',
				...onNumber,
				messageSource: 'id',
				phoneNumber: PHONE,
				messageId: 'wamid.none',
			},
		],
		[
			'Subscriber → Hand Over (least busy)',
			'/user/team-member/list',
			{
				resource: 'subscriber',
				operation: 'handOver',
				...onSubscriber,
				assignTo: 'leastBusy',
				reason: 'Asks for a refund',
			},
		],
		[
			'Subscriber → Hand Over (the assignment)',
			'/whatsapp/subscriber/chat/assign-to-team-member',
			{
				resource: 'subscriber',
				operation: 'handOver',
				...onSubscriber,
				teamMember: fromList('502'),
			},
		],
		[
			'Subscriber → Opt Out',
			'/label/list',
			{ resource: 'subscriber', operation: 'optOut', ...onSubscriber, optOutLabel: 'opted-out' },
		],
		[
			'Subscriber → Opt In',
			'/label/list',
			{ resource: 'subscriber', operation: 'optIn', ...onSubscriber, optOutLabel: 'VIP' },
		],
	] as const;
	for (const [name, read, parameters] of operations)
		for (const path of PATHS)
			it(`${name} (${path}): ${read} cut at the deadline`, async () => {
				fx.sim.faults.add(read, { kind: 'timeout' });
				const result = await run(path, parameters, true);
				expect(String(failureOf(result)?.message)).toMatch(DEADLINE);
			});
});

describe('4. Send and Wait: the subscriber lookup obeys Options → Timeout', () => {
	it('a lookup that never answers is cut at the deadline; the question goes out and waits', async () => {
		fx.sim.faults.add('/whatsapp/subscriber/get', { kind: 'timeout' });
		const waiting = new WaitingRun({
			parameters: {
				resource: 'message',
				operation: 'sendAndWait',
				phoneNumberId: numberFromList,
				phoneNumber: { __rl: true, mode: 'phone', value: `+${PHONE}` },
				message: 'Approve?',
				...TIMEOUT,
			},
			credentials: fx.credentials,
			items: [{ order: 'A-1001' }],
			nodeType: loadedNode(),
		});
		await waiting.start();
		expect(waiting.waiting).toBe(true);
		expect(paths().filter((entry) => entry === '/whatsapp/send')).toHaveLength(1);
	});
});
