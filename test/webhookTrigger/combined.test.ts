/**
 * Both triggers in one workflow: the webhook trigger for speed, the polling trigger as the safety net for
 * webhooks the platform never delivered. Static data handled as n8n 2.41 handles it (webhookHarness.ts):
 * fresh from the database per webhook request, long-lived in memory for the polls, saved after each.
 */
import type { IDataObject, INodeType } from 'n8n-workflow';
import { BotSailorTrigger } from '../../nodes/BotSailorTrigger/BotSailorTrigger.node';
import { BotSailorWebhookTrigger } from '../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node';
import { createPoller } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import { addMessage } from '../simulator/control';
import { startReceiver, type Receiver } from './receiver';
import { WebhookRunner } from './webhookHarness';
import {
	ADOPT_AFTER_MS,
	awaitingWebhookMemory,
	claimDelivery,
	refreshSnapshot,
	releaseMemory,
	STATIC_DATA_KEY,
} from '../../nodes/shared/triggers/deliveryMemory';
import { NUMBER, numberById } from '../harness/params';

const fx = useSimulator();

let receiver: Receiver;
let runner: WebhookRunner;

beforeAll(async () => {
	receiver = await startReceiver(() => runner);
});
afterAll(async () => await receiver.close());

async function combined(options: { webhookPhaseSaved?: boolean; webhookType?: INodeType } = {}) {
	runner = new WebhookRunner({
		webhookType: options.webhookType ?? new BotSailorWebhookTrigger(),
		webhookPhaseSaved: options.webhookPhaseSaved,
		parameters: { event: 'incomingMessage', phoneNumberId: numberById },
		credentials: fx.credentials,
		poll: {
			nodeType: new BotSailorTrigger(),
			parameters: { event: 'newMessage', phoneNumberId: numberById },
		},
	});
	await runner.activate();
	fx.sim.state.webhooks.configure(NUMBER, { urls: { incoming_message: receiver.url } });
	return runner;
}

/** The trigger node types from fresh module instances (empty process memory), as after a restart or an update in place. */
function freshTypes(): { webhook: INodeType; poll: INodeType } {
	let types: { webhook?: INodeType; poll?: INodeType } = {};
	jest.isolateModules(() => {
		/* eslint-disable @typescript-eslint/no-require-imports -- fresh module instances */
		types = {
			webhook: new (
				require('../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node') as typeof import('../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node')
			).BotSailorWebhookTrigger(),
			poll: new (
				require('../../nodes/BotSailorTrigger/BotSailorTrigger.node') as typeof import('../../nodes/BotSailorTrigger/BotSailorTrigger.node')
			).BotSailorTrigger(),
		};
		/* eslint-enable @typescript-eslint/no-require-imports */
	});
	return { webhook: types.webhook!, poll: types.poll! };
}

const write = (index: number) =>
	addMessage(fx.sim.state, {
		phone_number_id: NUMBER,
		phone_number: `1555020${String(index % 7).padStart(4, '0')}`,
		text: `order ${index}`,
	});

/** How many executions each written message started, by trigger. */
function tally(messages: Array<{ wa_message_id: string }>) {
	const started = runner.executions.flatMap((execution) =>
		execution.items.map((item) => ({
			trigger: execution.trigger,
			id: String(item.json.wa_message_id),
		})),
	);
	const counts = messages.map(
		(message) => started.filter((entry) => entry.id === message.wa_message_id).length,
	);
	return {
		once: counts.filter((count) => count === 1).length,
		missing: counts.filter((count) => count === 0).length,
		duplicated: counts.filter((count) => count > 1).length,
		byWebhook: started.filter((entry) => entry.trigger === 'webhook').length,
		byPoll: started.filter((entry) => entry.trigger === 'poll').length,
	};
}

describe('webhook trigger + polling trigger in one workflow', () => {
	it('with 20 % of webhooks dropped, every message starts exactly one execution by the next poll', async () => {
		await combined();
		fx.sim.state.webhooks.addFault({ kind: 'drop', everyNth: 5 });
		const messages = Array.from({ length: 50 }, (_, index) => write(index));
		await fx.sim.state.webhooks.idle();
		expect(tally(messages)).toEqual({
			once: 40,
			missing: 10,
			duplicated: 0,
			byWebhook: 40,
			byPoll: 0,
		});
		await runner.poll();
		expect(tally(messages)).toEqual({
			once: 50,
			missing: 0,
			duplicated: 0,
			byWebhook: 40,
			byPoll: 10,
		});
		await runner.poll();
		expect(tally(messages).duplicated).toBe(0);
	});

	it('a webhook that arrives after the poll started the message starts nothing', async () => {
		await combined();
		fx.sim.state.webhooks.addFault({ kind: 'late', delayMs: 400, times: 1 });
		const late = write(1);
		await runner.poll();
		await fx.sim.state.webhooks.idle();
		expect(tally([late])).toEqual({ once: 1, missing: 0, duplicated: 0, byWebhook: 0, byPoll: 1 });
		expect(receiver.received.at(-1)).toEqual(
			expect.objectContaining({
				status: 200,
				body: expect.objectContaining({ wa_message_id: late.wa_message_id }),
			}),
		);
	});

	it('duplicates, concurrent copies, drops and late deliveries mixed: exactly once each', async () => {
		await combined();
		const webhooks = fx.sim.state.webhooks;
		webhooks.addFault({ kind: 'concurrent', copies: 4, everyNth: 3 });
		const messages = [];
		for (let index = 0; index < 30; index++) {
			if (index % 7 === 0) webhooks.addFault({ kind: 'drop', times: 1 });
			messages.push(write(index));
			if (index % 10 === 5) await runner.poll(); // polls while deliveries are still under way
		}
		await webhooks.idle();
		await runner.poll();
		expect(tally(messages)).toEqual(
			expect.objectContaining({ once: 30, missing: 0, duplicated: 0 }),
		);
	});

	it('after a restart of n8n, a late webhook of a message the poll started before still starts nothing', async () => {
		await combined();
		fx.sim.state.webhooks.configure(NUMBER, { urls: {} }); // the platform does not post (yet)
		const message = write(2);
		await runner.poll();
		expect(tally([message]).byPoll).toBe(1);
		const types = freshTypes();
		await runner.restart(types.webhook!, types.poll!);
		const answer = await runner.deliver({
			body: {
				chat_id: message.whatsapp_bot_subscriber_subscriber_id,
				user_message: 'order 2',
				wa_message_id: message.wa_message_id,
				whatsapp_bot_id: 11,
			},
		});
		expect(answer.body).toEqual({ received: true, started: false, duplicate: true });
		expect(tally([message])).toEqual({
			once: 1,
			missing: 0,
			duplicated: 0,
			byWebhook: 0,
			byPoll: 1,
		});
	});

	describe('n8n 2.41: what webhook() writes to the static data is not saved, what its execution writes is', () => {
		/** Five messages the webhook started (the poll's cursor was set before them), then a restart. */
		async function restartAfterWebhooks(webhookType?: INodeType) {
			await combined({ webhookPhaseSaved: false, webhookType });
			const messages = [0, 1, 2, 3, 4].map((index) => write(index));
			await fx.sim.state.webhooks.idle();
			const types = freshTypes();
			await runner.restart(types.webhook, types.poll); // the activation polls from the stored cursor
			await runner.poll();
			return messages;
		}

		it('a restart keeps what the webhook started: the poll after it starts nothing again', async () => {
			const messages = await restartAfterWebhooks();
			expect(tally(messages)).toEqual({
				once: 5,
				missing: 0,
				duplicated: 0,
				byWebhook: 5,
				byPoll: 0,
			});
		});

		it('(without the execution step, as before, the poll after the restart started all five again)', async () => {
			const node = new BotSailorWebhookTrigger();
			const withoutExecute: INodeType = {
				description: node.description,
				webhookMethods: node.webhookMethods,
				webhook: node.webhook,
			};
			const messages = await restartAfterWebhooks(withoutExecute);
			expect(tally(messages)).toEqual(expect.objectContaining({ duplicated: 5 }));
		});
	});

	describe('after an update in place (new code, the workflow not re-activated)', () => {
		/** Three messages the old code's webhook started, one it missed; then the update. */
		async function updatedWhileActive() {
			await combined();
			fx.sim.state.webhooks.addFault({ kind: 'drop', everyNth: 4 });
			const before = [0, 1, 2, 3].map((index) => write(index));
			await fx.sim.state.webhooks.idle();
			expect(tally(before)).toEqual(expect.objectContaining({ byWebhook: 3, missing: 1 }));
			const types = freshTypes();
			runner.update(types.webhook, types.poll);
			return before;
		}

		it('the new poll waits for the memory, and the next webhook call brings it: each message once, none lost', async () => {
			const before = await updatedWhileActive();
			// The new code's poll does not know what the old code's webhook started: it starts nothing yet.
			expect(await runner.poll()).toEqual([]);
			fx.sim.state.webhooks.clearFaults();
			const after = write(4);
			await fx.sim.state.webhooks.idle();
			await runner.poll();
			await runner.poll();
			expect(tally([...before, after])).toEqual({
				once: 5,
				missing: 0,
				duplicated: 0,
				byWebhook: 4,
				byPoll: 1,
			});
		});

		it('without any webhook call, the poll adopts its own copy after the wait: nothing lost; only what the old webhook started after the old poll is started again', async () => {
			await combined();
			fx.sim.state.webhooks.addFault({ kind: 'drop', times: 1 });
			const polled = [0, 1, 2].map((index) => write(index)); // the first is missed by the webhook
			await fx.sim.state.webhooks.idle();
			await runner.poll(); // the old code's poll catches it and saves its memory
			const late = [3, 4].map((index) => write(index)); // started by the old webhook after that poll
			await fx.sim.state.webhooks.idle();
			const types = freshTypes();
			runner.update(types.webhook, types.poll);
			expect(await runner.poll()).toEqual([]);
			const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + ADOPT_AFTER_MS + 1000);
			try {
				await runner.poll();
			} finally {
				clock.mockRestore();
			}
			expect(tally(polled)).toEqual(
				expect.objectContaining({ once: 3, missing: 0, duplicated: 0 }),
			);
			// docs/updating.md: the poll's copy cannot hold these two; a webhook call within the wait would have.
			expect(tally(late)).toEqual(expect.objectContaining({ missing: 0, duplicated: 2 }));
		});

		it('a released memory (webhook trigger deactivated) is not waited for; an active one is', () => {
			const staticData: IDataObject = {};
			const id = `released-${Date.now()}`;
			const context = {
				getWorkflow: () => ({ id }),
				getWorkflowStaticData: () => staticData,
			};
			refreshSnapshot(context);
			claimDelivery(context, 'message:wamid.1', 86_400);
			releaseMemory(context);
			expect(awaitingWebhookMemory(context)).toBe(false);
			refreshSnapshot(context); // activated again
			releaseMemory(context);
			staticData[STATIC_DATA_KEY] = String(staticData[STATIC_DATA_KEY]).replace(/^released /, '');
			expect(awaitingWebhookMemory(context)).toBe(true); // as an older release stored it, or after an update
			expect(awaitingWebhookMemory(context, Date.now() + ADOPT_AFTER_MS + 1)).toBe(false);
			expect(claimDelivery(context, 'message:wamid.1', 86_400)).toBe(false); // adopted: the key is known
		});
	});

	it('a workflow with the polling trigger alone is unchanged: nothing filtered, nothing written to its static data', async () => {
		const poller = createPoller(
			new BotSailorTrigger(),
			{ event: 'newMessage', phoneNumberId: numberById },
			fx.credentials,
		);
		await poller.poll();
		write(3);
		write(4);
		expect(await poller.poll()).toHaveLength(2);
		// n8n creates an empty global object when it is read (to see whether a webhook trigger shares the workflow).
		expect(poller.persisted().global ?? {}).toEqual({});
	});
});
