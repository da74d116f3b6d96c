import type { PreSendAction } from 'n8n-workflow';
import { subscriberKeys, validateBody, z } from '../../../shared/parameters/inputs';
import { confirmed, subscriberField } from '../common';

/** The one subscriber an operation acts on (Subscriber, CRM Deal and Note operations): its field, its checked keys, a write on it. */

/** The subscriber an operation acts on: from the number's subscribers, or typed as a phone number. Sent as `phone_number`. */
export const subscriberLocator = () => subscriberField('subscriber');

/** A write on one subscriber: the number and subscriber plus `extra` checked, the confirmation text as the output. */
export function subscriberWrite(
	url: string,
	extra: z.ZodRawShape = {},
	preSend: PreSendAction[] = [],
) {
	return confirmed(
		url,
		...preSend,
		validateBody(() => z.object({ ...subscriberKeys, ...extra })),
	);
}
