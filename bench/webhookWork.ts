/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the bench is a command-line script in plain Node.js, not node code */
/**
 * The Webhook Trigger's own work per incoming message, in-process, without n8n's server around it (issue 54 point 2):
 * the node's webhook() on n8n-core's own webhook context, as test/webhookTrigger/webhookHarness.ts drives it, the duplicate memory
 * full (MAX_KEYS keys, as on a busy account), Send and Wait Answers as a version 1 node leaves them (Start a Run), no
 * Secret. Prints the CPU time of webhook() per message, median of ROUNDS rounds of MESSAGES messages each; row 7
 * measures the whole path through a real n8n, where n8n's own work dominates.
 *
 *   npx tsx bench/webhookWork.ts [messages per round, default 2000] [rounds, default 5]
 */
import { MAX_KEYS } from '../nodes/shared/triggers/deliveryMemory';
import { WebhookRunner } from '../test/webhookTrigger/webhookHarness';
import { numberById } from '../test/harness/params';

// The explicit .ts: under tsx, `BotSailorWebhookTrigger.node` would resolve to the codex file (.node.json).
/* eslint-disable @typescript-eslint/no-require-imports */
const { BotSailorWebhookTrigger } =
	require('../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node.ts') as typeof import('../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node');
/* eslint-enable @typescript-eslint/no-require-imports */

/** An incoming text message as the platform posts it. */
const incoming = (index: number) => ({
	chat_id: '15550100007',
	user_message: `price ${index}`,
	subscriber_id: '15550100007-11',
	wa_message_id: `wamid.WORK${String(index).padStart(8, '0')}`,
	first_name: 'Ava',
	last_name: 'Smith',
	whatsapp_bot_id: 11,
	message_type: 'text',
});

async function main(): Promise<void> {
	const [messages = 2000, rounds = 5] = process.argv.slice(2).map(Number);
	const type = new BotSailorWebhookTrigger();
	const webhook = type.webhook;
	let cpu = 0;
	type.webhook = async function (this: ThisParameterType<typeof webhook>) {
		const before = process.cpuUsage();
		const answer = await webhook.call(this);
		const used = process.cpuUsage(before);
		cpu += (used.user + used.system) / 1000;
		return answer;
	};
	const runner = new WebhookRunner({
		webhookType: type,
		parameters: { event: 'incomingMessage', phoneNumberId: numberById },
		webhookPhaseSaved: false,
	});
	await runner.activate();
	let index = 0;
	// Fill the memory first: a busy account's steady state.
	while (index < MAX_KEYS + 200) await runner.deliver({ body: incoming(index++) });
	const perMessage: number[] = [];
	for (let round = 0; round < rounds; round++) {
		cpu = 0;
		for (let n = 0; n < messages; n++) await runner.deliver({ body: incoming(index++) });
		perMessage.push(cpu / messages);
	}
	perMessage.sort((a, b) => a - b);
	process.stdout.write(
		`webhook() CPU per message, memory full (${MAX_KEYS} keys): median ${perMessage[Math.floor(rounds / 2)].toFixed(3)} ms over ${rounds} rounds of ${messages} (${perMessage.map((value) => value.toFixed(3)).join(', ')})\n`,
	);
}

void main();
