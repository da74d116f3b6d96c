/**
 * Queue mode, both triggers in one workflow (issue 42 point 15): each trigger's execute(), which n8n runs as the
 * first step of every execution the trigger starts, passes on only the messages no execution of the workflow
 * started before, through n8n's processed-items list (`checkProcessedAndRecord`, scope workflow). Run through
 * n8n's engine (WorkflowExecute) in the modes a worker runs them ('webhook', 'trigger'), with n8n-core's
 * DataDeduplicationService given an in-memory list that behaves as n8n's database-backed one does for mode
 * 'entries' (a read, then a write of the whole list, with a wait in between as a database round trip has).
 * The real database is exercised by `npm run test:queue`.
 */
import { DataDeduplicationService } from 'n8n-core';
import { sleep } from 'n8n-workflow';
import type {
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataObject,
	IDeduplicationOutput,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { BotSailorTrigger } from '../../nodes/BotSailorTrigger/BotSailorTrigger.node';
import { BotSailorWebhookTrigger } from '../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node';
import { KEY_PREFIX, MAX_ENTRIES } from '../../nodes/shared/triggers/startedOnce';
import { runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { addMessage } from '../simulator/control';
import { NUMBER, numberById } from '../harness/params';

const fx = useSimulator();

/** n8n's processed-items lists, per workflow and context, as its database keeps them (mode 'entries'). */
const lists = new Map<string, string[]>();
const calls: Array<{ scope: DeduplicationScope; options: ICheckProcessedOptions }> = [];
let refuse: Error | undefined;

const deduplicator = {
	async checkProcessedAndRecord(
		items: Array<string | number>,
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		calls.push({ scope, options });
		if (refuse) throw refuse;
		const key = `${contextData.workflow.id}|${scope === 'node' ? contextData.node?.id : ''}`;
		const stored = [...(lists.get(key) ?? [])]; // the read
		await sleep(5); // the database round trip between the read and the write
		const output: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			if (stored.includes(String(item))) output.processed.push(item);
			else {
				output.new.push(item);
				stored.push(String(item));
			}
		}
		if (options.maxEntries) stored.splice(0, stored.length - options.maxEntries);
		lists.set(key, stored); // the write of the whole list
		return output;
	},
};

beforeAll(async () => {
	await DataDeduplicationService.init(deduplicator as never);
});
beforeEach(() => {
	lists.clear();
	calls.length = 0;
	refuse = undefined;
});

const incoming = (id: string): IDataObject => ({
	wa_message_id: id,
	text: `message ${id}`,
	event_type: 'incomingMessage',
	webhook_body: { wa_message_id: id },
});
const polled = (id: string): IDataObject => ({ wa_message_id: id, text: `message ${id}` });

async function webhookExecution(items: IDataObject[], mode: WorkflowExecuteMode = 'webhook') {
	const result = await runNode({
		nodeType: new BotSailorWebhookTrigger(),
		parameters: { event: 'anyEvent', phoneNumberId: numberById },
		credentials: fx.credentials,
		items: items.map((json) => ({ json })),
		mode,
	});
	expect(result.error).toBeUndefined();
	return result.items.map((item) => String(item.json.wa_message_id));
}

async function pollExecution(
	items: IDataObject[],
	mode: WorkflowExecuteMode = 'trigger',
	event = 'newMessage',
) {
	const result = await runNode({
		nodeType: new BotSailorTrigger(),
		parameters: { event, phoneNumberId: numberById },
		credentials: fx.credentials,
		items: items.map((json) => ({ json })),
		mode,
	});
	expect(result.error).toBeUndefined();
	return result;
}

const ids = (result: Awaited<ReturnType<typeof pollExecution>>) =>
	result.items.map((item) => String(item.json.wa_message_id));

describe('both triggers in one workflow: one execution per message through n8n’s processed-items list', () => {
	it('a message the webhook started is left out of the poll’s execution, and a late webhook of a polled message passes nothing', async () => {
		expect(await webhookExecution([incoming('wamid.A')])).toEqual(['wamid.A']);
		expect(ids(await pollExecution([polled('wamid.A'), polled('wamid.B')]))).toEqual(['wamid.B']);
		expect(await webhookExecution([incoming('wamid.B')])).toEqual([]);
		// A second copy of the webhook on another process: its execution passes nothing either.
		expect(await webhookExecution([incoming('wamid.A')])).toEqual([]);
		expect(lists.get('test-workflow|')).toEqual([`${KEY_PREFIX}wamid.A`, `${KEY_PREFIX}wamid.B`]);
		expect(calls.every((call) => call.scope === 'workflow')).toBe(true);
		expect(calls[0].options).toEqual({ mode: 'entries', maxEntries: MAX_ENTRIES });
	});

	it('an execution whose every message was started before ends at the trigger with no item', async () => {
		await webhookExecution([incoming('wamid.C')]);
		const result = await pollExecution([polled('wamid.C')]);
		expect(result.items).toEqual([]);
		// The trigger ran (the execution is in n8n's list) and output nothing.
		expect(Object.keys(result.run.data.resultData.runData)).toContain('BotSailor');
	});

	it('two executions of one message checking at the same moment in one process: one passes it', async () => {
		const both = await Promise.all([
			webhookExecution([incoming('wamid.D')]),
			pollExecution([polled('wamid.D')]).then(ids),
		]);
		expect(both.flat()).toEqual(['wamid.D']);
	});

	it('events other than messages pass unchanged and are not recorded', async () => {
		const status = { wa_message_id: 'wamid.E', status: 'read', event_type: 'messageStatusChanged' };
		const outgoing = { wa_message_id: 'wamid.E', event_type: 'outgoingMessage' };
		expect(await webhookExecution([status])).toEqual(['wamid.E']);
		expect(await webhookExecution([outgoing])).toEqual(['wamid.E']);
		expect(
			ids(
				await pollExecution(
					[{ wa_message_id: 'wamid.E', status: 'read' }],
					'trigger',
					'messageStatusChanged',
				),
			),
		).toEqual(['wamid.E']);
		expect(calls).toHaveLength(0);
		// A message without an id always passes (nothing tells a repeat from a second delivery).
		expect(await webhookExecution([{ text: 'hi', event_type: 'incomingMessage' }])).toEqual([
			'undefined',
		]);
	});

	it('when n8n’s helper refuses (another node keeps the list in a “latest” mode), the items pass as before', async () => {
		refuse = new Error('Deduplication data was originally saved with an incompatible setting');
		expect(await webhookExecution([incoming('wamid.F')])).toEqual(['wamid.F']);
		expect(ids(await pollExecution([polled('wamid.F')]))).toEqual(['wamid.F']);
	});

	it('a manual run records nothing, and a manual run of the polling trigger reads its sample (n8n calls execute, not poll)', async () => {
		expect(await webhookExecution([incoming('wamid.G')], 'manual')).toEqual(['wamid.G']);
		expect(calls).toHaveLength(0);
		fx.sim.state.messages = [];
		expect((await pollExecution([{}], 'manual')).items).toEqual([]);
		const message = addMessage(fx.sim.state, {
			phone_number: fx.sim.state.subscribersOf(NUMBER)[3].chat_id,
			text: 'newest for the sample',
		});
		// A manual run starts at the trigger with one empty item, as n8n's manual start does.
		const sample = await pollExecution([{}], 'manual');
		expect(ids(sample)).toEqual([message.wa_message_id]);
		expect(sample.items[0].json.text).toBe('newest for the sample');
		expect(calls).toHaveLength(0);
	});
});
