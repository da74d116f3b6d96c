/**
 * One delivery, one execution: the same body twice, five times or concurrently starts the workflow once;
 * the memory is bounded in size and age and survives a restart of n8n (static data), while a test
 * delivery (editor listening) is never remembered.
 */
import type { INodeType } from 'n8n-workflow';
import { BotSailorWebhookTrigger } from '../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node';
import {
	MAX_KEYS,
	rememberedCount,
	STATIC_DATA_KEY,
} from '../../nodes/shared/triggers/deliveryMemory';
import { WebhookRunner } from './webhookHarness';
import { numberById } from '../harness/params';

function incoming(index: number, text = `message ${index}`) {
	return {
		chat_id: '15550100007',
		user_message: text,
		subscriber_id: '15550100007-11',
		wa_message_id: `wamid.DEDUP${String(index).padStart(6, '0')}`,
		first_name: 'Ava',
		whatsapp_bot_id: 11,
	};
}

async function activeRunner(event = 'incomingMessage', extra: Record<string, unknown> = {}) {
	const trigger = new WebhookRunner({
		webhookType: new BotSailorWebhookTrigger(),
		parameters: { event, phoneNumberId: numberById, ...extra },
	});
	await trigger.activate();
	return trigger;
}

afterEach(() => jest.restoreAllMocks());

describe('duplicates', () => {
	it('the same delivery five times in a row starts one execution; the others are answered 200 "duplicate"', async () => {
		const trigger = await activeRunner();
		const answers = [];
		for (let copy = 0; copy < 5; copy++) answers.push(await trigger.deliver({ body: incoming(1) }));
		expect(answers.filter((answer) => answer.started)).toHaveLength(1);
		expect(answers.slice(1)).toEqual(
			Array(4).fill({ status: 200, body: { received: true, started: false, duplicate: true } }),
		);
		expect(trigger.executions).toHaveLength(1);
	});

	it('ten concurrent copies start one execution (n8n reads the static data fresh for each, so the process memory decides)', async () => {
		const trigger = await activeRunner();
		const answers = await Promise.all(
			Array.from({ length: 10 }, () => trigger.deliver({ body: incoming(2) })),
		);
		expect(answers.filter((answer) => answer.started)).toHaveLength(1);
		expect(trigger.executions).toHaveLength(1);
	});

	it('concurrent copies of many messages: each message once', async () => {
		const trigger = await activeRunner();
		const deliveries = Array.from({ length: 50 }, (_, index) =>
			Array.from({ length: 3 }, () => trigger.deliver({ body: incoming(100 + index) })),
		).flat();
		await Promise.all(deliveries);
		const ids = trigger.started().map((item) => item.wa_message_id);
		expect(ids).toHaveLength(50);
		expect(new Set(ids).size).toBe(50);
	});

	it('keys on wa_message_id: the same text in two messages starts twice', async () => {
		const trigger = await activeRunner();
		await trigger.deliver({ body: incoming(3, 'yes') });
		await trigger.deliver({ body: incoming(4, 'yes') });
		expect(trigger.executions).toHaveLength(2);
	});

	it('without wa_message_id: a customer who repeats themselves is not a duplicate (every "yes" starts, inside the Duplicate Window too)', async () => {
		// Behaviour changed on purpose (issue 34, point 11): text alone never identified one delivery.
		const trigger = await activeRunner('incomingMessage', { duplicateWindow: 60 });
		const body = { chat_id: '15550100007', user_message: 'yes', whatsapp_bot_id: 11 };
		await trigger.deliver({ body });
		const second = await trigger.deliver({ body });
		expect(second.started).toHaveLength(1);
		await trigger.deliver({ body: { ...body, chat_id: '15550100008' } });
		expect(trigger.started().map((item) => [item.phone_number, item.text])).toEqual([
			['15550100007', 'yes'],
			['15550100007', 'yes'],
			['15550100008', 'yes'],
		]);
		// With an id the second delivery of one message is still a duplicate.
		const withId = { ...body, wa_message_id: 'wamid.REPEAT-1' };
		expect((await trigger.deliver({ body: withId })).started).toHaveLength(1);
		expect(await trigger.deliver({ body: withId })).toEqual({
			status: 200,
			body: { received: true, started: false, duplicate: true },
		});
	});

	it('a status change is keyed on message and status: sent, delivered, read each start once', async () => {
		const trigger = await activeRunner('messageStatusChanged', {
			statuses: ['sent', 'delivered', 'read'],
		});
		const status = (message_status: string) => ({
			webhook_type: 'message_status_change',
			message_status,
			status_time: '2026-11-20 10:00:00',
			wa_message_id: 'wamid.S1',
			failed_reason: '',
		});
		for (const value of ['sent', 'sent', 'delivered', 'read', 'delivered', 'read'])
			await trigger.deliver({ body: status(value) });
		expect(trigger.started().map((item) => item.message_status)).toEqual([
			'sent',
			'delivered',
			'read',
		]);
	});

	it('a test delivery (Test URL, mode manual) is not remembered and does not block the production one', async () => {
		const trigger = await activeRunner();
		expect((await trigger.deliver({ body: incoming(5) }, 'manual')).started).toHaveLength(1);
		expect((await trigger.deliver({ body: incoming(5) }, 'manual')).started).toHaveLength(1);
		expect((await trigger.deliver({ body: incoming(5) })).started).toHaveLength(1);
		expect((await trigger.deliver({ body: incoming(5) })).started).toBeUndefined();
	});
});

describe('the memory', () => {
	it(`is bounded: ${MAX_KEYS} keys per workflow, the oldest dropped first; the static data stays small`, async () => {
		const trigger = await activeRunner();
		for (let index = 0; index < MAX_KEYS + 300; index++)
			await trigger.deliver({ body: incoming(10_000 + index) });
		expect(rememberedCount(trigger.workflowId)).toBe(MAX_KEYS);
		const saved = (trigger.saved.global as Record<string, string>)[STATIC_DATA_KEY];
		expect(saved.split(' ')).toHaveLength(MAX_KEYS);
		const bytes = Buffer.byteLength(JSON.stringify(trigger.saved));
		expect(bytes).toBeLessThan(40 * 1024);
		// No message content or phone number is stored, only hashes.
		expect(JSON.stringify(trigger.saved)).not.toMatch(/wamid|15550100007|message 1/);
		// The newest are remembered, the oldest forgotten.
		expect(
			(await trigger.deliver({ body: incoming(10_000 + MAX_KEYS + 299) })).started,
		).toBeUndefined();
		expect((await trigger.deliver({ body: incoming(10_000) })).started).toHaveLength(1);
	});

	it('is bounded in age: a message id is remembered for 24 hours', async () => {
		const trigger = await activeRunner();
		const now = Date.now();
		const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
		await trigger.deliver({ body: incoming(6) });
		clock.mockReturnValue(now + 23 * 3600_000);
		expect((await trigger.deliver({ body: incoming(6) })).started).toBeUndefined();
		clock.mockReturnValue(now + 24 * 3600_000 + 1000);
		expect((await trigger.deliver({ body: incoming(6) })).started).toHaveLength(1);
	});

	it('survives a restart of n8n: the keys come back from the saved static data', async () => {
		const trigger = await activeRunner();
		await trigger.deliver({ body: incoming(7) });
		let fresh: INodeType | undefined;
		jest.isolateModules(() => {
			// A new module instance: empty process memory, as after a restart.
			/* eslint-disable @typescript-eslint/no-require-imports */
			const module =
				require('../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node') as typeof import('../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node');
			/* eslint-enable @typescript-eslint/no-require-imports */
			fresh = new module.BotSailorWebhookTrigger();
		});
		await trigger.restart(fresh!);
		expect((await trigger.deliver({ body: incoming(7) })).started).toBeUndefined();
		expect((await trigger.deliver({ body: incoming(8) })).started).toHaveLength(1);
	});

	it('is released from the process on deactivation, saved for the next activation', async () => {
		const trigger = await activeRunner();
		await trigger.deliver({ body: incoming(9) });
		expect(rememberedCount(trigger.workflowId)).toBe(1);
		await trigger.deactivate();
		expect(rememberedCount(trigger.workflowId)).toBe(0);
		await trigger.activate();
		expect((await trigger.deliver({ body: incoming(9) })).started).toBeUndefined();
	});

	it('is per workflow: the same message in two workflows starts each once', async () => {
		const first = await activeRunner();
		const second = await activeRunner();
		await first.deliver({ body: incoming(11) });
		await second.deliver({ body: incoming(11) });
		expect([first.executions.length, second.executions.length]).toEqual([1, 1]);
	});
});
