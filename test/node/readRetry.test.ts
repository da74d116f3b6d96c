/**
 * Reads repeat what is safe to repeat, in one place (transport.ts: READ_PATHS, retryRead) used by every read:
 * declarative operations (operationRequest), paginated lists (pagination.ts), dropdowns and multi-step operations
 * (botSailorRequest). Writes and sends go out once: a send keeps its at-most-once policy (delivery.ts).
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { BotSailor } from '../../nodes/BotSailor/BotSailor.node';
import { RESOURCES } from '../../nodes/BotSailor/resources';
import { READ_PATHS } from '../../nodes/shared/http/readPaths';
import { isReadPath } from '../../nodes/shared/http/transport';
import { callMethod, runNode } from '../harness/harness';
import { useSimulator } from '../harness/simulatorFixture';
import type { Fault } from '../simulator/faults';
import { byPhone, NUMBER, numberById, PHONE } from '../harness/params';

const fx = useSimulator();
const requestsTo = (path: string) =>
	fx.sim.requests.filter((request) => request.path === path).length;

/** Every operation of the node with the endpoint its routing names (operations without one make several calls). */
function operations(): Array<{ resource: string; operation: string; url: string }> {
	const { properties } = new BotSailor().description;
	return properties
		.filter((property: INodeProperties) => property.name === 'operation')
		.flatMap((property) =>
			((property.options ?? []) as INodePropertyOptions[]).map((option) => ({
				resource: String(property.displayOptions?.show?.resource?.[0]),
				operation: String(option.value),
				url: String(option.routing?.request?.url ?? ''),
			})),
		)
		.filter((entry) => entry.url !== '');
}

describe('which requests are reads', () => {
	it('every read endpoint is one the node calls, and is read by Get, Get Many, Get Status, Get Me, Get Usage Log, Download Media, Get Transcript, Get Unanswered, Get Window Status or Get Delivery Report', () => {
		const byUrl = new Map<string, string[]>();
		for (const entry of operations()) {
			const url = entry.url.replace(/^=/, '');
			byUrl.set(url, [...(byUrl.get(url) ?? []), entry.operation]);
		}
		for (const [url, names] of byUrl) {
			if (!isReadPath(url)) continue;
			expect({
				url,
				names: names.filter(
					(name) =>
						!/^(get|getMany|getStatus|getMe|getUsageLog|downloadMedia|getTranscript|getUnanswered|getWindowStatus|getDeliveryReport)$/.test(
							name,
						),
				),
			}).toEqual({ url, names: [] });
		}
		// Every read endpoint is one the node calls (a routing's url, or its earlier form's), so the loop above saw them all.
		const earlierUrls = new Set(
			RESOURCES.flatMap((resource) => resource.operations.map((operation) => operation.earlierUrl)),
		);
		expect([...READ_PATHS].filter((path) => !byUrl.has(path) && !earlierUrls.has(path))).toEqual(
			[],
		);
	});

	it('no send and no write is a read', () => {
		const writes = operations().filter(
			(entry) => !/^get/.test(entry.operation) && entry.operation !== 'downloadMedia',
		);
		expect(writes.length).toBeGreaterThan(30);
		expect(writes.filter((entry) => isReadPath(entry.url))).toEqual([]);
		for (const url of [
			'/whatsapp/send',
			'/whatsapp/send/template',
			'/whatsapp/upload/media',
			'/user/addon/assign/credits',
			'/user/get/direct-login-url',
			'/ai/get_response',
		]) {
			expect({ url, read: isReadPath(url) }).toEqual({ url, read: false });
		}
	});

	it('reads the path from relative and absolute URLs alike', () => {
		expect(
			[
				'/whatsapp/subscriber/list',
				'/whatsapp/subscriber/list/',
				'https://wa.example.com/api/v1/whatsapp/subscriber/list?x=1',
				'/api/v1/label/list',
			].map(isReadPath),
		).toEqual([true, true, true, true]);
		expect(
			[
				'/whatsapp/subscriber/list/extra',
				'https://wa.example.com/api/v2/label/list',
				undefined,
				'',
			].map(isReadPath),
		).toEqual([false, false, false, false]);
	});
});

describe('reads retry 429, 502, 503, 504 and dropped connections', () => {
	const oneFault = (path: string, fault: Fault) =>
		fx.sim.faults.add(path, {
			retryAfterSeconds: fault.kind === 'rate429' ? 0 : undefined,
			...fault,
			times: 1,
		});

	it.each<[string, Fault]>([
		['429', { kind: 'rate429' }],
		['502', { kind: 'processThen502' }],
		['503', { kind: 'unavailable503' }],
		['504', { kind: 'processThen504' }],
		['a dropped connection', { kind: 'drop' }],
	])('a declarative read (Label → Get Many) after %s', async (_name, fault) => {
		oneFault('/label/list', fault);
		const { items, error } = await runNode({
			credentials: fx.credentials,
			parameters: { resource: 'label', operation: 'getMany' } as never,
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.label_name)).toEqual(
			expect.arrayContaining(['VIP', 'New lead']),
		);
		expect(requestsTo('/label/list')).toBe(2);
	});

	it('a paginated list (Subscriber → Get Many, Return All) repeats only the page that failed', async () => {
		fx.sim.faults.add('/whatsapp/subscriber/list', { kind: 'rate429', everyNth: 2, times: 1 }); // the second page, once
		const { items, error } = await runNode({
			credentials: fx.credentials,
			parameters: {
				resource: 'subscriber',
				operation: 'getMany',
				phoneNumberId: numberById,
				returnAll: true,
			} as never,
		});
		expect(error).toBeUndefined();
		expect(items.length).toBe(fx.sim.state.subscribersOf(NUMBER).length);
		const offsets = fx.sim.requests
			.filter((request) => request.path === '/whatsapp/subscriber/list')
			.map((request) => request.body.offset);
		expect(offsets.slice(0, 3)).toEqual(['1', '2', '2']);
	});

	it('a dropdown (labels) after a 503', async () => {
		oneFault('/label/list', { kind: 'unavailable503' });
		expect(
			await callMethod('loadOptions', 'getLabels', {
				credentials: fx.credentials,
				parameters: { phoneNumberId: numberById },
			}),
		).toHaveLength(4);
		expect(requestsTo('/label/list')).toBe(2);
	});

	it('a write is not repeated: Label → Create after a 502 fails once, the label made once', async () => {
		oneFault('/label/create', { kind: 'processThen502' });
		const { error } = await runNode({
			credentials: fx.credentials,
			parameters: { resource: 'label', operation: 'create', labelName: 'Once only' } as never,
		});
		expect(error?.name).toBe('NodeApiError');
		expect(requestsTo('/label/create')).toBe(1);
		expect(fx.sim.state.labels.filter((label) => label.label_name === 'Once only')).toHaveLength(1);
	});

	it('a send is not repeated after a 502: it may have been delivered', async () => {
		oneFault('/whatsapp/send', { kind: 'processThen502' });
		const { error } = await runNode({
			credentials: fx.credentials,
			parameters: {
				resource: 'message',
				operation: 'sendText',
				phoneNumberId: numberById,
				phoneNumber: byPhone(PHONE),
				message: 'Hi',
			} as never,
		});
		expect(error?.message).toMatch(/^The message may have been delivered/);
		expect(requestsTo('/whatsapp/send')).toBe(1);
	});
});
