import { inputs, z } from '../../../shared/parameters/inputs';
import type { OperationDescription } from '../resource';
import { updateFields, whatsAppNumber } from '../common';
import { subscriberLocator, subscriberWrite } from '../shared/subscriber';
import { idList } from './fields';

export const subscriberUpdateOperation: OperationDescription = {
	kind: 'write',
	toolDescription:
		"Change a WhatsApp subscriber's first name, last name or gender, for example after they tell you their name. Sends nothing to them.",
	option: {
		name: 'Update',
		value: 'update',
		action: 'Update a subscriber',
		routing: subscriberWrite('/whatsapp/subscriber/update', {
			first_name: z.string().describe('First Name').optional(),
			last_name: z.string().describe('Last Name').optional(),
			gender: inputs.oneOf(['female', 'male', 'other']).describe('Gender').optional(),
			label_ids: inputs.idList.describe('Labels').optional(),
		}),
	},
	fields: [
		whatsAppNumber(),
		subscriberLocator(),
		updateFields([
			{
				displayName: 'First Name',
				name: 'firstName',
				type: 'string',
				default: '',
				routing: { send: { type: 'body', property: 'first_name' } },
			},
			{
				displayName: 'Gender',
				name: 'gender',
				type: 'options',
				default: 'male',
				options: [
					{ name: 'Female', value: 'female' },
					{ name: 'Male', value: 'male' },
					{ name: 'Other', value: 'other' },
				],
				routing: { send: { type: 'body', property: 'gender' } },
			},
			idList('label', { hint: 'Replaces the subscriber’s labels' }),
			{
				displayName: 'Last Name',
				name: 'lastName',
				type: 'string',
				default: '',
				routing: { send: { type: 'body', property: 'last_name' } },
			},
		]),
	],
};
