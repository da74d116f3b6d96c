import type { INodeProperties } from 'n8n-workflow';
import { inputs, validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';
import { paginate } from '../../shared/pagination';
import { returnAllAndLimit, showFor, subscriberPhoneNumber, whatsAppNumber } from '../common';
import { customFieldsBody } from './customFields';
import { subscriberKeys, subscriberLocator } from './locator';

const resource = 'subscriber';

const CONVERSATION_ACTIONS = ['resolved', 'reopen', 'archived', 'unarchived', 'blocked', 'unblocked'] as const;

/** `custom_fields`: a JSON object of field name → value (picked fields arrive as an object, typed JSON as text). */
const customFieldsJson = z
	.preprocess(
		(value) => {
			if (typeof value !== 'string') return value;
			try {
				return JSON.parse(value);
			} catch {
				return Symbol.for('invalid-json');
			}
		},
		z.record(z.string(), z.unknown(), { message: 'must be a JSON object of field name → value, e.g. {"city": "Paris"}' }),
	)
	.refine(
		(object) => Object.keys(object).length > 0,
		'must set at least one field: pick a field, or type a JSON object such as {"city": "Paris"}',
	)
	.transform((object) => JSON.stringify(object));

/** A write on one subscriber: the confirmation text is the output. */
function write(url: string, extra: z.ZodRawShape = {}, preSend: Array<ReturnType<typeof validateBody>> = []) {
	return {
		request: { url },
		send: { preSend: [...preSend, validateBody(z.object({ ...subscriberKeys, ...extra }))] },
		output: { postReceive: [unwrap('confirmation')] },
	};
}

export const subscriberOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: [
		{
			name: 'Add Labels',
			value: 'addLabels',
			action: 'Add labels to a subscriber',
			routing: write('/whatsapp/subscriber/chat/assign-labels', { label_ids: inputs.idList.describe('Labels') }),
		},
		{
			name: 'Add to Sequences',
			value: 'addToSequences',
			action: 'Add a subscriber to sequences',
			routing: write('/whatsapp/subscriber/chat/assign-sequence', { sequence_ids: inputs.idList.describe('Sequences') }),
		},
		{
			name: 'Assign to Team Member',
			value: 'assignToTeamMember',
			action: 'Assign a subscriber conversation to a team member',
			routing: write('/whatsapp/subscriber/chat/assign-to-team-member', { team_member_id: inputs.integer.describe('Team Member') }),
		},
		{
			name: 'Create',
			value: 'create',
			action: 'Create a subscriber',
			routing: {
				request: { url: '/whatsapp/subscriber/create' },
				// The only endpoint with camelCase fields (spec: Subscriber create).
				send: {
					preSend: [
						validateBody(
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
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete a subscriber',
			routing: write('/whatsapp/subscriber/delete'),
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a subscriber',
			routing: {
				request: { url: '/whatsapp/subscriber/get' },
				send: { preSend: [validateBody(z.object(subscriberKeys))] },
				output: { postReceive: [unwrap('message')] },
			},
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many subscribers',
			routing: {
				request: { url: '/whatsapp/subscriber/list' },
				send: {
					preSend: [
						validateBody(
							z.object({
								phone_number_id: subscriberKeys.phone_number_id,
								orderBy: inputs.flag.describe('Order By').optional(),
							}),
						),
					],
				},
				operations: { pagination: paginate(100, { unpaginatedInEarlierForm: true }) },
			},
		},
		{
			name: 'Remove From Sequences',
			value: 'removeFromSequences',
			action: 'Remove a subscriber from sequences',
			routing: write('/whatsapp/subscriber/chat/remove-sequence', { sequence_ids: inputs.idList.describe('Sequences') }),
		},
		{
			name: 'Remove Labels',
			value: 'removeLabels',
			action: 'Remove labels from a subscriber',
			routing: write('/whatsapp/subscriber/chat/remove-labels', { label_ids: inputs.idList.describe('Labels') }),
		},
		{
			name: 'Reset Input Flow',
			value: 'resetInputFlow',
			action: 'Reset the input flow of a subscriber',
			routing: write('/whatsapp/subscriber/reset/user-input-flow'),
		},
		{
			name: 'Set Conversation Status',
			value: 'setConversationStatus',
			action: 'Set the conversation status of a subscriber',
			routing: write('/whatsapp/subscriber/chat/mark-conversation', { action: inputs.oneOf(CONVERSATION_ACTIONS).describe('Status') }),
		},
		{
			name: 'Set Custom Fields',
			value: 'setCustomFields',
			action: 'Set custom fields of a subscriber',
			routing: write('/whatsapp/subscriber/chat/assign-custom-fields', { custom_fields: customFieldsJson.describe('Custom Fields') }, [customFieldsBody]),
		},
		{
			name: 'Update',
			value: 'update',
			action: 'Update a subscriber',
			routing: write('/whatsapp/subscriber/update', {
				first_name: z.string().describe('First Name').optional(),
				last_name: z.string().describe('Last Name').optional(),
				gender: inputs.oneOf(['female', 'male', 'other']).describe('Gender').optional(),
				label_ids: inputs.idList.describe('Labels').optional(),
			}),
		},
	],
	default: 'get',
};

const onOne = [
	'addLabels', 'addToSequences', 'assignToTeamMember', 'delete', 'get', 'removeFromSequences', 'removeLabels',
	'resetInputFlow', 'setConversationStatus', 'setCustomFields', 'update',
];

const fields: INodeProperties[] = [
	whatsAppNumber(resource, [...onOne, 'getMany']),
	whatsAppNumber(resource, ['create'], 'phoneNumberID'),
	subscriberLocator(resource, onOne),
	// The one endpoint with camelCase fields (spec: subscriber create); the user fills the same fields as elsewhere.
	subscriberPhoneNumber(resource, ['create'], 'phoneNumber'),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Jane Doe',
		description: 'The contact’s full name',
		displayOptions: showFor(resource, ['create']),
		routing: { send: { type: 'body', property: 'name' } },
	},
	{
		displayName: 'Label Names or IDs',
		name: 'labelIds',
		type: 'multiOptions',
		default: [],
		required: true,
		description:
			'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		typeOptions: { loadOptionsMethod: 'getLabels', loadOptionsDependsOn: ['phoneNumberId.value'] },
		displayOptions: showFor(resource, ['addLabels', 'removeLabels']),
		routing: { send: { type: 'body', property: 'label_ids' } },
	},
	{
		displayName: 'Sequence Names or IDs',
		name: 'sequenceIds',
		type: 'multiOptions',
		default: [],
		required: true,
		description:
			'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		typeOptions: { loadOptionsMethod: 'getSequences', loadOptionsDependsOn: ['phoneNumberId.value'] },
		displayOptions: showFor(resource, ['addToSequences', 'removeFromSequences']),
		routing: { send: { type: 'body', property: 'sequence_ids' } },
	},
	{
		displayName: 'Team Member',
		name: 'teamMember',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The team member who takes over the conversation',
		displayOptions: showFor(resource, ['assignToTeamMember']),
		modes: [
			{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod: 'searchTeamMembers', searchable: true } },
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 501' },
		],
		routing: { send: { type: 'body', property: 'team_member_id' } },
	},
	{
		displayName: 'Status',
		name: 'conversationAction',
		type: 'options',
		default: 'resolved',
		required: true,
		description: 'What to do with the conversation',
		displayOptions: showFor(resource, ['setConversationStatus']),
		options: [
			{ name: 'Archived', value: 'archived' },
			{ name: 'Blocked', value: 'blocked' },
			{ name: 'Reopened', value: 'reopen' },
			{ name: 'Resolved', value: 'resolved' },
			{ name: 'Unarchived', value: 'unarchived' },
			{ name: 'Unblocked', value: 'unblocked' },
		],
		routing: { send: { type: 'body', property: 'action' } },
	},
	{
		displayName: 'Input Mode',
		name: 'customFieldsMode',
		type: 'options',
		default: 'pick',
		displayOptions: showFor(resource, ['setCustomFields']),
		options: [
			{ name: 'Pick Fields', value: 'pick', description: 'Choose custom fields from the account’s list and set their values' },
			{ name: 'JSON', value: 'json', description: 'Type a JSON object of field name → value' },
		],
	},
	{
		displayName: 'Custom Fields',
		name: 'customFieldsUi',
		type: 'fixedCollection',
		placeholder: 'Add Custom Field',
		default: {},
		typeOptions: { multipleValues: true },
		displayOptions: { show: { resource: [resource], operation: ['setCustomFields'], customFieldsMode: ['pick'] } },
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Field Name or ID',
						name: 'name',
						type: 'options',
						default: '',
						description:
							'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
						typeOptions: { loadOptionsMethod: 'getCustomFields' },
					},
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	{
		displayName: 'Custom Fields (JSON)',
		name: 'customFieldsJson',
		type: 'json',
		// Never sample data as the default: run unedited, it would overwrite the subscriber's fields.
		default: '{}',
		description: 'An object mapping custom field names to values',
		hint: 'For example {"city": "Paris", "plan": "gold"}: field names as listed under Custom Field → Get Many',
		displayOptions: { show: { resource: [resource], operation: ['setCustomFields'], customFieldsMode: ['json'] } },
	},
	...returnAllAndLimit(resource, ['getMany']),
	{
		displayName: 'Order By',
		name: 'orderBy',
		type: 'options',
		default: '0',
		description: 'Ignored by deployments on the earlier API form',
		displayOptions: showFor(resource, ['getMany']),
		options: [
			{ name: 'Default Order', value: '0' },
			{ name: 'Most Recent Message First', value: '1' },
		],
		routing: { send: { type: 'body', property: 'orderBy' } },
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor(resource, ['update']),
		options: [
			{ displayName: 'First Name', name: 'firstName', type: 'string', default: '', routing: { send: { type: 'body', property: 'first_name' } } },
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
			{
				displayName: 'Label Names or IDs',
				name: 'labelIds',
				type: 'multiOptions',
				default: [],
				description:
					'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
				hint: 'Replaces the subscriber’s labels',
				typeOptions: { loadOptionsMethod: 'getLabels', loadOptionsDependsOn: ['phoneNumberId.value'] },
				routing: { send: { type: 'body', property: 'label_ids' } },
			},
			{ displayName: 'Last Name', name: 'lastName', type: 'string', default: '', routing: { send: { type: 'body', property: 'last_name' } } },
		],
	},
];

export const subscriberDescription: INodeProperties[] = [subscriberOperations, ...fields];
