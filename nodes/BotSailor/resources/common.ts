import type { INodeProperties, INodePropertyRouting, PreSendAction } from 'n8n-workflow';
import { whatsAppNumberLocator } from '../../shared/whatsapp/whatsAppNumber';
import { unwrap } from '../running/outputItems';

/**
 * Properties repeated across resources, built in one place. Each builder returns a field without the
 * resource/operation displayOptions: an operation file lists it, and resources/resource.ts scopes it.
 */

/** Return All / Limit for a list read page by page (the record's `list`, or its own code through requestedLimit). */
export function returnAllAndLimit(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1 },
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** The "Options" collection with "Decode JSON Fields", for operations whose output has JSON strings. */
export function decodeJsonOption(): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Decode JSON Fields',
				name: 'decodeJsonFields',
				type: 'boolean',
				default: true,
				description:
					'Whether to turn fields the API sends as JSON text (for example message_content or variable_map) into objects',
			},
		],
	};
}

/** The WhatsApp number (phone_number_id) an operation acts on: from the account's list, by ID, or an expression. */
export function whatsAppNumber(property = 'phone_number_id'): INodeProperties {
	return { ...whatsAppNumberLocator(), routing: { send: { type: 'body', property } } };
}

/** The WhatsApp number of a send: the send's build reads the parameter and makes the body, so no routing. */
export const sendNumber = () => whatsAppNumberLocator();

/**
 * A subscriber, named by phone number: picked from the searchable list, or typed (an expression too).
 * Every operation that names a subscriber uses it; sends and conversations call it phoneNumber, so
 * workflows that typed a number there keep working. Without routing: see subscriberField.
 */
export function subscriberPicker(name: 'subscriber' | 'phoneNumber'): INodeProperties {
	return {
		displayName: 'Subscriber',
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The contact, identified by their phone number with country code',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchSubscribers', searchable: true },
			},
			{
				displayName: 'Phone',
				name: 'phone',
				type: 'string',
				placeholder: 'e.g. +44 7700 900123',
				hint: 'Country code first; spaces, +, - and brackets are removed before sending',
			},
		],
	};
}

/** The subscriber picker of an operation run by its routing: sent as `phone_number`. */
export function subscriberField(name: 'subscriber' | 'phoneNumber'): INodeProperties {
	return {
		...subscriberPicker(name),
		routing: { send: { type: 'body', property: 'phone_number' } },
	};
}

/** The subscriber a message goes to (conversations, Send and Wait). */
export const recipient = () => subscriberField('phoneNumber');

/** The subscriber a send goes to: the send's build reads the parameter and makes the body, so no routing. */
export const sendRecipient = () => subscriberPicker('phoneNumber');

/** A new subscriber's phone number typed as people write it; the operation's schema sends digits only. */
export function subscriberPhoneNumber(property = 'phone_number'): INodeProperties {
	return {
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. +44 7700 900123',
		description:
			"The subscriber's number with country code; spaces, +, dashes and brackets are removed before sending",
		routing: { send: { type: 'body', property } },
	};
}

/** A calendar date from n8n's date picker (an expression or typed YYYY-MM-DD works too), sent as YYYY-MM-DD. */
export function dateField(
	displayName: string,
	name: string,
	property: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		displayName,
		name,
		type: 'dateTime',
		default: '',
		routing: { send: { type: 'body', property } },
		...extra,
		description: `${extra.description ?? displayName}. Sent as YYYY-MM-DD.`,
	};
}

/** Active / inactive, sent as `status` "1" / "0" (users, addon purchases). */
export const activeStatus: INodeProperties = {
	displayName: 'Status',
	name: 'status',
	type: 'options',
	options: [
		{ name: 'Active', value: '1' },
		{ name: 'Inactive', value: '0' },
	],
	default: '1',
	routing: { send: { type: 'body', property: 'status' } },
};

/** The routing of a write: the body checked by the preSend steps, the API's confirmation text as the output. */
export function confirmed(url: string, ...preSend: PreSendAction[]): INodePropertyRouting {
	return { request: { url }, send: { preSend }, output: { postReceive: [unwrap('confirmation')] } };
}

/** The "Update Fields" collection of an update operation: only the fields the user adds are sent. */
export function updateFields(options: INodeProperties[], description?: string): INodeProperties {
	return {
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		...(description ? { description } : {}),
		options,
	};
}
