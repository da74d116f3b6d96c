/**
 * Runs our nodes inside n8n-core's real engine, in-process: RoutingNode, preSend/postReceive,
 * credentials `authenticate`, Continue On Fail and binary data all run as they do in n8n.
 * Built only on public exports of n8n-core and n8n-workflow.
 */
import {
	BinaryDataConfig,
	BinaryDataService,
	DirectoryLoader,
	ExecutionLifecycleHooks,
	FileLocation,
	LoadOptionsContext,
	PollContext,
	WorkflowExecute,
} from 'n8n-core';
import {
	createRunExecutionData,
	NodeHelpers,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentialsHelper,
	type IDataObject,
	type IHttpRequestOptions,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type INodeTypes,
	type IRun,
	type IWorkflowExecuteAdditionalData,
	type ExecutionError,
	type IBinaryData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';
import { BotSailorApi } from '../../credentials/BotSailorApi.credentials';
import { BotSailor } from '../../nodes/BotSailor/BotSailor.node';

export interface TestCredentials {
	baseUrl: string;
	apiToken: string;
	apiForm?: 'current' | 'earlier';
	maxSendsInFlight?: number;
	platformTimeZone?: string;
	rateLimitBudgetSeconds?: number;
}

/**
 * An input item: JSON, and binary properties given as bytes, as a file to read (streamed in filesystem
 * mode), or as a binary already in n8n's store (`stored`, e.g. from useBinaryMode().copyBinaryFile()).
 */
export interface InputItem {
	json?: IDataObject;
	binary?: Record<
		string,
		{
			data?: Buffer | string;
			filePath?: string;
			stored?: IBinaryData;
			mimeType: string;
			fileName?: string;
		}
	>;
}

/**
 * n8n's binary data modes: 'memory' keeps a binary as base64 in its item (the harness's default, and
 * n8n's when no manager is set up); 'filesystem' is what N8N_DEFAULT_BINARY_DATA_MODE=filesystem gives
 * (n8n's start-up calls BinaryDataService.init(), which sets up the filesystem manager): binaries are
 * files under the user folder's storage, items carry an id, nodes read them as streams.
 */
export type BinaryMode = 'memory' | 'filesystem';

let filesystemReady: Promise<void> | undefined;

/** n8n's binary data service (n8n-core resolves it from its own DI container), set to a mode. */
export async function useBinaryMode(mode: BinaryMode): Promise<BinaryDataService> {
	/* eslint-disable @typescript-eslint/no-require-imports, @n8n/community-nodes/no-restricted-imports -- test code: the DI container n8n-core itself uses (its own copy of @n8n/di) */
	const { Container } = require(
		require.resolve('@n8n/di', { paths: [require.resolve('n8n-core')] }),
	) as typeof import('@n8n/di');
	/* eslint-enable @typescript-eslint/no-require-imports, */
	const service = Container.get(BinaryDataService);
	if (mode === 'filesystem') {
		filesystemReady ??= (async () => {
			Container.get(BinaryDataConfig).mode = 'filesystem';
			await service.init();
		})();
		await filesystemReady;
	}
	// The service writes with the manager of its current mode and keeps base64 in the item when there is none; the field is private.
	(service as unknown as { mode: string }).mode =
		mode === 'filesystem' ? 'filesystem-v2' : 'memory';
	return service;
}

export interface RunOptions {
	parameters: INodeParameters;
	credentials: TestCredentials;
	items?: InputItem[];
	continueOnFail?: boolean;
	/** The node type under test (default: the BotSailor action node). */
	nodeType?: INodeType;
	/** The node's typeVersion in the workflow (default 1). */
	typeVersion?: number;
	/** n8n's node setting Retry On Fail: the engine runs the node again, in the same execution, after a failure. */
	retryOnFail?: { maxTries: number; waitBetweenTries?: number };
	/**
	 * How n8n runs the node: 'workflow' (a workflow run: WorkflowExecute, customOperations first) or
	 * 'execute' (the node type's `execute`, which n8n gives a declarative node for tool consumers such
	 * as AI Agent 2.x and the MCP Server Trigger: RoutingNode, customOperations not consulted).
	 */
	path?: 'workflow' | 'execute';
	/** n8n's binary data mode for the run (default: memory, see BinaryMode). */
	binaryMode?: BinaryMode;
	/** The execution's mode (default manual; a trigger's execution runs as 'trigger' or 'webhook'). */
	mode?: WorkflowExecuteMode;
}

export interface RunResult {
	/** Output items of the node under test (error items included under Continue On Fail). */
	items: INodeExecutionData[];
	/** The execution's error when the node failed. */
	error?: ExecutionError;
	run: IRun;
	/** How many times the node had credentials decrypted (n8n reads them from its database each time). */
	credentialLoads: number;
}

const NODE_NAME = 'BotSailor';
const INPUT_NAME = 'Input';

/** A tiny node that outputs the test's input items (n8n calls execute with its own `this`). */
function inputNodeType(items: INodeExecutionData[]): INodeType {
	return {
		description: {
			displayName: 'Input',
			name: 'testInput',
			group: ['input'],
			version: 1,
			description: 'Test input',
			defaults: { name: INPUT_NAME },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		} as unknown as INodeType['description'],
		execute: async () => [items],
	};
}

function nodeTypesOf(types: Record<string, INodeType>): INodeTypes {
	return {
		getByName: (name) => types[name],
		getByNameAndVersion: (name, version) => NodeHelpers.getVersionedNodeType(types[name], version),
		getKnownTypes: () => ({}),
	};
}

const credentialType = new BotSailorApi();

/** The credentials helper n8n would provide: decrypted test credentials and the credential's own authenticate. */
/**
 * The action node as n8n loads it (its own customOperations kept), with the Options n8n adds to a declarative node
 * (Timeout among them), on a copy of its properties so the shared description is left as it is.
 */
export function loadedNode(): INodeType {
	const node: INodeType = new BotSailor();
	node.description = { ...node.description, properties: [...node.description.properties] };
	DirectoryLoader.applyDeclarativeNodeOptionParameters(node);
	return node;
}

export function credentialsHelper(
	credentials: TestCredentials,
	onLoad: () => void = () => undefined,
): ICredentialsHelper {
	const data: ICredentialDataDecryptedObject = { apiForm: 'current', ...credentials };
	return {
		getParentTypes: () => [],
		isCredentialUsableByNode: () => true,
		authenticate: async (
			decrypted: ICredentialDataDecryptedObject,
			_type: string,
			options: IHttpRequestOptions,
		) => await credentialType.authenticate(decrypted, options),
		preAuthentication: async () => undefined,
		runPreAuthentication: async () => undefined,
		getCredentials: async () => {
			throw new Error('not used');
		},
		getDecrypted: async () => {
			onLoad();
			return { ...data };
		},
		updateCredentials: async () => undefined,
		updateCredentialsOauthTokenData: async () => undefined,
		getCredentialsProperties: () => credentialType.properties,
	} as unknown as ICredentialsHelper;
}

let executions = 0;

function additionalDataFor(
	credentials: TestCredentials,
	hooks?: ExecutionLifecycleHooks,
	onLoad?: () => void,
	executionId = 'test-execution',
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper: credentialsHelper(credentials, onLoad),
		hooks,
		executionId,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		variables: {},
		currentNodeParameters: undefined,
		executeWorkflow: async () => {
			throw new Error('not used');
		},
		getRunExecutionData: async () => undefined,
		logAiEvent: () => undefined,
		startRunnerTask: async () => {
			throw new Error('not used');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

async function toExecutionItems(
	items: InputItem[],
	mode: BinaryMode,
	executionId: string,
): Promise<INodeExecutionData[]> {
	const service = mode === 'filesystem' ? await useBinaryMode('filesystem') : undefined;
	const location = FileLocation.ofExecution('test-workflow', executionId);
	return await Promise.all(
		items.map(async (item, index) => {
			const binary: Record<string, IBinaryData> = {};
			for (const [key, file] of Object.entries(item.binary ?? {})) {
				const meta: IBinaryData = { data: '', mimeType: file.mimeType, fileName: file.fileName };
				if (file.stored) binary[key] = { ...file.stored };
				else if (service && file.filePath)
					binary[key] = await service.copyBinaryFile(location, meta, file.filePath);
				else {
					if (file.filePath) throw new Error("binary.filePath needs binaryMode: 'filesystem'");
					const bytes = Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data ?? '');
					binary[key] = service
						? await service.store(location, bytes, meta)
						: { ...meta, data: bytes.toString('base64'), fileSize: String(bytes.length) };
				}
			}
			return {
				json: item.json ?? {},
				...(item.binary ? { binary } : {}),
				pairedItem: { item: index },
			};
		}),
	);
}

/**
 * The node as a tool consumer that calls `execute` runs it: n8n gives a declarative node an `execute`
 * that runs RoutingNode and does not consult customOperations; without customOperations the engine
 * runs the node's RoutingNode the same way.
 */
function executePathOf(nodeType: INodeType): INodeType {
	const copy = Object.create(nodeType) as INodeType;
	copy.customOperations = undefined;
	return copy;
}

/** Runs one node of a two-node workflow (Input → node) and returns the node's output. */
export async function runNode(options: RunOptions): Promise<RunResult> {
	const nodeType =
		options.path === 'execute'
			? executePathOf(options.nodeType ?? new BotSailor())
			: (options.nodeType ?? new BotSailor());
	const executionId = `test-execution-${++executions}`;
	if (options.binaryMode || filesystemReady) await useBinaryMode(options.binaryMode ?? 'memory');
	const input = await toExecutionItems(
		options.items ?? [{ json: {} }],
		options.binaryMode ?? 'memory',
		executionId,
	);
	const types = nodeTypesOf({ testInput: inputNodeType(input), botSailor: nodeType });
	const inputNode: INode = {
		id: 'input',
		name: INPUT_NAME,
		type: 'testInput',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const node: INode = {
		id: 'botsailor',
		name: NODE_NAME,
		type: 'botSailor',
		typeVersion: options.typeVersion ?? 1,
		position: [200, 0],
		parameters: options.parameters,
		credentials: { botSailorApi: { id: 'cred-1', name: 'BotSailor account' } },
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(options.retryOnFail
			? {
					retryOnFail: true,
					maxTries: options.retryOnFail.maxTries,
					waitBetweenTries: options.retryOnFail.waitBetweenTries ?? 0,
				}
			: {}),
	};
	const workflow = new Workflow({
		id: 'test-workflow',
		nodes: [inputNode, node],
		nodeTypes: types,
		active: false,
		connections: { [INPUT_NAME]: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
	});
	const hooks = new ExecutionLifecycleHooks(options.mode ?? 'manual', executionId, {
		id: 'test-workflow',
		name: 'test',
		active: false,
		nodes: workflow.nodes ? Object.values(workflow.nodes) : [],
		connections: workflow.connectionsBySourceNode,
		createdAt: new Date(),
		updatedAt: new Date(),
		isArchived: false,
	} as never);
	const finished = new Promise<IRun>((resolve) =>
		hooks.addHandler('workflowExecuteAfter', (run) => resolve(run)),
	);
	let credentialLoads = 0;
	const additionalData = additionalDataFor(
		options.credentials,
		hooks,
		() => credentialLoads++,
		executionId,
	);
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: inputNode, data: { main: [[{ json: {} }]] }, source: null }],
		},
	});
	await new WorkflowExecute(
		additionalData,
		options.mode ?? 'manual',
		runExecutionData,
	).processRunExecutionData(workflow);
	const run = await finished;
	const taskData = run.data.resultData.runData[NODE_NAME]?.[0];
	return {
		items: taskData?.data?.main?.[0] ?? [],
		error: run.data.resultData.error ?? taskData?.error,
		run,
		credentialLoads,
	};
}

/** Calls a node's `methods.listSearch` / `loadOptions` function the way the editor does. */
export async function callMethod(
	kind: 'listSearch' | 'loadOptions' | 'resourceMapping',
	method: string,
	{
		credentials,
		parameters = {},
		filter,
		paginationToken,
		nodeType = new BotSailor(),
	}: {
		credentials: TestCredentials;
		parameters?: INodeParameters;
		filter?: string;
		/** A list search's token from its previous answer (the next scroll step). */
		paginationToken?: string;
		nodeType?: INodeType;
	},
): Promise<unknown> {
	const types = nodeTypesOf({ botSailor: nodeType });
	const node: INode = {
		id: 'botsailor',
		name: NODE_NAME,
		type: 'botSailor',
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { botSailorApi: { id: 'cred-1', name: 'BotSailor account' } },
	};
	const workflow = new Workflow({
		id: 'test-workflow',
		nodes: [node],
		connections: {},
		nodeTypes: types,
		active: false,
	});
	const context = new LoadOptionsContext(
		workflow,
		node,
		{ ...additionalDataFor(credentials), currentNodeParameters: parameters },
		'',
	);
	const methods = nodeType.methods as
		| Record<
				string,
				Record<string, (this: unknown, filter?: string, token?: string) => Promise<unknown>>
		  >
		| undefined;
	const fn = methods?.[kind]?.[method];
	if (!fn) throw new Error(`no ${kind} method ${method}`);
	return await fn.call(context, filter, paginationToken);
}

export interface Poller {
	/** Runs one poll as n8n would; returns the emitted items (empty when the node returned null). */
	poll(mode?: Extract<WorkflowExecuteMode, 'trigger' | 'manual'>): Promise<INodeExecutionData[]>;
	/** The node's static data as n8n holds it in memory between polls. */
	staticData(): IDataObject;
	/** The static data as last saved after a successful poll (what a restart of n8n would load). */
	persisted(): IDataObject;
	/** Simulates an n8n restart: a fresh workflow object loaded from the persisted static data. */
	restart(): void;
}

/**
 * A poll runner that treats static data as n8n does: a trigger-mode poll keeps its changes in
 * memory and n8n saves them after a successful poll; a manual ("Fetch Test Event") poll changes
 * nothing that lasts; a poll that throws saves nothing.
 */
export function createPoller(
	nodeType: INodeType,
	parameters: INodeParameters,
	credentials: TestCredentials,
	options: { binaryMode?: BinaryMode } = {},
): Poller {
	const types = nodeTypesOf({ botSailorTrigger: nodeType });
	let saved: IDataObject = {};
	let workflow: Workflow;
	const node: INode = {
		id: 'trigger',
		name: 'BotSailor Trigger',
		type: 'botSailorTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { botSailorApi: { id: 'cred-1', name: 'BotSailor account' } },
	};
	const load = () => {
		workflow = new Workflow({
			id: 'test-workflow',
			nodes: [node],
			connections: {},
			nodeTypes: types,
			active: true,
			staticData: structuredClone(saved),
		});
	};
	load();
	const additionalData = additionalDataFor(credentials);
	const restore = (snapshot: IDataObject) => {
		for (const key of Object.keys(workflow.staticData)) delete workflow.staticData[key];
		Object.assign(workflow.staticData, structuredClone(snapshot));
	};
	return {
		async poll(mode = 'trigger') {
			if (options.binaryMode || filesystemReady)
				await useBinaryMode(options.binaryMode ?? 'memory');
			const snapshot = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject; // static data is an observable proxy: structuredClone refuses it
			const context = new PollContext(
				workflow,
				node,
				additionalData,
				mode,
				mode === 'manual' ? 'manual' : 'activate',
			);
			try {
				const result = await nodeType.poll!.call(context);
				if (mode !== 'manual')
					saved = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
				return result?.[0] ?? [];
			} finally {
				if (mode === 'manual') restore(snapshot);
			}
		},
		staticData: () => workflow.staticData as IDataObject,
		persisted: () => saved,
		restart: load,
	};
}
