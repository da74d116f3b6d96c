import type { IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { refuse } from '../../../shared/parameters/inputs';
import { requestBody } from '../../../shared/parameters/values';

/**
 * The expiry of an addon purchase update: unchanged, a date, or unlimited. The API reads an
 * empty `expired_date` as unlimited, so that choice sends the field empty on purpose.
 */
export async function expiryChoice(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
) {
	const body = { ...requestBody(requestOptions) };
	const choice = this.getNodeParameter('expiry', 'keep') as string;
	if (choice === 'unlimited') body.expired_date = '';
	else if (choice === 'keep') delete body.expired_date;
	else if (body.expired_date === undefined || String(body.expired_date).trim() === '') {
		refuse(this, 'Expiry Date is required', 'Give a date as YYYY-MM-DD, or choose Unlimited.');
	}
	return { ...requestOptions, body };
}
