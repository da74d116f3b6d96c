/* eslint-disable @n8n/community-nodes/no-restricted-imports -- reads the installed n8n's code from plain Node.js, not node code */
/**
 * The code paths of the installed n8n (N8N_VERSION, provisioned: this file fails when it cannot be) that decide how
 * the action node exposes its Send and Wait webhook (nodes/BotSailor/sendAndWait/webhookGate.ts). When n8n
 * changes one of them, this file fails and names it, before a user's workflow does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeType } from 'n8n-workflow';
import { BotSailor } from '../../nodes/BotSailor/BotSailor.node';
import { sendAndWaitWebhook } from '../../nodes/BotSailor/sendAndWait';
import { provision, versionAtLeast } from './n8n';

const { n8nBin, n8nVersion } = provision();
const modules = join(n8nBin, '..');
const read = (file: string) => readFileSync(join(modules, file), 'utf8');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the installed n8n's own function, as its loader calls it
const { shouldAssignExecuteMethod } = require(join(modules, 'n8n', 'dist', 'utils.js')) as {
	shouldAssignExecuteMethod: (nodeType: INodeType) => boolean;
};
/** From this n8n on, the loader gives a declarative node with `webhook` and `methods` its `execute`. */
const EXECUTE_GIVEN_FROM = '1.109.0';
const executeGiven = versionAtLeast(n8nVersion, EXECUTE_GIVEN_FROM);

describe(`n8n ${n8nVersion}: the action node's Send and Wait webhook`, () => {
	it('the loader (n8n/dist/node-types.js) gives a node an execute that runs RoutingNode when shouldAssignExecuteMethod says so', () => {
		expect(read('n8n/dist/node-types.js')).toMatch(
			/shouldAssignExecuteMethod\)\(versionedNodeType\)\)\s*\{\s*versionedNodeType\.execute = async function \(\) \{\s*const routingNode = new n8n_core_1\.RoutingNode/,
		);
	});

	it(`n8n gives this node an execute from ${EXECUTE_GIVEN_FROM} on, not before`, () => {
		expect({ n8nVersion, executeGiven: shouldAssignExecuteMethod(new BotSailor()) }).toEqual({
			n8nVersion,
			executeGiven,
		});
	});

	if (executeGiven)
		it('with the execute n8n gives it, the node exposes its webhook always (as n8n’s WhatsApp node does)', () => {
			const node = new BotSailor() as INodeType;
			node.execute = async () => [];
			expect(node.webhook).toBe(sendAndWaitWebhook);
		});
	else
		it('without execute: runNode treats a node with webhook as a trigger, so the node hides it except inside WebhookService.runWebhook', async () => {
			// Why it must be hidden: a node with `webhook` gets no input items ($json empty in every routing operation).
			expect(read('n8n-core/dist/execution-engine/workflow-execute.js')).toMatch(
				/\(!nodeType\.poll && !nodeType\.trigger && !nodeType\.webhook\)/,
			);
			// Where it is read when a waiting execution's link is answered: a method named runWebhook.
			expect(read('n8n/dist/webhooks/webhook.service.js')).toMatch(
				/async runWebhook\([^)]*\) \{[^}]*nodeType\.webhook === undefined/,
			);
			const node = new BotSailor() as INodeType;
			expect(node.webhook).toBeUndefined();
			const service = {
				async runWebhook() {
					return node.webhook;
				},
			};
			expect(await service.runWebhook()).toBe(sendAndWaitWebhook);
		});
});
