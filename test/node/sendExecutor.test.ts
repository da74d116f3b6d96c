import type { INodePropertyOptions } from 'n8n-workflow';
import { sendTextNode } from '../../bench/sendTextNode';
import { BotSailor } from '../../nodes/BotSailor/BotSailor.node';
import { SEND_OPERATIONS } from '../../nodes/BotSailor/shared/sendExecutor';
import { runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';

const fx = useSimulator({ seed: { subscribersPerNumber: 5 } });
const NUMBER = '104382179270221';
const number = { __rl: true, mode: 'list', value: NUMBER };
const sendText = { resource: 'message', operation: 'sendText', phoneNumberId: number, phoneNumber: '={{ $json.phone }}', message: '={{ $json.text }}' };
const items = (phones: string[]) => phones.map((phone, index) => ({ json: { phone, text: `Hello ${index}` } }));

describe('send executor (customOperations of the send operations)', () => {
	it('is registered for exactly the send operations, each keeping its declarative routing', () => {
		const node = new BotSailor();
		const registered = Object.entries(node.customOperations ?? {}).flatMap(([resource, operations]) => Object.keys(operations).map((operation) => `${resource}.${operation}`));
		expect(registered).toEqual(Object.entries(SEND_OPERATIONS).flatMap(([resource, operations]) => operations.map((operation) => `${resource}.${operation}`)));
		for (const [resource, operations] of Object.entries(SEND_OPERATIONS)) {
			const property = node.description.properties.find((entry) => entry.name === 'operation' && entry.displayOptions?.show?.resource?.includes(resource))!;
			for (const operation of operations) {
				const option = (property.options as INodePropertyOptions[]).find((entry) => entry.value === operation)!;
				expect(option.routing?.request?.url).toMatch(/^\/whatsapp\//);
				expect(option.routing?.send?.preSend?.length).toBeGreaterThan(0);
			}
		}
	});

	it('refuses a bad item before sending anything (no Continue On Fail)', async () => {
		const { error } = await runNode({ parameters: sendText, credentials: fx.credentials, items: items(['15550100000', '+1 555 CALL', '15550100001']) });
		expect(error?.message).toMatch(/^Phone Number /);
		expect(fx.sim.requests).toHaveLength(0);
	});

	it('under Continue On Fail outputs an error item for a bad item, paired to it, and sends the others', async () => {
		const { items: output, error } = await runNode({ parameters: sendText, credentials: fx.credentials, items: items(['15550100000', '+1 555 CALL', '15550100001']), continueOnFail: true });
		expect(error).toBeUndefined();
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[1].json).toEqual({ error: expect.stringMatching(/^Phone Number /) });
		expect(output[1].error?.name).toBe('NodeOperationError');
		expect(output[0].json).toMatchObject({ success: true });
		expect(fx.sim.requests.map((request) => request.body.phone_number)).toEqual(['15550100000', '15550100001']);
	});

	it('names the operation in an API error and points at the failed item', async () => {
		fx.sim.faults.add('/whatsapp/send', { kind: 'status0', message: 'Subscriber has opted out.', times: 1 });
		const { error } = await runNode({ parameters: sendText, credentials: fx.credentials, items: items(['15550100000']) });
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('Subscriber has opted out.');
		expect(error?.description).toMatch(/^BotSailor Message → Send Text failed\./);
		expect((error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(0);
	});

	it('uses the run\'s one decrypted credential for the upload step of Send Media too', async () => {
		const bytes = Buffer.from('fake png');
		const file = { data: { data: bytes, mimeType: 'image/png', fileName: 'a.png' } };
		const { items: output, error, credentialLoads } = await runNode({
			parameters: { resource: 'message', operation: 'sendMedia', phoneNumberId: number, phoneNumber: '={{ $json.phone }}', source: 'binary', binaryPropertyName: 'data' },
			credentials: fx.credentials,
			items: [{ json: { phone: '15550100000' }, binary: file }, { json: { phone: '15550100001' }, binary: file }],
		});
		expect(error).toBeUndefined();
		expect(output).toHaveLength(2);
		expect(fx.sim.requests.map((request) => request.path).sort()).toEqual(['/whatsapp/send/file', '/whatsapp/send/file', '/whatsapp/upload/media', '/whatsapp/upload/media']);
		expect(credentialLoads).toBe(1);
	});

	it('honours Options → Batching (a pause between batches)', async () => {
		const started = Date.now();
		const { items: output, error } = await runNode({
			// The node as n8n loads it: with the Options (Request Options) n8n adds to declarative nodes.
			nodeType: sendTextNode({}),
			parameters: { ...sendText, requestOptions: { batching: { batch: { batchSize: 2, batchInterval: 150 } } } },
			credentials: fx.credentials, items: items(['15550100000', '15550100001', '15550100002', '15550100003', '15550100004']),
		});
		expect(error).toBeUndefined();
		expect(output).toHaveLength(5);
		expect(Date.now() - started).toBeGreaterThanOrEqual(300);
	});
});
