/**
 * The layout: every operation of the action node is one file, `resources/<resource>/<operation>.ts`,
 * exporting its OperationDescription (its Operation option and its fields); the resource's index.ts
 * only assembles them (resources/resource.ts adds each field's resource/operation displayOptions).
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { BotSailor } from '../nodes/BotSailor/BotSailor.node';
import { resource, type OperationDescription } from '../nodes/BotSailor/resources/resource';

const { properties } = new BotSailor().description;
const resources = (properties.find((property) => property.name === 'resource')?.options ??
	[]) as INodePropertyOptions[];
const pairs = resources.flatMap(({ value }) => {
	const selector = properties.find(
		(property) =>
			property.name === 'operation' && property.displayOptions?.show?.resource?.includes(value),
	);
	return ((selector?.options ?? []) as INodePropertyOptions[]).map(
		(option) => [String(value), String(option.value)] as const,
	);
});

const isOperation = (value: unknown): value is OperationDescription =>
	typeof value === 'object' &&
	value !== null &&
	'option' in value &&
	'fields' in value &&
	Array.isArray((value as OperationDescription).fields);

describe('layout: one file per operation', () => {
	it.each(pairs)('%s → %s is described in resources/%s/%s.ts', async (resourceName, operation) => {
		const module = (await import(
			`../nodes/BotSailor/resources/${resourceName}/${operation}`
		)) as Record<string, unknown>;
		const described = Object.values(module).filter(isOperation);
		expect(described.map((entry) => entry.option.value)).toEqual([operation]);
		const [own] = described;
		// Its fields, scoped to it, are exactly the ones the node shows for this resource and operation (same order),
		// besides the tool variant's Description, which the assembler adds from toolDescriptionField.ts.
		const shown = properties.filter(
			(property) =>
				property.name !== 'operation' &&
				property.name !== 'toolDescription' &&
				property.displayOptions?.show?.resource?.includes(resourceName) &&
				property.displayOptions?.show?.operation?.includes(operation),
		);
		expect(shown.map((property) => property.name)).toEqual(own.fields.map((field) => field.name));
	});

	it('every field of the node belongs to one resource and one operation', () => {
		for (const property of properties.filter(
			(entry) => entry.name !== 'resource' && entry.name !== 'operation',
		)) {
			expect(property.displayOptions?.show?.resource).toHaveLength(1);
			expect(property.displayOptions?.show?.operation).toHaveLength(1);
		}
	});

	it('the assembler sorts the options by name, keeps a field’s own displayOptions, and refuses a field that scopes itself', () => {
		const field = (name: string, extra: Partial<INodeProperties> = {}): INodeProperties => ({
			displayName: name,
			name,
			type: 'string',
			default: '',
			...extra,
		});
		const op = (name: string, value: string, fields: INodeProperties[]): OperationDescription => ({
			kind: 'read',
			option: { name, value, action: name },
			fields,
		});
		const {
			properties: [selector, first, second],
		} = resource(
			'thing',
			[
				op('Update', 'update', [field('b', { displayOptions: { show: { mode: ['x'] } } })]),
				op('Get', 'get', [field('a')]),
			],
			{ default: 'get' },
		);
		expect((selector.options as INodePropertyOptions[]).map((option) => option.value)).toEqual([
			'get',
			'update',
		]);
		expect(first.displayOptions).toEqual({
			show: { resource: ['thing'], operation: ['update'], mode: ['x'] },
		});
		expect(second.displayOptions).toEqual({ show: { resource: ['thing'], operation: ['get'] } });
		expect(() =>
			resource(
				'thing',
				[op('Get', 'get', [field('a', { displayOptions: { show: { operation: ['get'] } } })])],
				{ default: 'get' },
			),
		).toThrow(/sets its own/);
		expect(() => resource('thing', [op('Get', 'get', [])], { default: 'create' })).toThrow(
			/no operation "create"/,
		);
	});
});
