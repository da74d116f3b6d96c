import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodePropertyRouting,
	INodeType,
	INodeTypeDescription,
	PreSendAction,
} from 'n8n-workflow';
import { NodeApiError, NodeHelpers, NodeOperationError, sleep } from 'n8n-workflow';
import { backoffDelay, DELIVERY_DEFAULTS, isRetryable, limiterFor, type DeliveryOptions } from './delivery';
import { apiError, payloadRecords, readResponse } from './envelope';
import { decodeJsonFields } from './jsonStrings';
import { unwrap } from './output';
import { CREDENTIAL_TYPE, reportedFailure } from './request';

/**
 * The send operations run here instead of in n8n's RoutingNode (as `customOperations`), because
 * RoutingNode costs several milliseconds of CPU per item: it evaluates each expression about four
 * times and loads the credential from the database for every item. This executor reads the same
 * declarative description (each field's `routing.send`, the operation's `request` and `preSend`),
 * evaluates each parameter once per item, decrypts the credential once per run, and sends with
 * bounded concurrency per account and retries on 429/502/503/504 only (see delivery.ts).
 * Bad input fails before any request is sent.
 */

/** The operations sent by this executor: resource → operations. */
export const SEND_OPERATIONS: Record<string, string[]> = {
	message: ['sendText', 'sendTemplate', 'sendButtons', 'sendMedia'],
	template: ['sendBroadcast'],
	botFlow: ['trigger'],
};

/**
 * The routing of a send operation, as a plain declarative operation: it documents the request and
 * is what RoutingNode would run without the executor (same request, same output).
 */
export function sendRouting(url: string, preSend: PreSendAction[]): INodePropertyRouting {
	return { request: { url }, send: { preSend }, output: { postReceive: [unwrap('confirmation')] } };
}

/** A form field and the parameter path it is read from. */
interface Field {
	path: string;
	property: string;
	in: 'body' | 'qs';
	extractValue: boolean;
}

/** What the description says to send for the node's parameters (the same for every item of a run). */
interface Plan {
	request: IHttpRequestOptions;
	fields: Field[];
	preSend: PreSendAction[];
}

function unsupported(node: INode, path: string, what: string): never {
	throw new NodeOperationError(node, `The send executor does not support ${what} (parameter "${path}")`);
}

/** Collects the routing of one visible property (and of its chosen option or collection entries), as RoutingNode does. */
function collect(plan: Plan, node: INode, description: INodeTypeDescription, property: INodeProperties | INodePropertyOptions, base: string): void {
	const parameters = node.parameters;
	if (!NodeHelpers.displayParameter(parameters, property, node, description, parameters)) return;
	const path = `${base}${property.name}`;
	const routing = property.routing;
	if (routing) {
		if (routing.request) {
			if (Object.values(routing.request).some((value) => typeof value === 'string' && value.startsWith('='))) unsupported(node, path, 'expressions in routing.request');
			Object.assign(plan.request, routing.request);
		}
		const send = routing.send;
		if (send?.property !== undefined && 'type' in property) {
			if (send.value !== undefined) unsupported(node, path, 'routing.send.value');
			if (send.property.startsWith('=')) unsupported(node, path, 'an expression as routing.send.property');
			const extractValue = property.extractValue !== undefined || property.type === 'resourceLocator';
			plan.fields.push({ path, property: send.property, in: send.type === 'query' ? 'qs' : 'body', extractValue });
		}
		if (send?.preSend) plan.preSend.push(...send.preSend);
	}
	if (!('type' in property) || !property.options) return;
	const value = NodeHelpers.getParameterValueByPath(parameters, property.name, base.slice(0, -1));
	if (property.type === 'options') {
		const chosen = (property.options as INodePropertyOptions[]).find((option) => option.value === value);
		if (chosen) collect(plan, node, description, chosen, `${path}.`);
	} else if (property.type === 'collection' && value && typeof value === 'object') {
		for (const option of property.options as INodeProperties[]) {
			if (option.name in value && option.type !== undefined) collect(plan, node, description, option, `${path}.`);
		}
	} else if (property.type === 'fixedCollection') {
		for (const group of property.options as INodePropertyCollection[]) {
			const entries = NodeHelpers.getParameterValueByPath(parameters, group.name, path);
			if (entries === undefined) continue;
			const count = Array.isArray(entries) ? entries.length : 1;
			for (let index = 0; index < count; index++) {
				const entryPath = property.typeOptions?.multipleValues ? `${path}.${group.name}[${index}].` : `${path}.${group.name}.`;
				for (const entry of group.values) collect(plan, node, description, entry, entryPath);
			}
		}
	}
}

/** The request template, fields and preSends of the node's current operation. */
function planFor(node: INode, description: INodeTypeDescription): Plan {
	const defaults = description.requestDefaults ?? {};
	const plan: Plan = { request: { ...defaults, url: '', headers: { ...(defaults.headers ?? {}) } } as IHttpRequestOptions, fields: [], preSend: [] };
	// An operation's request headers add to the defaults' (a merge, as RoutingNode does).
	const headers = plan.request.headers;
	for (const property of description.properties) collect(plan, node, description, property, '');
	plan.request.headers = { ...headers, ...(plan.request.headers ?? {}) };
	if (!plan.request.url) throw new NodeOperationError(node, 'The operation has no request URL in its routing');
	return plan;
}

/** The node's Options (n8n adds them to declarative nodes): timeout, proxy, certificates, batching. */
interface RequestOptionsParameter {
	timeout?: number;
	proxy?: string;
	allowUnauthorizedCerts?: boolean;
	batching?: { batch?: { batchSize?: number; batchInterval?: number } };
}

function applyRequestOptions(node: INode, request: IHttpRequestOptions, options: RequestOptionsParameter): void {
	request.timeout = options.timeout || 300_000;
	if (options.allowUnauthorizedCerts) request.skipSslCertificateValidation = true;
	if (options.proxy) {
		let proxy: URL;
		try {
			proxy = new URL(options.proxy.includes('://') ? options.proxy : `http://${options.proxy}`);
		} catch {
			throw new NodeOperationError(node, 'The proxy is not valid', { description: 'Set Options → Proxy to a URL such as http://proxy.example.com:8080.' });
		}
		request.proxy = {
			host: proxy.hostname,
			port: Number(proxy.port) || (proxy.protocol === 'https:' ? 443 : 80),
			protocol: proxy.protocol.replace(/:$/, ''),
			...(proxy.username ? { auth: { username: decodeURIComponent(proxy.username), password: decodeURIComponent(proxy.password) } } : {}),
		};
	}
}

type ParameterOptions = { extractValue?: boolean };

/**
 * The per-item view of the execute context that preSends expect (IExecuteSingleFunctions). Parameter
 * reads are remembered, so a parameter the body and a preSend both read is evaluated once.
 */
function itemContext(context: IExecuteFunctions, itemIndex: number, item: INodeExecutionData, credentials: ICredentialsDecrypted): IExecuteSingleFunctions & { read(path: string, options?: ParameterOptions): unknown } {
	const cache = new Map<string, unknown>();
	const read = (name: string, fallback?: unknown, options?: ParameterOptions) => {
		const key = `${name}\u0000${options?.extractValue === true}\u0000${fallback === undefined ? '' : JSON.stringify(fallback)}`;
		if (cache.has(key)) return cache.get(key);
		const value = context.getNodeParameter(name, itemIndex, fallback, options);
		cache.set(key, value);
		return value;
	};
	const helpers = Object.create(context.helpers, {
		httpRequestWithAuthentication: {
			value: async (type: string, options: IHttpRequestOptions, extra?: object) =>
				await context.helpers.httpRequestWithAuthentication.call(context, type, options, extra ?? (type === CREDENTIAL_TYPE ? { credentialsDecrypted: credentials } : undefined)),
		},
		getBinaryDataBuffer: { value: async (propertyName: string) => await context.helpers.getBinaryDataBuffer(itemIndex, propertyName) },
		assertBinaryData: { value: (propertyName: string) => context.helpers.assertBinaryData(itemIndex, propertyName) },
	});
	return Object.create(context, {
		getItemIndex: { value: () => itemIndex },
		getInputData: { value: () => item },
		getNodeParameter: { value: read },
		getCredentials: { value: async (type: string) => (type === CREDENTIAL_TYPE ? credentials.data : await context.getCredentials(type, itemIndex)) },
		helpers: { value: helpers },
		read: { value: (path: string, options?: ParameterOptions) => read(path, undefined, options) },
	}) as IExecuteSingleFunctions & { read(path: string, options?: ParameterOptions): unknown };
}

/** The item's request: its fields read once, then the operation's preSends (validation, normalisation). */
async function prepare(plan: Plan, single: ReturnType<typeof itemContext>): Promise<IHttpRequestOptions> {
	const body: IDataObject = {};
	const qs: IDataObject = {};
	for (const field of plan.fields) {
		const value = single.read(field.path, { extractValue: field.extractValue });
		(field.in === 'qs' ? qs : body)[field.property] = value as IDataObject[string];
	}
	let request: IHttpRequestOptions = { ...plan.request, headers: { ...plan.request.headers }, body, qs };
	for (const preSend of plan.preSend) request = await preSend.call(single, request);
	return request;
}

/** Runs fn for 0..count-1 with at most `limit` running at once; stops starting new ones once `stop()` says so. */
async function forEachLimited(count: number, limit: number, fn: (index: number) => Promise<void>, stop: () => boolean): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < count && !stop()) await fn(next++);
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

/** Executes the node's current send operation for every input item. */
export async function executeSends(this: IExecuteFunctions, description: INodeTypeDescription, options: DeliveryOptions = {}): Promise<INodeExecutionData[][]> {
	const { concurrency, retries, baseDelayMs, maxDelayMs } = { ...DELIVERY_DEFAULTS, ...options };
	const node = this.getNode();
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const plan = planFor(node, description);
	const requestOptions = this.getNodeParameter('requestOptions', 0, {}) as RequestOptionsParameter;
	applyRequestOptions(node, plan.request, requestOptions);

	// The credential once per run: n8n reads it from its database on every getCredentials.
	const reference = node.credentials?.[CREDENTIAL_TYPE];
	const data: ICredentialDataDecryptedObject = await this.getCredentials(CREDENTIAL_TYPE);
	const credentials: ICredentialsDecrypted = { id: reference?.id ?? '', name: reference?.name ?? '', type: CREDENTIAL_TYPE, data };
	const token = String(data.apiToken ?? '');

	const outcomes: Array<{ records?: IDataObject[]; error?: unknown; decode?: boolean }> = items.map(() => ({}));
	const failed = () => !continueOnFail && outcomes.some((outcome) => outcome.error !== undefined);

	// 1. Every item's request, validated, before anything is sent (uploads of Send Media excepted).
	const requests: Array<IHttpRequestOptions | undefined> = [];
	await forEachLimited(items.length, concurrency, async (index) => {
		try {
			const single = itemContext(this, index, items[index], credentials);
			requests[index] = await prepare(plan, single);
			outcomes[index].decode = single.getNodeParameter('options.decodeJsonFields', true) !== false;
		} catch (error) {
			outcomes[index].error = error;
		}
	}, failed);

	// 2. The sends: bounded per account, retried only when the platform said it did not process them.
	if (!failed()) {
		const limiter = limiterFor(reference?.id ?? reference?.name ?? 'default', concurrency);
		const cancelled = () => this.getExecutionCancelSignal()?.aborted === true;
		const requestOnce = async (index: number, request: IHttpRequestOptions) => {
			let response: IN8nHttpFullResponse;
			try {
				response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, { ...request, returnFullResponse: true, ignoreHttpStatusErrors: true }, { credentialsDecrypted: credentials })) as IN8nHttpFullResponse;
			} catch (error) {
				throw reportedFailure(this, error, token, index);
			}
			const reading = readResponse(response);
			if ('failure' in reading) throw apiError(node, { ...reading.failure, itemIndex: index }, token);
			return reading.envelope;
		};
		const send = async (index: number, request: IHttpRequestOptions) => {
			await limiter.acquire();
			try {
				for (let attempt = 0; ; attempt++) {
					let failure: unknown;
					try {
						outcomes[index].records = payloadRecords(await requestOnce(index, request), 'confirmation');
						return;
					} catch (error) {
						failure = error;
					}
					if (attempt >= retries || !isRetryable(failure) || cancelled()) {
						outcomes[index].error = failure;
						return;
					}
					// The slot stays held while waiting: a limited platform then sees fewer requests overall.
					await sleep(backoffDelay(attempt, baseDelayMs, maxDelayMs));
				}
			} finally {
				limiter.release();
			}
		};
		const { batchSize = 1, batchInterval = 0 } = requestOptions.batching?.batch ?? {};
		const sends: Array<Promise<void>> = [];
		for (let index = 0; index < items.length; index++) {
			const request = requests[index];
			if (!request) continue;
			// Options → Batching, as RoutingNode applies it: a pause before each batch after the first.
			if (batchInterval > 0 && index > 0 && index % Math.max(1, batchSize) === 0) await sleep(batchInterval);
			sends.push(send(index, request));
		}
		await Promise.all(sends);
	}

	// 3. Outputs in input order; a failure is an error item under Continue On Fail, else the run fails.
	const output: INodeExecutionData[] = [];
	for (const [index, outcome] of outcomes.entries()) {
		const pairedItem = { item: index };
		if (outcome.error !== undefined) {
			const error = asNodeError(node, outcome.error, index);
			if (!continueOnFail) throw error;
			output.push({ json: { error: error.message }, error, pairedItem });
			continue;
		}
		for (const record of outcome.records ?? []) output.push({ json: outcome.decode ? decodeJsonFields(record) : record, pairedItem });
	}
	return [output];
}

function asNodeError(node: INode, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	const nodeError = error instanceof NodeApiError || error instanceof NodeOperationError ? error : new NodeOperationError(node, error as Error, { itemIndex });
	nodeError.context = { ...nodeError.context, itemIndex };
	return nodeError;
}

/** The `customOperations` of the node: every send operation through the executor, reading the node's description at run time. */
export function sendOperations(description: () => INodeTypeDescription, options: DeliveryOptions = {}, operations = SEND_OPERATIONS): NonNullable<INodeType['customOperations']> {
	const custom: NonNullable<INodeType['customOperations']> = {};
	for (const [resource, names] of Object.entries(operations)) {
		custom[resource] = {};
		for (const operation of names) {
			custom[resource][operation] = async function (this: IExecuteFunctions) {
				return await executeSends.call(this, description(), options);
			};
		}
	}
	return custom;
}
