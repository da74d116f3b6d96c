/**
 * Reliability matrix, issue 42 point 4: the reads a send makes before sending (Skip Opted-Out's Subscriber → Get,
 * Check Window First's conversation) obey Options → Timeout on every send, on both paths (a workflow run and the AI
 * tool path, `execute`), with and without Continue On Fail. The simulator never answers the read; the item fails at the
 * deadline naming it, and nothing is sent. (Without the deadline such a read waited n8n's 300 s.)
 */
import { loadedNode, runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { AVA, byId, numberFromList } from '../harness/params';
import { count, flushTally, newTally } from './checks';

const fx = useSimulator({ seed: { subscribersPerNumber: 5 } });
const tally = newTally();
const started = Date.now();
afterAll(() => flushTally('deadlines', tally, (Date.now() - started) / 1000));

const nodeType = loadedNode();

const SENDS = [
	{ operation: 'sendText', endpoint: '/whatsapp/send', session: true, extra: { message: 'Hi' } },
	{
		operation: 'sendTemplate',
		endpoint: '/whatsapp/send/template',
		session: false,
		extra: {
			templateId: byId('900000'),
			variableSource: 'manual',
			manualVariables: {
				variable: [
					{ label: 'first_name', position: 1, value: 'Ava' },
					{ label: 'discount', position: 2, value: '10%' },
				],
			},
		},
	},
	{
		operation: 'sendButtons',
		endpoint: '/whatsapp/send/interactive-buttons',
		session: true,
		extra: { message: 'Pick one', buttons: { button: [{ title: 'Yes' }] } },
	},
	{
		operation: 'sendMedia',
		endpoint: '/whatsapp/send/file',
		session: true,
		extra: { source: 'url', mediaUrl: 'https://example.com/menu.pdf' },
	},
] as const;

const READS = [
	['Skip Opted-Out', '/whatsapp/subscriber/get', { skipOptedOut: true }, false],
	[
		'Check Window First',
		'/whatsapp/get/conversation',
		{ outsideWindow: 'skip', checkWindowFirst: true },
		true,
	],
] as const;

const CATEGORY =
	'Deadlines (issue 42): the read a send makes first (Skip Opted-Out, Check Window First) never answers; every send, both paths, with and without Continue On Fail: cut at Options → Timeout, the error names it, nothing sent';

const cases = SENDS.flatMap((send) =>
	READS.filter(([, , , session]) => !session || send.session).flatMap((read) =>
		(['workflow', 'execute'] as const).flatMap((path) =>
			[false, true].map((continueOnFail) => ({ send, read, path, continueOnFail })),
		),
	),
);

it.each(
	cases.map((entry) => [
		`${entry.send.operation}, ${entry.read[0]} (${entry.path}${entry.continueOnFail ? ', Continue On Fail' : ''})`,
		entry,
	]),
)('%s', async (_name, { send, read, path, continueOnFail }) => {
	const [, readPath, readParameters] = read;
	fx.sim.faults.add(readPath, { kind: 'timeout' });
	const result = await runNode({
		nodeType,
		path,
		credentials: fx.credentials,
		continueOnFail,
		items: [{ json: { phone: AVA } }],
		parameters: {
			resource: 'message',
			operation: send.operation,
			phoneNumberId: numberFromList,
			phoneNumber: '={{ $json.phone }}',
			...send.extra,
			...readParameters,
			requestOptions: { timeout: 300 },
		} as never,
	});
	const failure = result.error ?? result.items.find((item) => item.error)?.error;
	const paths = fx.sim.requests.map((request) => request.path);
	const problems = [
		/timed out: no complete answer within 0\.3 s/.test(String(failure?.message))
			? ''
			: `not cut at the deadline: ${String(failure?.message)}`,
		paths.includes(send.endpoint) ? `sent anyway (${send.endpoint})` : '',
	].filter(Boolean);
	count(
		tally,
		CATEGORY,
		problems.length > 0,
		problems.length ? problems.join('; ') : 'cut at the deadline, nothing sent',
	);
	expect(problems).toEqual([]);
});
