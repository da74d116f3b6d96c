/**
 * What a saved workflow gets, per node version: for every resource and operation, the parameters the
 * node shows and their defaults (values equal to a default are not stored in a workflow, so a changed
 * default changes saved workflows). The snapshot fails any edit that changes them; such a change must be
 * a new node version (docs/versioning.md), and only that version's snapshot may change.
 */
import { NodeHelpers, type INode, type INodeParameters } from 'n8n-workflow';
import { BotSailor } from '../../nodes/BotSailor/BotSailor.node';
import { describedOperations } from '../reliability/checks';

const nodeType = new BotSailor();
const versions = nodeType.description.version as number[];

function shownWithDefaults(
	typeVersion: number,
	resource: string,
	operation: string,
): INodeParameters | null {
	const node: INode = {
		id: 'v',
		name: 'BotSailor',
		type: 'botSailor',
		typeVersion,
		position: [0, 0],
		parameters: { resource, operation },
	};
	return NodeHelpers.getNodeParameters(
		nodeType.description.properties,
		node.parameters,
		true,
		false,
		node,
		nodeType.description,
	);
}

describe('node versions', () => {
	it('has the versions docs/versioning.md lists, the newest as default', () => {
		expect(versions).toEqual([1, 1.1]);
		expect(nodeType.description.defaultVersion).toBe(1.1);
	});

	it.each(versions)('version %s: the parameters and defaults of every operation', (typeVersion) => {
		const operations = describedOperations();
		expect(operations.length).toBe(72); // 63 endpoints + Message → Download Media, Get Delivery Report, Send and Wait for Response, Get Transcript, Get Unanswered; Subscriber → Opt Out, Opt In, Hand Over to a Person, Get Window Status
		const shown = Object.fromEntries(
			operations.map(({ resource, operation }) => [
				`${resource}.${operation}`,
				shownWithDefaults(typeVersion, resource, operation),
			]),
		);
		expect(shown).toMatchSnapshot();
	});

	it('versions 1 and 1.1 differ only in Send Template', () => {
		const differing = describedOperations()
			.filter(
				({ resource, operation }) =>
					JSON.stringify(shownWithDefaults(1, resource, operation)) !==
					JSON.stringify(shownWithDefaults(1.1, resource, operation)),
			)
			.map(({ resource, operation }) => `${resource}.${operation}`);
		expect(differing).toEqual(['message.sendTemplate']);
	});
});
