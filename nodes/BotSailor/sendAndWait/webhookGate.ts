import type { INodeType } from 'n8n-workflow';

/**
 * Whether the action node exposes its `webhook` (the answers to Send and Wait, webhook.ts): only where n8n can use it safely.
 * n8n's own WhatsApp node simply sets `webhook = sendAndWaitWebhook`; this node cannot on every n8n it supports,
 * because it also has `methods` (list search, load options). docs/send-and-wait.md → "The webhook on older n8n".
 *
 * What decides it, in n8n's code (each checked per version by test/e2e/webhookGate.e2e.test.ts):
 * - n8n/dist/node-types.js gives a declarative node an `execute` that runs RoutingNode when
 *   n8n/dist/utils.js `shouldAssignExecuteMethod` says so. From n8n 1.109 (checked: 1.123.81, 2.41.1) it does for a
 *   declarative node with `webhook` and `methods`: then the webhook is always exposed, as in n8n's WhatsApp node.
 * - Before 1.109 (checked: 1.85.4, the supported floor) it does not (`!nodeType.methods`). Without `execute`,
 *   n8n-core workflow-execute.js `runNode` treats a node with `webhook` as a trigger: it leaves `$json` empty in every
 *   routing operation and drops the declarative Options. So there the webhook is exposed only while n8n answers a
 *   waiting execution's link: n8n/dist/webhooks/webhook.service.js `runWebhook` reads `nodeType.webhook`, and this
 *   getter recognises that caller by the call stack, the only sign n8n gives it. Remove this branch when the floor
 *   reaches 1.109.
 * Imports nothing at run time: the load file carries this function too (scripts/load-file.mjs), so that n8n can read
 * `webhook` when it loads the node without loading the rest of the package.
 */
export function exposesSendAndWaitWebhook(node: INodeType): boolean {
	return typeof node.execute === 'function' || /\brunWebhook\b/.test(new Error().stack ?? '');
}
