/* eslint-disable @n8n/community-nodes/no-restricted-imports -- drives a real n8n from plain Node.js, not node code */
/**
 * Delivery you can see (issue 46, points 5-6) in a real n8n 2.41.1: a workflow sends three texts with **Wait for
 * Delivery** (When Delivery Fails: Output the Item), then **Get Delivery Report** reads the same messages, against the
 * simulator reporting statuses as the platform would (delays of 0.3-1.5 s; one number unreachable: #131026).
 * SPEC-GAP: the statuses, their delays and the failed_reason texts are the simulator's (test/simulator/statuses.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addMessage } from '../simulator/control';
import { failedReasonOf } from '../simulator/statuses';
import { startSimulator, type Simulator } from '../simulator/server';
import {
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	ensureBuilt,
	execute,
	findFreePortPair,
	importCredential,
	importWorkflows,
	installCommunityPackage,
	instance,
	nodeOutput,
	pack,
	provision,
	type N8nInstance,
} from './n8n';

const NUMBER = '104382179270221';
const PHONES = ['15550100011', '15550100012', '15550100013'];
const UNREACHABLE = PHONES[1];
const credentials = { botSailorApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };
const WORKFLOW = 'bsE2eDelivery';

let sim: Simulator;
let n8n: N8nInstance;
let work: string;

/** Manual Trigger → three numbers → Send Text (Wait for Delivery) → Get Delivery Report (once, all ids). */
function deliveryWorkflow() {
	const node = (name: string, type: string, position: number, parameters: object, extra = {}) => ({
		parameters,
		id: name.toLowerCase().replace(/\W+/g, '-'),
		name,
		type,
		typeVersion: type.startsWith('n8n-nodes-botsailor') ? 1.1 : 1,
		position: [position * 220, 0],
		...extra,
	});
	return {
		id: WORKFLOW,
		name: WORKFLOW,
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', 0, {}),
			{
				...node('Numbers', 'n8n-nodes-base.set', 1, {
					mode: 'raw',
					jsonOutput: JSON.stringify({ phone: PHONES }),
					options: {},
				}),
				typeVersion: 3.4,
			},
			node('One per Number', 'n8n-nodes-base.splitOut', 2, {
				fieldToSplitOut: 'phone',
				options: {},
			}),
			node(
				'Send Text',
				'n8n-nodes-botsailor.botSailor',
				3,
				{
					resource: 'message',
					operation: 'sendText',
					phoneNumberId: { __rl: true, mode: 'id', value: NUMBER },
					phoneNumber: { __rl: true, mode: 'phone', value: '={{ $json.phone }}' },
					message: 'Your order is ready for pick-up.',
					waitForDelivery: true,
					deliveryMaxWait: 30,
					onDeliveryFailed: 'output',
				},
				{ credentials },
			),
			node(
				'Get Delivery Report',
				'n8n-nodes-botsailor.botSailor',
				4,
				{
					resource: 'message',
					operation: 'getDeliveryReport',
					messageIds: "={{ $('Send Text').all().map((item) => item.json.wa_message_id) }}",
				},
				{ credentials, executeOnce: true },
			),
		],
		connections: Object.fromEntries(
			['Start', 'Numbers', 'One per Number', 'Send Text'].map((name, index, names) => [
				name,
				{
					main: [
						[
							{
								node: [...names.slice(1), 'Get Delivery Report'][index],
								type: 'main',
								index: 0,
							},
						],
					],
				},
			]),
		),
	};
}

beforeAll(async () => {
	const paths = provision();
	ensureBuilt();
	sim = await startSimulator();
	work = mkdtempSync(join(tmpdir(), 'botsailor-e2e-delivery-'));
	n8n = instance(paths, join(work, 'user'), await findFreePortPair());
	installCommunityPackage(n8n, pack(join(work, 'pack')));
	await importCredential(n8n, { baseUrl: sim.url, apiToken: sim.token });
	const workflows = join(work, 'workflows');
	mkdirSync(workflows);
	writeFileSync(join(workflows, `${WORKFLOW}.json`), JSON.stringify(deliveryWorkflow()));
	await importWorkflows(n8n, workflows);
}, 600_000);

afterAll(async () => {
	await sim?.close();
	if (work) rmSync(work, { recursive: true, force: true });
});

test('Wait for Delivery puts delivered and failed (with the reason) on the items; Get Delivery Report counts them; nothing sent twice', async () => {
	// Each customer wrote first (the 24-hour window is open), then the platform reports statuses after a delay.
	for (const phone of PHONES)
		addMessage(sim.state, { phone_number_id: NUMBER, phone_number: phone, text: 'Is it ready?' });
	sim.state.statuses.configure({
		delivered_after_ms: [300, 1500],
		read_after_ms: null,
		fail_numbers: { [UNREACHABLE]: 131026 },
	});
	sim.clearRequests();
	const started = Date.now();
	const run = await execute(n8n, WORKFLOW);
	expect(run.status).toBe('success');

	const sent = nodeOutput(run, 'Send Text');
	expect(sent.map((item) => item.phone_number)).toEqual(PHONES);
	for (const [index, item] of sent.entries()) {
		const delivery = item.delivery as Record<string, unknown>;
		expect(String(item.wa_message_id)).toMatch(/^wamid\./);
		if (PHONES[index] === UNREACHABLE)
			expect(delivery).toMatchObject({ status: 'failed', failed_reason: failedReasonOf(131026) });
		else {
			expect(delivery.status).toBe('delivered');
			expect(delivery.failed_reason).toBeUndefined();
		}
		expect(delivery.timed_out).toBeUndefined();
	}
	// Each message sent once; the statuses read with one schedule for the run (at most 3 reads per message).
	const requests = (path: string) => sim.requests.filter((request) => request.path === path);
	expect(requests('/whatsapp/send').map((request) => request.body.phone_number)).toEqual(PHONES);
	const [report] = nodeOutput(run, 'Get Delivery Report');
	expect(report).toMatchObject({
		total: 3,
		checked: 3,
		counts: { delivered: 2, failed: 1 },
	});
	const messages = report.messages as Array<Record<string, unknown>>;
	expect(messages.map((entry) => entry.wa_message_id)).toEqual(
		sent.map((item) => item.wa_message_id),
	);
	expect(messages[1]).toMatchObject({ status: 'failed', failed_reason: failedReasonOf(131026) });
	// The wait's reads (≤ 3 per message) and the report's one read per message.
	expect(requests('/whatsapp/get/message-status').length).toBeLessThanOrEqual(3 * 3 + 3);
	expect(Date.now() - started).toBeLessThan(120_000);
}, 240_000);
