import type {
	IDataObject,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	PostReceiveAction,
} from 'n8n-workflow';
import { payloadRecords, type PayloadShape } from '../../shared/http/envelope';
import { decodeJsonFields } from '../../shared/parameters/jsonStrings';
import { envelopeOf } from '../../shared/http/transport';

/** The "Decode JSON Fields" option of the operation (on unless the user turned it off). */
export function shouldDecodeJson(context: IExecuteSingleFunctions): boolean {
	return context.getNodeParameter('options.decodeJsonFields', true) !== false;
}

/** Records → output items of the current input item, decoded when asked and paired to their input. */
export function toOutputItems(
	context: IExecuteSingleFunctions,
	records: IDataObject[],
): INodeExecutionData[] {
	const decode = shouldDecodeJson(context);
	const pairedItem = { item: context.getItemIndex() };
	return records.map((record) => ({
		json: decode ? decodeJsonFields(record) : record,
		pairedItem,
	}));
}

/**
 * The postReceive of every declarative operation: reads the envelope (errors become NodeApiError
 * with the API's text) and outputs the payload found under `shape`. `adjust` lets a resource
 * normalise its records (for example a subscriber email sent as the string "null").
 */
export function unwrap(
	shape: PayloadShape = 'message',
	adjust?: (record: IDataObject) => IDataObject,
): PostReceiveAction {
	return async function (this: IExecuteSingleFunctions, _items, response: IN8nHttpFullResponse) {
		const envelope = await envelopeOf.call(this, response, this.getItemIndex());
		const records = payloadRecords(envelope, shape);
		return toOutputItems(this, adjust ? records.map(adjust) : records);
	};
}
