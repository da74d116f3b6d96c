import type {
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	PreSendAction,
} from 'n8n-workflow';
import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { usesEarlierForm } from '../../../shared/http/transport';
import { whatsAppNumber } from '../common';
import { requestBody } from '../../../shared/parameters/values';

/**
 * Label paths differ by API form (spec: Labels, Versioning): the current form is account-wide
 * (`/label/...`), the earlier form sits under `/whatsapp/label/...` and needs `phone_number_id`.
 * The credential's API Form picks the path; the body is then validated for that form.
 */
export function labelForm(fields: z.ZodRawShape): PreSendAction {
	const current = validateBody(() => z.object(fields));
	const earlier = validateBody(() =>
		z.object({ phone_number_id: inputs.required.describe('WhatsApp Number'), ...fields }),
	);
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		if (!(await usesEarlierForm(this))) return await current.call(this, requestOptions);
		const phoneNumberId = this.getNodeParameter('phoneNumberId', '', {
			extractValue: true,
		}) as string;
		const body = { ...requestBody(requestOptions), phone_number_id: phoneNumberId };
		return await earlier.call(this, {
			...requestOptions,
			url: `/whatsapp${requestOptions.url}`,
			body,
		});
	};
}

/** The WhatsApp Number, sent only on deployments with the earlier API form, where labels belong to a number. */
export function earlierFormNumber(): INodeProperties {
	return {
		...whatsAppNumber(),
		required: false,
		routing: undefined,
		description:
			'Only used when the credential’s API Form is Earlier (labels belonged to a number then); current deployments ignore it',
	};
}
