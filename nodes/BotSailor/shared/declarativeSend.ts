import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	INodeExecutionData,
	INodePropertyRouting,
} from 'n8n-workflow';
import { rateLimitBudgetMs, sendsInFlight } from '../../shared/credential';
import { requestOnce } from '../../shared/transport';
import { atMostOnce } from './atMostOnce';
import { deliver, RateLimitBudget } from './delivery';
import { waitForDelivery } from './deliveryWait';
import { answersAsTool, asNodeError, errorItem, withRecipient } from './itemOutput';
import { unwrap } from './output';
import { performSend, prepareSend, type SendDefinition } from './sendDefinition';
import { sendItemOf } from './sendItem';
import { sendRecordOf } from './sendRecord';

/**
 * A send in n8n's declarative engine, once per item in place of the request (resources/resource.ts says why):
 * the definition's fields replace the body the parameters built, and the request goes out under the delivery
 * policy. Bad input and API failures end as in the bulk path (under Continue On Fail, the same error item).
 */
export function sendOnce(definition: SendDefinition) {
	async function send(
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const item = sendItemOf(this);
		const itemIndex = this.getItemIndex();
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
			if (!this.continueOnFail() && !answersAsTool(this)) throw failure;
			return [errorItem(failure, itemIndex)];
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
