import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { unwrap } from '../../running/outputItems';
import type { OperationDescription } from '../resource';
import { subscriberPhoneNumber, whatsAppNumber } from '../common';

export const subscriberCreateOperation: OperationDescription = {
	kind: 'write',
	toolDescription:
		'Create a WhatsApp subscriber (contact) with a phone number and a name. Sends nothing to them.',
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create a subscriber',
		routing: {
			request: { url: '/whatsapp/subscriber/create' },
			// The only endpoint with camelCase fields (spec: Subscriber create).
			send: {
				preSend: [
					validateBody(() =>
						z.object({
							phoneNumberID: inputs.required.describe('WhatsApp Number'),
							name: inputs.required.describe('Name'),
							phoneNumber: inputs.phoneNumber.describe('Phone Number'),
						}),
					),
				],
			},
			output: { postReceive: [unwrap('confirmation')] },
		},
	},
	fields: [
		whatsAppNumber('phoneNumberID'),
		// The one endpoint with camelCase fields (spec: subscriber create); the user fills the same fields as elsewhere.
		subscriberPhoneNumber('phoneNumber'),
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. Jane Doe',
			description: 'The contact’s full name',
			routing: { send: { type: 'body', property: 'name' } },
		},
	],
};
