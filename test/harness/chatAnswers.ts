/**
 * Send and Wait answered in the chat, in n8n's engine: the simulator, n8n's waiting URLs (waitingServer.ts), the
 * question's run (waiting.ts) and the BotSailor Webhook Trigger behind n8n's production URL, set up once for a test
 * file (test/node/sendAndWaitChat.test.ts, test/node/chatAnswerOnce.test.ts).
 */
import type { IDataObject } from 'n8n-workflow';
import { questionLinks, type ChatLink } from '../../nodes/shared/conversation/answerBinding';
import { BotSailorWebhookTrigger } from '../../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node';
import { startReceiver, type Receiver } from '../webhookTrigger/receiver';
import { WebhookRunner } from '../webhookTrigger/webhookHarness';
import type { TestCredentials } from './harness';
import { byPhone, NUMBER, numberById, numberFromList } from './params';
import { useSimulator } from './simulatorFixture';
import { WaitingRun } from './waiting';
import { WaitingServer } from './waitingServer';

/** Send and Wait in the chat, asked of the first seeded subscriber about an order. */
export const CHAT_QUESTION = {
	resource: 'message',
	operation: 'sendAndWait',
	phoneNumberId: numberFromList,
	phoneNumber: byPhone('+1 555 010 0000'),
	message: '=Approve order {{ $json.order }}?',
	answerIn: 'chat',
};
/** The answer links of a question as sent (its buttons' ids; a page question's text). */
export function linksOf(body: Record<string, unknown>): ChatLink[] {
	const buttons = JSON.parse(String(body.buttons ?? '[]')) as Array<{ id?: string }>;
	return questionLinks([
		...buttons.map((button) => String(button.id ?? '')),
		String(body.message ?? ''),
	]);
}

/** Approval Type: Approve and Disapprove. */
export const DOUBLE = { approvalOptions: { values: { approvalType: 'double' } } };

export function useChatAnswers() {
	const fx = useSimulator({ seed: { subscribersPerNumber: 5 } });
	const waiting = new WaitingServer();
	let receiver: Receiver;
	let runner: WebhookRunner;

	beforeAll(async () => {
		await waiting.start();
		receiver = await startReceiver(() => runner);
	});
	beforeEach(() => waiting.reset());
	afterAll(async () => {
		await receiver.close();
		await waiting.close();
	});

	const requestsTo = (path: string) => fx.sim.requests.filter((request) => request.path === path);
	return {
		fx,
		waiting,
		get receiver() {
			return receiver;
		},
		get runner() {
			return runner;
		},
		/** An active BotSailor Webhook Trigger (Incoming Message, taking answers) the simulator posts to. */
		async trigger(parameters: IDataObject = {}, credentials: TestCredentials = fx.credentials) {
			runner = new WebhookRunner({
				webhookType: new BotSailorWebhookTrigger(),
				credentials,
				parameters: {
					event: 'incomingMessage',
					phoneNumberId: numberById,
					sendAndWaitAnswers: 'take',
					...parameters,
				},
			});
			await runner.activate();
			fx.sim.state.webhooks.configure(NUMBER, { urls: { incoming_message: receiver.url } });
			receiver.received.splice(0);
		},
		/** The question's run, waiting; `baseUrl`: where its waiting URLs point (default: the waiting server). */
		async ask(
			parameters: IDataObject,
			{ baseUrl = waiting.base, typeVersion }: { baseUrl?: string; typeVersion?: number } = {},
		) {
			const run = new WaitingRun({
				parameters: { ...CHAT_QUESTION, ...parameters },
				credentials: fx.credentials,
				items: [{ order: 'A-1001' }],
				baseUrl,
				typeVersion,
			});
			await run.start();
			waiting.current = run;
			return run;
		},
		requestsTo,
		/** The bodies of the texts sent (the confirmations and late replies in the chat). */
		texts: () => requestsTo('/whatsapp/send').map((request) => request.body),
		/** Every webhook the simulator posted has been answered. */
		delivered: async () => await fx.sim.state.webhooks.idle(),
	};
}
