/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the example workflows in plain Node.js */
/**
 * Every example is safe to test with the editor's default "Execute workflow" button: the trigger
 * the editor picks must not read real data (a Manual Trigger, or a trigger with pinned data), and
 * every phone number a test run can reach is a fictional one. The real editor's run is checked by
 * `npm run check:browser`; these checks keep the examples from drifting.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { messageItem } from '../nodes/shared/conversation/messageItem';
import { BotSailor } from '../nodes/BotSailor/BotSailor.node';
import { seedState } from './simulator/seed';
import { NUMBER } from './harness/params';

interface ExampleNode {
	name: string;
	type: string;
	disabled?: boolean;
	typeVersion?: number;
	parameters: IDataObject;
}

interface Example {
	file: string;
	nodes: ExampleNode[];
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
	pinData?: Record<string, Array<{ json: IDataObject }>>;
}

const DIR = join(__dirname, '..', 'examples');
const PACKAGE = 'n8n-nodes-botsailor';
const TRIGGER = `${PACKAGE}.botSailorTrigger`;
const MANUAL = 'n8n-nodes-base.manualTrigger';

const AI_EXAMPLES = ['ai-agent-tool.json', 'mcp-server.json'];

const examples: Example[] = readdirSync(DIR)
	// The AI examples start from a chat or an MCP client, never from the Execute button's test run (checked below).
	.filter((file) => file.endsWith('.json') && !AI_EXAMPLES.includes(file))
	.map((file) => ({
		file,
		...(JSON.parse(readFileSync(join(DIR, file), 'utf8')) as Omit<Example, 'file'>),
	}));

/**
 * The trigger n8n 2.41's editor runs when the user clicks "Execute workflow" without choosing one
 * (editor-ui, workflows store: form 10, webhook 9, schedule 7, manual 6, workflow 5, error 4, other
 * core nodes 0, any other trigger 8; the first enabled trigger with the highest rank). A community
 * trigger such as BotSailor Trigger therefore wins over a Manual Trigger.
 */
function defaultTrigger(example: Example): ExampleNode | undefined {
	const rank: Record<string, number> = {
		'n8n-nodes-base.formTrigger': 10,
		'n8n-nodes-base.webhook': 9,
		'n8n-nodes-base.scheduleTrigger': 7,
		[MANUAL]: 6,
		'n8n-nodes-base.workflowTrigger': 5,
		'n8n-nodes-base.errorTrigger': 4,
	};
	const triggers = example.nodes.filter(
		(node) =>
			!node.disabled && (node.type === MANUAL || node.type.toLowerCase().includes('trigger')),
	);
	return [...triggers].sort((a, b) => (rank[b.type] ?? 8) - (rank[a.type] ?? 8))[0];
}

/** The output a Set node in raw mode produces (the examples' sample branches). */
function setOutput(node: ExampleNode): IDataObject {
	return JSON.parse(String(node.parameters.jsonOutput)) as IDataObject;
}

/** Keys whose value is a subscriber's phone number (not the WhatsApp number's id). */
const SUBSCRIBER_KEY = /^(phone_number|chat_id|whatsapp_bot_subscriber_subscriber_id)$/;

/** Every subscriber phone number anywhere in a value (objects searched by key; JSON text decoded). */
function phoneNumbers(value: unknown, key = ''): string[] {
	if (typeof value === 'string') {
		if (value.trim().startsWith('{')) return phoneNumbers(JSON.parse(value) as unknown);
		return SUBSCRIBER_KEY.test(key) ? [value] : [];
	}
	if (Array.isArray(value)) return value.flatMap((entry) => phoneNumbers(entry, key));
	if (value && typeof value === 'object')
		return Object.entries(value).flatMap(([name, entry]) => phoneNumbers(entry, name));
	return [];
}

const FICTIONAL = /^1555010\d{4}$/; // +1 555 010 xxxx: the NANP range reserved for fiction

describe('examples: a test run with the default button sends nothing to a real customer', () => {
	it.each(examples.map((example) => [example.file, example]))(
		'%s: the default trigger is a Manual Trigger or pinned',
		(_file, example) => {
			const trigger = defaultTrigger(example);
			expect(trigger).toBeDefined();
			const pinned = example.pinData?.[trigger!.name];
			expect({
				trigger: trigger!.name,
				safe: trigger!.type === MANUAL || (Array.isArray(pinned) && pinned.length > 0),
			}).toEqual({ trigger: trigger!.name, safe: true });
		},
	);

	it('every BotSailor Trigger in an example is pinned, so no test run reads real data whichever trigger runs', () => {
		const triggers = examples.flatMap((example) =>
			example.nodes.filter((node) => node.type === TRIGGER).map((node) => ({ example, node })),
		);
		expect(triggers.map(({ example }) => example.file).sort()).toEqual([
			'catalog-orders.json',
			'keyword-routing.json',
			'welcome-new-subscriber.json',
		]);
		for (const { example, node } of triggers) {
			expect({
				file: example.file,
				pinned: (example.pinData?.[node.name]?.length ?? 0) > 0,
			}).toEqual({ file: example.file, pinned: true });
		}
	});

	it('the pinned trigger output and the Test With Sample Data branch carry the same samples', () => {
		for (const example of examples.filter((entry) =>
			entry.nodes.some((node) => node.type === TRIGGER),
		)) {
			const trigger = example.nodes.find((node) => node.type === TRIGGER)!;
			const pinned = example.pinData![trigger.name].map((item) => item.json);
			const manual = example.nodes.find((node) => node.type === MANUAL)!;
			const sample = example.nodes.find(
				(node) => node.name === example.connections[manual.name].main[0][0].node,
			)!;
			const output = setOutput(sample);
			const samples = Array.isArray(output.messages)
				? (output.messages as IDataObject[])
				: [output];
			expect({ file: example.file, samples }).toEqual({ file: example.file, samples: pinned });
		}
	});

	it('every subscriber phone number in the samples is a fictional +1 555 010 xxxx number', () => {
		let checked = 0;
		for (const example of examples) {
			const samples = [
				...Object.values(example.pinData ?? {}),
				...example.nodes
					.filter((node) => node.type === 'n8n-nodes-base.set')
					.map((node) => node.parameters.jsonOutput),
			];
			for (const number of phoneNumbers(samples)) {
				checked++;
				expect({ file: example.file, number, fictional: FICTIONAL.test(number) }).toEqual({
					file: example.file,
					number,
					fictional: true,
				});
			}
		}
		expect(checked).toBeGreaterThanOrEqual(10);
	});

	it('pinned New Message items have the fields the trigger emits (flat text included), so the Switch sees what a live run sees', () => {
		const example = examples.find((entry) => entry.file === 'keyword-routing.json')!;
		for (const { json } of example.pinData!['On New Message']) {
			const {
				subscriber_name: name,
				phone_number: chat,
				subscriber_id: id,
				phone_number_id: number,
				...message
			} = json;
			const [first, ...last] = String(name).split(' ');
			const emitted = messageItem(
				{ ...message, message_content: JSON.stringify(message.message_content) },
				{ chat_id: chat, first_name: first, last_name: last.join(' '), subscriber_id: id },
				String(number),
			);
			expect(json).toEqual(emitted);
		}
		const router = example.nodes.find((node) => node.name === 'Route by Keyword')!;
		expect(JSON.stringify(router.parameters)).toContain('$json.text');
	});

	it("the samples tell the demo's story: each sample person has the name the demo gives that number", () => {
		const seeded = new Map(
			seedState().subscribers.map((subscriber) => [subscriber.chat_id, subscriber]),
		);
		/** Objects naming a subscriber by number and name, anywhere in a value (JSON text decoded). */
		const people = (value: unknown): Array<{ number: string; name: string }> => {
			if (typeof value === 'string')
				return value.trim().startsWith('{') ? people(JSON.parse(value) as unknown) : [];
			if (Array.isArray(value)) return value.flatMap(people);
			if (!value || typeof value !== 'object') return [];
			const record = value as IDataObject;
			const number =
				record.phone_number ?? record.chat_id ?? record.whatsapp_bot_subscriber_subscriber_id;
			const name = record.subscriber_name ?? record.first_name ?? record.name;
			const own =
				typeof number === 'string' && typeof name === 'string' && FICTIONAL.test(number)
					? [{ number, name }]
					: [];
			return [...own, ...Object.values(record).flatMap(people)];
		};
		const found = examples.flatMap((example) =>
			people([
				...Object.values(example.pinData ?? {}),
				...example.nodes
					.filter((node) => node.type === 'n8n-nodes-base.set')
					.map((node) => node.parameters.jsonOutput),
			]).map((person) => ({ file: example.file, ...person })),
		);
		expect(found.length).toBeGreaterThanOrEqual(6);
		for (const person of found) {
			const subscriber = seeded.get(person.number);
			const demoName =
				subscriber &&
				(person.name.includes(' ')
					? `${subscriber.first_name} ${subscriber.last_name}`
					: subscriber.first_name);
			expect({ ...person, demoName }).toEqual({ ...person, demoName: person.name });
		}
	});
});

describe('examples/mcp-server.json: BotSailor tools for MCP clients', () => {
	const example = JSON.parse(readFileSync(join(DIR, 'mcp-server.json'), 'utf8')) as Omit<
		Example,
		'file'
	> & { connections: Record<string, { ai_tool?: Array<Array<{ node: string }>> }> };
	const trigger = example.nodes.find(
		(node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger',
	)!;
	const tools = example.nodes.filter((node) => node.type === `${PACKAGE}.botSailorTool`);

	it('the MCP Server Trigger asks for a Bearer token (its default, None, lets anyone with the URL send)', () => {
		expect(trigger.parameters.authentication).toBe('bearerAuth');
		expect((trigger as unknown as { credentials: object }).credentials).toHaveProperty(
			'httpBearerAuth',
		);
	});

	it('connects Send Text, a Send Template tool and Get Subscriber to the trigger, one WhatsApp number', () => {
		expect(
			tools.map((node) => `${node.parameters.resource}.${node.parameters.operation}`).sort(),
		).toEqual(['message.sendTemplate', 'message.sendText', 'subscriber.get']);
		for (const tool of tools) {
			expect(example.connections[tool.name].ai_tool?.[0][0].node).toBe(trigger.name);
			expect((tool.parameters.phoneNumberId as IDataObject).value).toBe(NUMBER);
		}
	});

	it('every value the model fills has a description with its format', () => {
		const fromAi = JSON.stringify(tools.map((tool) => tool.parameters)).match(
			/\$fromAI\('[^']+', '(?:[^'\\]|\\.)*'/g,
		);
		expect(fromAi?.length).toBeGreaterThanOrEqual(5);
		for (const call of fromAi ?? []) expect(call).not.toMatch(/, ''$/);
		expect(JSON.stringify(example)).toContain('digits only with the country code');
	});
});

describe('examples/ai-receptionist.json: reply guards and the fallback when the model fails', () => {
	const example = JSON.parse(readFileSync(join(DIR, 'ai-receptionist.json'), 'utf8')) as Omit<
		Example,
		'file'
	>;
	const node = (name: string) => example.nodes.find((entry) => entry.name === name)!;
	const next = (name: string, output = 0) =>
		(example.connections[name]?.main[output] ?? []).map((entry) => entry.node);

	it('both Send Text nodes (the tool and the fallback) carry both guards, answering the newest message', () => {
		for (const name of ['Send Text', 'Send Fallback Text']) {
			const { parameters } = node(name);
			expect({ name, operation: parameters.operation }).toEqual({ name, operation: 'sendText' });
			expect(parameters.additionalFields).toMatchObject({
				onlyIfUnanswered: true,
				skipIfPersonTookOver: true,
				takeoverIncludesAssignment: true,
				answersMessageId: expect.stringContaining('wa_message_id'),
			});
		}
		expect(node('Send Text').parameters.additionalFields).toMatchObject({
			answersMessageId: "={{ $('Get Unanswered').first().json.newest_wa_message_id }}",
		});
	});

	it('a failing model (its error output) and an agent run that sent nothing both lead to the fallback, then Hand Over', () => {
		expect((node('AI Agent') as unknown as { onError: string }).onError).toBe(
			'continueErrorOutput',
		);
		expect(next('AI Agent', 1)).toEqual(['Why No Answer']);
		expect(next('AI Agent', 0)).toEqual(['Check the Reply']);
		expect(node('Check the Reply').parameters.operation).toBe('getUnanswered');
		expect(next('Check the Reply')).toEqual(['No Reply Sent?']);
		expect(next('No Reply Sent?', 0)).toEqual(['Why No Answer']);
		expect(next('No Reply Sent?', 1)).toEqual([]);
		expect(next('Why No Answer')).toEqual(['Send Fallback Text']);
		expect(String(node('Send Fallback Text').parameters.message).length).toBeGreaterThan(10);
		expect(next('Send Fallback Text')).toEqual(['Fallback Sent?']);
		expect(next('Fallback Sent?', 0)).toEqual(['Hand Over (No AI Answer)']);
		const handOver = node('Hand Over (No AI Answer)').parameters;
		expect(handOver.operation).toBe('handOver');
		expect(handOver.reason).toBe("={{ $('Why No Answer').first().json.reason }}");
	});
});

describe('examples/ai-draft-approval.json: the AI drafts, the manager approves, edits or declines', () => {
	const example = JSON.parse(readFileSync(join(DIR, 'ai-draft-approval.json'), 'utf8')) as Omit<
		Example,
		'file'
	>;
	const node = (name: string) => example.nodes.find((entry) => entry.name === name)!;
	const next = (name: string, output = 0) =>
		(example.connections[name]?.main[output] ?? []).map((entry) => entry.node);
	const trigger = node('On Customer Message');
	const ask = node('Ask the Manager').parameters;

	it('the trigger takes the manager’s taps and corrected text (no run), and the manager’s own messages start no draft', () => {
		expect({ type: trigger.type, ...trigger.parameters }).toMatchObject({
			type: `${PACKAGE}.botSailorWebhookTrigger`,
			event: 'incomingMessage',
			sendAndWaitAnswers: 'take',
		});
		expect(next('On Customer Message')).toEqual(['From a Customer?']);
		expect(next('From a Customer?')).toEqual(['Draft a Reply']);
		expect(next('From a Customer?', 1)).toEqual([]);
		const manager = String((ask.phoneNumber as IDataObject).value).replace(/\D/g, '');
		expect(JSON.stringify(node('From a Customer?').parameters)).toContain(`"${manager}"`);
		expect(FICTIONAL.test(manager)).toBe(true);
	});

	it('asks in the WhatsApp chat with Approve, Edit or Decline, the agent’s output as the draft, a limit on the wait', () => {
		expect(ask).toMatchObject({
			operation: 'sendAndWait',
			answerIn: 'chat',
			approvalOptions: { values: { approvalType: 'edit' } },
			draftText: '={{ $json.output }}',
			options: { limitWaitTime: { values: { limitType: 'afterTimeInterval' } } },
		});
		expect(next('Draft a Reply')).toEqual(['Ask the Manager']);
		expect(next('Ask the Manager')).toEqual(['Approved?']);
	});

	it('approved or edited: the customer receives exactly data.text, with every reply guard on, answering the message that started the run', () => {
		expect(next('Approved?', 0)).toEqual(['Send the Reply']);
		const { parameters } = node('Send the Reply');
		expect(parameters).toMatchObject({
			operation: 'sendText',
			message: '={{ $json.data.text }}',
			skipOptedOut: true,
			additionalFields: {
				answersMessageId: "={{ $('On Customer Message').first().json.wa_message_id }}",
				onlyIfUnanswered: true,
				skipIfPersonTookOver: true,
				takeoverIncludesAssignment: true,
			},
		});
	});

	it('declined, unanswered in time or no draft (the agent’s error output): Hand Over to a Person with a reason', () => {
		expect(next('Approved?', 1)).toEqual(['Hand Over to a Person']);
		expect((node('Draft a Reply') as unknown as { onError: string }).onError).toBe(
			'continueErrorOutput',
		);
		expect(next('Draft a Reply', 1)).toEqual(['Hand Over to a Person']);
		expect(node('Hand Over to a Person').parameters).toMatchObject({
			resource: 'subscriber',
			operation: 'handOver',
			reason: expect.stringContaining('declined'),
		});
	});
});

describe('examples: Send and Wait at the node version a new node gets', () => {
	// Node version 1.2 changed what a chat question shows (issue 53): an example at 1.1 would ship the old question.
	const { defaultVersion } = new BotSailor().description;
	it.each(
		examples.flatMap((example) =>
			example.nodes
				.filter(
					(node) =>
						node.type === `${PACKAGE}.botSailor` && node.parameters.operation === 'sendAndWait',
				)
				.map((node) => [example.file, node.name, node.typeVersion] as const),
		),
	)('%s: %s', (_file, _name, typeVersion) => {
		expect(typeVersion).toBe(defaultVersion);
	});
});
