import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { FORM_CONTENT_TYPE, sendRequest, type RequestContext } from '../../shared/http/transport';

/**
 * The subscriber's name as the platform knows it (Subscriber → Get), so the output says who was asked.
 * A read that gates nothing: a failure or an answer that cannot be read (an unknown number, the platform away, text,
 * `{}`, a record of another number) leaves the name out and changes nothing else.
 */
export async function recipientName(
	context: RequestContext,
	fields: IDataObject,
	/** The node's Options (timeout, proxy, certificates), as the question's send carries them. */
	defaults: Partial<IHttpRequestOptions> = {},
): Promise<string | undefined> {
	try {
		const envelope = await sendRequest.call(context, {
			timeout: 60_000,
			...defaults,
			method: 'POST',
			url: '/whatsapp/subscriber/get',
			headers: { 'Content-Type': FORM_CONTENT_TYPE, Accept: 'application/json' },
			body: { phone_number_id: fields.phone_number_id, phone_number: fields.phone_number },
		});
		const list = envelope.message;
		const entry = (Array.isArray(list) ? list[0] : list) as IDataObject | undefined;
		if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
		// An answer about another number (or none that can be read) names nobody: never the wrong person's name.
		const digits = (value: unknown) => String(value ?? '').replace(/\D/g, '');
		if (entry.chat_id !== undefined && digits(entry.chat_id) !== digits(fields.phone_number))
			return undefined;
		const name =
			typeof entry.name === 'string' && entry.name.trim()
				? entry.name
				: [entry.first_name, entry.last_name]
						.filter((part) => typeof part === 'string' && part.trim() && part !== 'null')
						.join(' ');
		return name.trim() || undefined;
	} catch {
		return undefined;
	}
}
