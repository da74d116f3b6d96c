import { inputs } from '../../shared/inputs';
import { subscriberField } from '../common';

/** The subscriber an operation acts on: from the number's subscribers, or typed as a phone number. Sent as `phone_number`. */
export const subscriberLocator = (resource: string, operations: string[]) => subscriberField(resource, operations, 'subscriber');

/** The body fields every subscriber operation has, for `validateBody`. */
export const subscriberKeys = {
	phone_number_id: inputs.required.describe('WhatsApp Number'),
	phone_number: inputs.phoneNumber.describe('Subscriber'),
};
