import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	INodeExecutionData,
	INodePropertyRouting,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { rateLimitBudgetMs, sendsInFlight } from '../../shared/credential';
import { requestOnce } from '../../shared/transport';
import { deliver, RateLimitBudget } from './delivery';
import { waitForDelivery } from './deliveryWait';
import { answersAsTool, asNodeError, errorItem, withRecipient } from './itemOutput';
import { unwrap } from './output';
import { performSend, prepareSend, type SendDefinition } from './sendDefinition';
import { sendItemOf } from './sendItem';
import { sendRecordOf } from './sendRecord';

/**
 * The declarative routing of a send. RoutingNode calls an operation's `pagination` function in
 * place of its request, so the send runs there: the definition's fields replace the body the
 * parameters built, and the request goes out under the delivery policy. Bad input and API failures
 * end as in the bulk path (under Continue On Fail, the same error item).
 */
export function sendRouting(definition: SendDefinition): INodePropertyRouting {
	async function send(
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const item = sendItemOf(this);
		const itemIndex = this.getItemIndex();
		try {
			const prepared = await prepareSend(definition, item);
			// What an earlier attempt of this node run (Retry On Fail) did with the item is output again, not sent again.
			const record = sendRecordOf(this);
			const earlier = record.get(itemIndex, prepared.fingerprint);
			if (earlier && 'unknown' in earlier) throw earlier.unknown;
			// Wait for Delivery (deliveryWait.ts) only reads the status: also for an earlier attempt's send, never sending again.
			const delivered = async (records: IDataObject[]) =>
				await waitForDelivery(
					this,
					item,
					records,
					() => this.getExecutionCancelSignal()?.aborted === true,
				);
			if (earlier)
				return (await delivered(earlier.records)).map((json) => ({
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
			let records: IDataObject[];
			try {
				records = await performSend(definition, item, prepared, deliverTo);
			} catch (error) {
				if (error instanceof NodeApiError && error.context?.outcome === 'unknown')
					record.save(itemIndex, { fingerprint: prepared.fingerprint, unknown: error });
				throw asNodeError(this.getNode(), error, itemIndex);
			}
			record.save(itemIndex, { fingerprint: prepared.fingerprint, records });
			records = await delivered(records);
			return records.map((json) => ({ json, pairedItem: { item: itemIndex } }));
		} catch (error) {
			const failure = asNodeError(this.getNode(), error, itemIndex);
			if (!this.continueOnFail() && !answersAsTool(this)) throw failure;
			return [errorItem(failure, itemIndex)];
		}
	}
	return {
		request: { url: definition.url },
		operations: { pagination: send },
		output: { postReceive: [unwrap('confirmation')] },
	};
}
