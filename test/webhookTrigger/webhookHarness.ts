/**
 * Runs the webhook trigger the way n8n 2.41's live webhooks do, in-process, on n8n-core's own
 * WebhookContext (and HookContext for checkExists/create/delete, PollContext for the polling trigger):
 *
 * - every delivery builds a fresh Workflow from the "database" copy of the static data, calls the
 *   node's `webhook`, and saves the static data back when it changed (live-webhooks.js does exactly
 *   this: `new Workflow({ staticData: workflowData.staticData })`, then `saveStaticData(workflow)`);
 * - activation builds one long-lived Workflow, runs the webhook methods on it and keeps it for the
 *   polls (active-workflow-manager.js); a poll that emits saves that workflow's whole static data.
 *
 * The answer the platform would get (status, JSON) and the executions started are recorded.
 */
import { ExecuteContext, HookContext, PollContext, WebhookContext } from 'n8n-core';
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
	type IWebhookData,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';
import { credentialsHelper, type TestCredentials } from '../harness/harness';

export interface Delivery {
	body?: unknown;
	/** Default application/json. */
	contentType?: string;
	query?: Record<string, string>;
	/** Bytes as sent (default: the JSON of body); sets content-length and rawBody. */
	raw?: Buffer;
	/** Which of the node's webhooks (its URL) receives it: default (Incoming and the rest) or outgoing. */
	webhook?: string;
}

export interface Answer {
	status: number;
	body: unknown;
	/** The items of the execution this delivery started, when it started one. */
	started?: INodeExecutionData[];
}

const WEBHOOK_NODE = 'BotSailor Webhook Trigger';
const POLL_NODE = 'BotSailor Trigger';

function nodeTypesOf(types: Record<string, INodeType>): INodeTypes {
	return {
		getByName: (name) => types[name],
		getByNameAndVersion: (name, version) => NodeHelpers.getVersionedNodeType(types[name], version),
		getKnownTypes: () => ({}),
	};
}

let workflows = 0;

/** A fake Express response: records what the node writes. */
function responseRecorder() {
	const answer: { status?: number; body?: unknown } = {};
	const response = {
		status(code: number) {
			answer.status = code;
			return response;
		},
		json(body: unknown) {
			answer.body = body;
			return response;
		},
		send(body: unknown) {
			answer.body = body;
			return response;
		},
		writeHead(code: number) {
			answer.status = code;
			return response;
		},
		end(body?: unknown) {
			if (body !== undefined) answer.body = body;
			return response;
		},
	};
	return { response, answer };
}

export interface WebhookRunnerOptions {
	/** The webhook trigger node type (a fresh instance after a simulated restart). */
	webhookType: INodeType;
	parameters: INodeParameters;
	credentials?: TestCredentials;
	/** A polling trigger node in the same workflow. */
	poll?: { nodeType: INodeType; parameters: INodeParameters };
	/** The workflow id (default: a new one, so that tests do not share the process memory). */
	workflowId?: string;
	/**
	 * Whether n8n saves what webhook() writes to the static data. n8n 2.41 does not (it re-wraps the
	 * static data for the execution before saving, which clears the "changed" mark); what the execution
	 * the webhook started writes is saved. Default: true, as n8n 1.x.
	 */
	webhookPhaseSaved?: boolean;
}

export class WebhookRunner {
	readonly workflowId: string;
	/** The static data as saved in n8n's database. */
	saved: IDataObject = {};
	/** Executions started, in order, with the trigger that started each. */
	readonly executions: Array<{ trigger: 'webhook' | 'poll'; items: INodeExecutionData[] }> = [];
	private active?: Workflow;
	private webhookType: INodeType;
	private readonly webhookNode: INode;
	private readonly pollNode?: INode;

	constructor(private readonly options: WebhookRunnerOptions) {
		this.workflowId = options.workflowId ?? `webhook-test-${++workflows}-${Date.now()}`;
		this.webhookType = options.webhookType;
		const credentials = { botSailorApi: { id: 'cred-1', name: 'BotSailor account' } };
		// The Webhook Trigger's credential is optional: without test credentials its node has none, as in the editor.
		this.webhookNode = {
			id: 'webhook-node',
			name: WEBHOOK_NODE,
			type: 'botSailorWebhookTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: options.parameters,
			webhookId: 'hook-1',
			...(options.credentials ? { credentials } : {}),
		};
		if (options.poll) {
			this.pollNode = {
				id: 'poll-node',
				name: POLL_NODE,
				type: 'botSailorTrigger',
				typeVersion: 1,
				position: [0, 200],
				parameters: options.poll.parameters,
				credentials,
			};
		}
	}

	private workflow(staticData: IDataObject): Workflow {
		const types: Record<string, INodeType> = { botSailorWebhookTrigger: this.webhookType };
		if (this.options.poll) types.botSailorTrigger = this.options.poll.nodeType;
		return new Workflow({
			id: this.workflowId,
			name: 'webhook test',
			active: true,
			connections: {},
			nodeTypes: nodeTypesOf(types),
			staticData: structuredClone(staticData),
			nodes: [this.webhookNode, ...(this.pollNode ? [this.pollNode] : [])],
		});
	}

	private additionalData(
		extra: Partial<IWorkflowExecuteAdditionalData> = {},
	): IWorkflowExecuteAdditionalData {
		return {
			credentialsHelper: credentialsHelper(
				this.options.credentials ?? { baseUrl: 'http://127.0.0.1:9', apiToken: 'unused' },
			),
			executionId: 'webhook-execution',
			restApiUrl: 'http://localhost:5678/rest',
			instanceBaseUrl: 'http://localhost:5678/',
			webhookBaseUrl: 'http://localhost:5678/webhook',
			webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
			webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
			formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
			variables: {},
			...extra,
		} as unknown as IWorkflowExecuteAdditionalData;
	}

	private webhookData(
		additionalData: IWorkflowExecuteAdditionalData,
		name = 'default',
	): IWebhookData {
		const description = this.webhookType.description.webhooks!.find(
			(webhook) => webhook.name === name,
		)!;
		return {
			httpMethod: 'POST',
			node: WEBHOOK_NODE,
			path: `hook-1/${String(description.path)}`,
			webhookDescription: description,
			workflowId: this.workflowId,
			workflowExecuteAdditionalData: additionalData,
			webhookId: 'hook-1',
		};
	}

	private persist(workflow: Workflow): void {
		if (workflow.staticData.__dataChanged === true) {
			const copy = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
			delete copy.__dataChanged;
			this.saved = copy;
			workflow.staticData.__dataChanged = false;
		}
	}

	/** Calls one webhook method as n8n does on activation/deactivation. */
	async hook(
		method: 'checkExists' | 'create' | 'delete',
		mode: WorkflowExecuteMode = 'trigger',
		workflow = this.workflow(this.saved),
	): Promise<boolean> {
		const additionalData = this.additionalData();
		const context = new HookContext(
			workflow,
			this.webhookNode,
			additionalData,
			mode,
			'activate',
			this.webhookData(additionalData),
		);
		const fn = this.webhookType.webhookMethods!.default![method];
		return await fn.call(context);
	}

	/** Activation as n8n does it: one workflow object for the webhook methods and the polls; saved after. */
	async activate(): Promise<void> {
		this.active = this.workflow(this.saved);
		if (!(await this.hook('checkExists', 'trigger', this.active)))
			await this.hook('create', 'trigger', this.active);
		this.persist(this.active);
		if (this.options.poll) await this.poll(); // the first poll of an activation sets the cursor
		this.persist(this.active); // n8n saves the static data once the triggers and polls are added
	}

	/** Deactivation: a fresh workflow from the database, webhook removed, static data saved. */
	async deactivate(): Promise<void> {
		const workflow = this.workflow(this.saved);
		await this.hook('delete', 'trigger', workflow);
		this.persist(workflow);
		this.active = undefined;
	}

	/** A restart of n8n: the node types are loaded again (fresh module state), the database stays. */
	async restart(webhookType: INodeType, pollType?: INodeType): Promise<void> {
		this.webhookType = webhookType;
		if (pollType && this.options.poll) this.options.poll.nodeType = pollType;
		this.active = undefined;
		await this.activate();
	}

	/**
	 * An update in place (Settings → Community Nodes → Update): n8n loads the new code without
	 * re-activating the workflow, so the polls keep the activation's workflow object (and its static
	 * data), while each webhook call gets the new code and a fresh copy of the static data.
	 */
	update(webhookType: INodeType, pollType?: INodeType): void {
		this.webhookType = webhookType;
		if (pollType && this.options.poll) this.options.poll.nodeType = pollType;
	}

	/** One delivery to the production URL (mode 'webhook'), or to the Test URL (mode 'manual'). */
	async deliver(delivery: Delivery, mode: WorkflowExecuteMode = 'webhook'): Promise<Answer> {
		const workflow = this.workflow(this.saved);
		// '' sends no Content-Type header at all.
		const contentType = delivery.contentType ?? 'application/json';
		const raw =
			delivery.raw ??
			Buffer.from(
				typeof delivery.body === 'string' ? delivery.body : JSON.stringify(delivery.body ?? {}),
			);
		// n8n 2.41 (middlewares/body-parser.js) parses JSON, XML, form and text/plain; any other type (or none) reaches the node as {} with the bytes in rawBody.
		const parsed =
			/^(application\/json|application\/x-www-form-urlencoded|text\/plain|multipart\/)/.test(
				contentType,
			)
				? delivery.body
				: {};
		const request = {
			method: 'POST',
			body: parsed,
			headers: {
				...(contentType ? { 'content-type': contentType } : {}),
				'content-length': String(raw.length),
			},
			query: delivery.query ?? {},
			params: {},
			rawBody: raw,
			contentType: contentType || undefined,
		};
		const { response, answer } = responseRecorder();
		const additionalData = this.additionalData({
			httpRequest: request as never,
			httpResponse: response as never,
		});
		const context = new WebhookContext(
			workflow,
			this.webhookNode,
			additionalData,
			mode,
			this.webhookData(additionalData, delivery.webhook),
			[],
			null,
		);
		const result = await this.webhookType.webhook!.call(context);
		// live-webhooks.js saves after answering, whatever the answer (n8n 2.41: to no effect, see webhookPhaseSaved).
		if (mode !== 'manual' && this.options.webhookPhaseSaved !== false) this.persist(workflow);
		if (result.noWebhookResponse) return { status: answer.status ?? 200, body: answer.body };
		if (result.workflowData) {
			const items = await this.runExecution(result.workflowData[0], mode);
			this.executions.push({ trigger: 'webhook', items });
			return { status: 200, body: { message: 'Workflow was started' }, started: items };
		}
		return { status: 200, body: result.webhookResponse ?? { message: 'Webhook call received' } };
	}

	/**
	 * The execution a webhook started, as n8n runs its first node: the static data fresh from the
	 * database, the node's execute() (when it has one) with the webhook's items, saved at the end.
	 */
	private async runExecution(
		items: INodeExecutionData[],
		mode: WorkflowExecuteMode,
	): Promise<INodeExecutionData[]> {
		if (!this.webhookType.execute) return items;
		const workflow = this.workflow(this.saved);
		const context = new ExecuteContext(
			workflow,
			this.webhookNode,
			this.additionalData(),
			mode,
			createRunExecutionData(),
			0,
			items,
			{ main: [items] },
			{ node: this.webhookNode, data: { main: [items] }, source: null },
			[],
		);
		const output = (await this.webhookType.execute.call(context)) as INodeExecutionData[][];
		if (mode !== 'manual') this.persist(workflow);
		return output[0];
	}

	/** One poll of the polling trigger on the activation's workflow object; an emitting poll saves its static data. */
	async poll(): Promise<INodeExecutionData[]> {
		if (!this.options.poll || !this.pollNode)
			throw new Error('no polling trigger in this workflow');
		if (!this.active) throw new Error('not active');
		const context = new PollContext(
			this.active,
			this.pollNode,
			this.additionalData(),
			'trigger',
			'activate',
		);
		const result = await this.options.poll.nodeType.poll!.call(context);
		if (result) {
			this.persist(this.active);
			this.executions.push({ trigger: 'poll', items: result[0] });
			return result[0];
		}
		return [];
	}

	/** Executions started by either trigger, as JSON. */
	started(): IDataObject[] {
		return this.executions.flatMap((execution) => execution.items.map((item) => item.json));
	}
}
