/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the node files' subtitle lines in plain Node.js */
/**
 * The canvas shows "Send Template: Message" and "New Subscriber", not internal values. Each node's
 * subtitle expression is evaluated here by n8n-workflow's own expression engine, as the editor does
 * (`workflow.expression.getSimpleParameterValue(node, subtitle, 'internal', {})`), for every
 * resource/operation and every event.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	NodeHelpers,
	Workflow,
	type INode,
	type INodeParameters,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypes,
} from 'n8n-workflow';
import { BotSailor } from '../nodes/BotSailor/BotSailor.node';
import { BotSailorTrigger } from '../nodes/BotSailorTrigger/BotSailorTrigger.node';
import { BotSailorWebhookTrigger } from '../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node';
import {
	displayNamesModule,
	optionSubtitle,
	resourceOperationSubtitle,
	withSubtitle,
} from '../scripts/subtitle';

const action = new BotSailor();
const trigger = new BotSailorTrigger();
const webhookTrigger = new BotSailorWebhookTrigger();

function nodeTypes(type: INodeType): INodeTypes {
	return {
		getByName: () => type,
		getByNameAndVersion: (_name, version) => NodeHelpers.getVersionedNodeType(type, version),
		getKnownTypes: () => ({}),
	};
}

/** What the editor shows under a node with these parameters. */
function subtitleOf(type: INodeType, parameters: INodeParameters): unknown {
	const node: INode = {
		id: 'n',
		name: 'Node',
		type: `n8n-nodes-botsailor.${type.description.name}`,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: nodeTypes(type),
	});
	return workflow.expression.getSimpleParameterValue(
		node,
		type.description.subtitle!,
		'internal',
		{},
	);
}

function optionsOf(type: INodeType, name: string, resource?: string): INodePropertyOptions[] {
	return type.description.properties
		.filter(
			(property) =>
				property.name === name &&
				(!resource || property.displayOptions?.show?.resource?.includes(resource)),
		)
		.flatMap((property) => (property.options ?? []) as INodePropertyOptions[]);
}

const FILES = [
	{
		file: join(__dirname, '..', 'nodes', 'BotSailor', 'BotSailor.node.ts'),
		expected: () => resourceOperationSubtitle(action.description.properties),
	},
	{
		file: join(__dirname, '..', 'nodes', 'BotSailorTrigger', 'BotSailorTrigger.node.ts'),
		expected: () => optionSubtitle(trigger.description.properties, 'event'),
	},
	{
		file: join(
			__dirname,
			'..',
			'nodes',
			'BotSailorWebhookTrigger',
			'BotSailorWebhookTrigger.node.ts',
		),
		expected: () => optionSubtitle(webhookTrigger.description.properties, 'event'),
	},
];
describe('canvas subtitles', () => {
	it('are the generated lookup expressions (`npm run generate` rewrites the node files after options change)', () => {
		for (const { file, expected } of FILES) {
			const source = readFileSync(file, 'utf8');
			expect(source).toBe(withSubtitle(source, expected()));
		}
		expect(action.description.subtitle).toBe(
			resourceOperationSubtitle(action.description.properties),
		);
		expect(trigger.description.subtitle).toBe(
			optionSubtitle(trigger.description.properties, 'event'),
		);
		expect(webhookTrigger.description.subtitle).toBe(
			optionSubtitle(webhookTrigger.description.properties, 'event'),
		);
	});

	it('nodes/shared/parameters/displayNames.ts, which error messages read, holds the same names (`npm run generate` rewrites it)', () => {
		const file = join(__dirname, '..', 'nodes', 'shared', 'parameters', 'displayNames.ts');
		expect(readFileSync(file, 'utf8')).toBe(displayNamesModule(action.description.properties));
	});

	const resources = optionsOf(action, 'resource');
	const pairs = resources.flatMap((resource) =>
		optionsOf(action, 'operation', String(resource.value)).map(
			(operation) => [resource, operation] as const,
		),
	);

	it('covers every resource and operation', () => {
		expect(resources.length).toBeGreaterThanOrEqual(20);
		expect(pairs.length).toBeGreaterThanOrEqual(60);
		for (const resource of resources)
			expect(pairs.some(([entry]) => entry === resource)).toBe(true);
	});

	it.each(
		pairs.map(([resource, operation]) => [
			`${operation.value}: ${resource.value}`,
			`${operation.name}: ${resource.name}`,
			resource.value,
			operation.value,
		]),
	)('BotSailor %s shows "%s"', (_internal, shown, resource, operation) => {
		expect(subtitleOf(action, { resource, operation })).toBe(shown);
	});

	it('shows "Send Text: Message" for a new node (Message → Send Text is the default)', () => {
		const resource = action.description.properties.find(
			(property) => property.name === 'resource',
		)!;
		expect(resource.default).toBe('message');
		const operation = action.description.properties.find(
			(property) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes('message'),
		)!;
		expect(subtitleOf(action, { resource: resource.default, operation: operation.default })).toBe(
			'Send Text: Message',
		);
	});

	it('shows the internal value rather than "undefined" for a value it does not know', () => {
		expect(subtitleOf(action, { resource: 'message', operation: 'somethingNew' })).toBe(
			'somethingNew: Message',
		);
	});

	it.each(optionsOf(trigger, 'event').map((event) => [event.value, event.name]))(
		'BotSailor Trigger on %s shows "%s"',
		(event, shown) => {
			expect(subtitleOf(trigger, { event })).toBe(shown);
		},
	);
});
