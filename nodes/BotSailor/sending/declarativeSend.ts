import type {
	DeclarativeRestApiSettings,
	IDataObject,
	INodeExecutionData,
	INodePropertyRouting,
} from 'n8n-workflow';
import { rateLimitBudgetMs, sendsInFlight } from '../../shared/http/credential';
import { requestOnce } from '../../shared/http/transport';
import { atMostOnce } from './atMostOnce';
import { deliver, RateLimitBudget, recipientOf } from './delivery';
import { waitForDelivery } from './deliveryWait';
import { answersAsTool, asNodeError, errorItem, withRecipient } from '../running/itemResult';
import { unwrap } from '../running/outputItems';
import { performSend, prepareSend, type SendDefinition } from './sendDefinition';
import { sendItemOf } from './sendItem';
import { runKeyOf, sendRecordOf } from './sendRecord';
import type { OperationContext } from '../running/operationRequest';

/**
 * The items of one try of a node run that are sending now, and whether one of them failed: n8n's RoutingNode starts
 * every item of a call at once (a promise per item, then Promise.allSettled), so without Continue On Fail the first
 * failure must stop the items still waiting for a send slot (delivery.ts: NotAttempted). A try ends when its last item
 * is done; the next try of Retry On Fail (same run key) starts with a new one.
 */
interface Try {
	sending: number;
	failed: boolean;
}
const tries = new Map<string, Try>();

function joinTry(key: string): Try {
	let current = tries.get(key);
	if (!current) {
		current = { sending: 0, failed: false };
		tries.set(key, current);
	}
	current.sending++;
	return current;
}

function leaveTry(key: string, current: Try): void {
	current.sending--;
	if (current.sending === 0 && tries.get(key) === current) tries.delete(key);
}

/**
 * A send in n8n's declarative engine, once per item in place of the request (resources/resource.ts says why):
 * the definition's fields replace the body the parameters built, and the request goes out under the delivery
 * policy. Bad input and API failures end as in the bulk path (under Continue On Fail, the same error item).
 */
export function sendOnce(definition: SendDefinition) {
	async function send(
		this: OperationContext,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const item = sendItemOf(this);
		const itemIndex = this.getItemIndex();
		const runKey = runKeyOf(this);
		const current = joinTry(runKey);
		try {
			const prepared = await prepareSend(definition, item);
			// What an earlier attempt of this node run (Retry On Fail) did with the item is output again, not sent again.
			const once = atMostOnce(sendRecordOf(this), itemIndex, prepared.fingerprint);
			// Wait for Delivery (deliveryWait.ts) only reads the status: also for an earlier attempt's send, never sending again.
			const delivered = async (records: IDataObject[]) =>
				await waitForDelivery(
					this,
					item,
					records,
					() => this.getExecutionCancelSignal()?.aborted === true,
				);
			if ('records' in once)
				return (await delivered(once.records)).map((json) => ({
					json,
					pairedItem: { item: itemIndex },
				}));
			const credentials = await item.credentials();
			const concurrency = sendsInFlight(credentials);
			// A tool call's budget for waiting on the platform's rate limit (the credential's Rate Limit Wait Budget).
			const budget = new RateLimitBudget(rateLimitBudgetMs(credentials));
			const deliverTo = async (url: string, fields: IDataObject) => {
				const items = await deliver(
					this.getNode(),
					itemIndex,
					async () =>
						await requestOnce(
							this,
							{ ...requestData.options, url, body: fields },
							async (options) => await this.makeRoutingRequest({ ...requestData, options }),
							{ itemIndex },
						),
					{
						options: { concurrency },
						budget,
						cancelled: () => this.getExecutionCancelSignal()?.aborted === true,
						// Without Continue On Fail, an item of this try that failed stops the ones not sent yet.
						stopped: () => current.failed,
						recipient: recipientOf(fields),
					},
				);
				return items.map((entry) => withRecipient(entry.json, fields));
			};
			const records = await delivered(
				await once.send(async () => await performSend(definition, item, prepared, deliverTo)),
			);
			return records.map((json) => ({ json, pairedItem: { item: itemIndex } }));
		} catch (error) {
			const failure = asNodeError(this.getNode(), error, itemIndex);
			if (!this.continueOnFail()) {
				current.failed = true;
				if (!answersAsTool(this)) throw failure;
			}
			return [errorItem(failure, itemIndex)];
		} finally {
			leaveTry(runKey, current);
		}
	}
	return send;
}

/** The request of a send as the declarative engine builds it: the endpoint, and the confirmation as the answer. */
export function sendRouting(definition: SendDefinition): INodePropertyRouting {
	return {
		request: { url: definition.url },
		output: { postReceive: [unwrap('confirmation')] },
	};
}
