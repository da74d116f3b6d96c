import type { INodeProperties } from 'n8n-workflow';
import { inputs } from '../../shared/inputs';
import { showFor } from '../common';

/** The subscriber an operation acts on: from the number's subscribers, or typed as a phone number. Sent as `phone_number`. */
export function subscriberLocator(resource: string, operations: string[]): INodeProperties {
	return {
		displayName: 'Subscriber',
		name: 'subscriber',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The contact, identified by their phone number with country code',
		displayOptions: showFor(resource, operations),
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchSubscribers', searchable: true },
			},
			{
				displayName: 'By Phone Number',
				name: 'phone',
				type: 'string',
				placeholder: 'e.g. +44 7700 900123',
				hint: 'Country code first; spaces, +, - and brackets are removed before sending',
			},
		],
		routing: { send: { type: 'body', property: 'phone_number' } },
	};
}

/** The body fields every subscriber operation has, for `validateBody`. */
export const subscriberKeys = {
	phone_number_id: inputs.required.describe('WhatsApp Number'),
	phone_number: inputs.phoneNumber.describe('Subscriber'),
};
