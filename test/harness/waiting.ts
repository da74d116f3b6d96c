/**
 * Send and Wait inside n8n-core's real engine, in-process, the way n8n's waiting executions go:
 * - the run: Input → BotSailor → After in WorkflowExecute; the node puts the execution to wait;
 * - an answer: n8n's WaitingWebhooks (n8n 2.41 waiting-webhooks.js + webhook-helpers.js) in small: the
 *   stored execution data, the node's `webhook()` in n8n-core's WebhookContext with that data, and when it
 *   returns workflowData, the node disabled, its pause run removed, its stack entry's data replaced by the
 *   answer, and the run continued;
 * - a timeout: n8n's WaitTracker runs the stored execution again with waitTill still set (WorkflowExecute
 *   then disables the waiting node, which passes on what it holds).
 * The signature of a signed link is checked with n8n-core's own validateUrlSignature and instance secret.
 */
import {
	ExecutionLifecycleHooks,
	InstanceSettings,
	validateUrlSignature,
	WAITING_TOKEN_QUERY_PARAM,
	WebhookContext,
	WorkflowExecute,
} from 'n8n-core';
import {
	createRunExecutionData,
	NodeHelpers,
	Workflow,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type INodeTypes,
	type IRun,
	type IRunExecutionData,
	type IWebhookData,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { BotSailor } from '../../nodes/BotSailor/BotSailor.node';
import { credentialsHelper, type TestCredentials } from './harness';

const NODE = 'BotSailor';
const DEFAULT_BASE = 'http://localhost:5678';

function passThrough(name: string, items: INodeExecutionData[] = []): INodeType {
	return {
		description: {
			displayName: name,
			name,
			group: ['transform'],
			version: 1,
			description: name,
			defaults: { name },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		} as unknown as INodeType['description'],
		async execute() {
			return name === 'testInput' ? [items] : [this.getInputData()];
		},
	};
}

export interface PageAnswer {
	status: number;
	html: string;
	/** The continued run, when this request answered. */
	resumed?: IRun;
	/** The node's webhookResponse as it returned it (an object is sent as JSON by n8n). */
	response?: unknown;
}

let runs = 0;

/** A run of a workflow Input → BotSailor (Send and Wait) → After, and what happens to it after the pause. */
export class WaitingRun {
	readonly executionId = `wait-execution-${++runs}`;
	readonly workflow: Workflow;
	readonly node: INode;
	private readonly nodeType: INodeType;
	run!: IRun;
	/** The execution data as n8n stores it while waiting (a copy, as a database would hold it). */
	stored!: IRunExecutionData;
	/** The data of the last pause, kept after an answer: a request that raced the answer still sees it. */
	private paused?: IRunExecutionData;

	constructor(
		private readonly options: {
			parameters: INodeParameters;
			credentials: TestCredentials;
			items?: IDataObject[];
			continueOnFail?: boolean;
			retryOnFail?: { maxTries: number };
			/** The node type (default: the BotSailor node as constructed; bench/sendTextNode.ts adds n8n's Options). */
			nodeType?: INodeType;
			/** The instance's base URL (default http://localhost:5678): a test serving the waiting URLs sets its own. */
			baseUrl?: string;
			/** The node's version (default 1.2, the newest). */
			typeVersion?: number;
		},
	) {
		this.nodeType = options.nodeType ?? new BotSailor();
		const input = (options.items ?? [{}]).map((json, index) => ({
			json,
			pairedItem: { item: index },
		}));
		this.node = {
			id: 'node-sw-1',
			name: NODE,
			type: 'botSailor',
			typeVersion: options.typeVersion ?? 1.2,
			position: [200, 0],
			parameters: options.parameters,
			credentials: { botSailorApi: { id: 'cred-1', name: 'BotSailor account' } },
			...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
			...(options.retryOnFail
				? { retryOnFail: true, maxTries: options.retryOnFail.maxTries, waitBetweenTries: 0 }
				: {}),
		};
		const types: Record<string, INodeType> = {
			testInput: passThrough('testInput', input),
			testAfter: passThrough('testAfter'),
			botSailor: this.nodeType,
		};
		const nodeTypes: INodeTypes = {
			getByName: (name) => types[name],
			getByNameAndVersion: (name, version) =>
				NodeHelpers.getVersionedNodeType(types[name], version),
			getKnownTypes: () => ({}),
		};
		this.workflow = new Workflow({
			id: 'wait-workflow',
			nodes: [
				{
					id: 'in',
					name: 'Input',
					type: 'testInput',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				this.node,
				{
					id: 'after',
					name: 'After',
					type: 'testAfter',
					typeVersion: 1,
					position: [400, 0],
					parameters: {},
				},
			],
			connections: {
				Input: { main: [[{ node: NODE, type: 'main', index: 0 }]] },
				[NODE]: { main: [[{ node: 'After', type: 'main', index: 0 }]] },
			},
			nodeTypes,
			active: false,
		});
	}

	private additionalData(
		hooks?: ExecutionLifecycleHooks,
		extra: Partial<IWorkflowExecuteAdditionalData> = {},
	): IWorkflowExecuteAdditionalData {
		const BASE = this.options.baseUrl ?? DEFAULT_BASE;
		return {
			credentialsHelper: credentialsHelper(this.options.credentials),
			hooks,
			executionId: this.executionId,
			restApiUrl: `${BASE}/rest`,
			instanceBaseUrl: `${BASE}/`,
			webhookBaseUrl: `${BASE}/webhook`,
			webhookWaitingBaseUrl: `${BASE}/webhook-waiting`,
			webhookTestBaseUrl: `${BASE}/webhook-test`,
			formWaitingBaseUrl: `${BASE}/form-waiting`,
			variables: {},
			setExecutionStatus: () => undefined,
			...extra,
		} as unknown as IWorkflowExecuteAdditionalData;
	}

	private async execute(data: IRunExecutionData): Promise<IRun> {
		const hooks = new ExecutionLifecycleHooks('manual', this.executionId, {
			id: 'wait-workflow',
			name: 'wait',
			active: false,
			nodes: Object.values(this.workflow.nodes),
			connections: this.workflow.connectionsBySourceNode,
			createdAt: new Date(),
			updatedAt: new Date(),
			isArchived: false,
		} as never);
		const finished = new Promise<IRun>((resolve) =>
			hooks.addHandler('workflowExecuteAfter', (run) => resolve(run)),
		);
		await new WorkflowExecute(this.additionalData(hooks), 'manual', data).processRunExecutionData(
			this.workflow,
		);
		const run = await finished;
		this.run = run;
		this.stored = structuredClone(run.data);
		if (this.waiting) this.paused = structuredClone(run.data);
		return run;
	}

	/** Runs the workflow until it waits (or ends). */
	async start(): Promise<IRun> {
		return await this.execute(
			createRunExecutionData({
				executionData: {
					nodeExecutionStack: [
						{
							node: this.workflow.getNode('Input')!,
							data: { main: [[{ json: {} }]] },
							source: null,
						},
					],
				},
			}),
		);
	}

	get waiting(): boolean {
		return this.run.waitTill !== undefined && this.run.waitTill !== null;
	}

	/** The output of a node in the latest run. */
	output(name: string): INodeExecutionData[] {
		const runs = this.run.data.resultData.runData[name] ?? [];
		return runs.at(-1)?.data?.main?.[0] ?? [];
	}

	get error() {
		return this.run.data.resultData.error;
	}

	/** Opens a link from the message (GET), or sends the page's form (POST), as n8n's waiting webhooks would. */
	async open(
		link: string,
		{
			method = 'GET',
			body = {},
			race = false,
		}: {
			method?: 'GET' | 'POST';
			body?: IDataObject;
			/** The request arrived while n8n still saw the execution waiting at this node (a double tap). */
			race?: boolean;
		} = {},
	): Promise<PageAnswer> {
		const url = new URL(link);
		const [, , executionId, nodeId] = url.pathname.split('/');
		if (executionId !== this.executionId || nodeId !== this.node.id)
			throw new Error(`link does not point at this execution/node: ${link}`);
		if (!this.waiting && !race) throw new Error('the execution is not waiting');
		const signature = url.searchParams.get(WAITING_TOKEN_QUERY_PARAM);
		if (signature) {
			/* eslint-disable @typescript-eslint/no-require-imports, @n8n/community-nodes/no-restricted-imports -- test code: the DI container n8n-core itself uses (its own copy of @n8n/di) */
			const { Container } = require(
				require.resolve('@n8n/di', { paths: [require.resolve('n8n-core')] }),
			) as typeof import('@n8n/di');
			/* eslint-enable @typescript-eslint/no-require-imports, @n8n/community-nodes/no-restricted-imports */
			const secret = Container.get(InstanceSettings).hmacSignatureSecret;
			if (!validateUrlSignature(signature, url, secret))
				return { status: 401, html: 'invalid signature' };
		}
		const data = structuredClone(race ? this.paused! : this.stored);
		const answer: { status: number; html: string } = { status: 200, html: '' };
		const response = {
			status(code: number) {
				answer.status = code;
				return response;
			},
			setHeader: () => response,
			end(html?: string) {
				answer.html = String(html ?? '');
				return response;
			},
		};
		const request = {
			method,
			url: `${url.pathname}${url.search}`,
			originalUrl: `${url.pathname}${url.search}`,
			query: Object.fromEntries(url.searchParams),
			body,
			headers: { host: url.host },
			params: {},
		};
		const additionalData = this.additionalData(undefined, {
			httpRequest: request as never,
			httpResponse: response as never,
		});
		const description = this.nodeType.description.webhooks!.find(
			(webhook) => webhook.httpMethod === method,
		)!;
		const webhookData: IWebhookData = {
			httpMethod: method,
			node: NODE,
			path: this.node.id!,
			webhookDescription: description,
			workflowId: 'wait-workflow',
			workflowExecuteAdditionalData: additionalData,
		};
		const context = new WebhookContext(
			this.workflow,
			this.node,
			additionalData,
			'webhook',
			webhookData,
			[],
			data,
		);
		const result = await this.runWebhook(context);
		if (!result.workflowData) return answer;
		// What n8n does with an answer: the node disabled, its pause run removed, its data the answer, the run continued.
		data.waitTill = undefined;
		const entry = data.executionData!.nodeExecutionStack[0];
		entry.node.disabled = true;
		entry.data.main = result.workflowData;
		entry.metadata = { ...entry.metadata, forwardAllOutputs: true };
		data.resultData.runData[data.resultData.lastNodeExecuted!].pop();
		const resumed = await this.execute(data);
		return {
			status: 200,
			html: String(result.webhookResponse ?? ''),
			resumed,
			response: result.webhookResponse,
		};
	}

	/** As n8n's WebhookService.runWebhook: the node type's `webhook`, read when answering (the node exposes it then). */
	private async runWebhook(context: WebhookContext) {
		const webhook = this.nodeType.webhook;
		if (webhook === undefined) throw new Error('Node does not have any webhooks defined');
		return await webhook.call(context);
	}

	/** Limit Wait Time ran out: n8n's WaitTracker runs the stored execution again. */
	async timeOut(): Promise<IRun> {
		if (!this.waiting) throw new Error('the execution is not waiting');
		return await this.execute(structuredClone(this.stored));
	}
}
