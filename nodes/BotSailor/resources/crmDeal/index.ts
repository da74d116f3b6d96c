import type { INodeProperties } from 'n8n-workflow';
import { inputs, validateBody, z } from '../../shared/inputs';
import { unwrap } from '../../shared/output';
import { dateField, showFor, whatsAppNumber } from '../common';
import { subscriberKeys, subscriberLocator } from '../subscriber/locator';

const resource = 'crmDeal';

export const crmDealOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: [
		{
			name: 'Get',
			value: 'get',
			action: 'Get the CRM deal of a subscriber',
			description: 'Get the deal overview; has_deal is false when the subscriber has none yet',
			routing: {
				request: { url: '/whatsapp/subscriber/crm/get' },
				send: { preSend: [validateBody(z.object(subscriberKeys))] },
				output: { postReceive: [unwrap('message')] },
			},
		},
		{
			name: 'Update',
			value: 'update',
			action: 'Create or update the CRM deal of a subscriber',
			routing: {
				request: { url: '/whatsapp/subscriber/crm/update' },
				send: {
					preSend: [
						validateBody(
							z.object({
								...subscriberKeys,
								title: z.string().describe('Title').optional(),
								pipeline_id: inputs.integer.describe('Pipeline').optional(),
								stage_id: inputs.integer.describe('Stage').optional(),
								value: inputs.number.describe('Value').optional(),
								currency: z.string().trim().toUpperCase().describe('Currency').optional(),
								expected_close_date: inputs.date.describe('Expected Close Date').optional(),
								owner_user_id: inputs.integer.describe('Owner').optional(),
								lead_score: inputs.oneOf(['hot', 'warm', 'cold']).describe('Lead Score').optional(),
								source: z.string().describe('Source').optional(),
							}),
						),
					],
				},
				output: { postReceive: [unwrap('confirmation')] },
			},
		},
	],
	default: 'get',
};

const body = (property: string) => ({ send: { type: 'body' as const, property } });

export const crmDealDescription: INodeProperties[] = [
	crmDealOperations,
	whatsAppNumber(resource, ['get', 'update']),
	subscriberLocator(resource, ['get', 'update']),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Fields of the deal to set; the deal is created when the subscriber has none',
		displayOptions: showFor(resource, ['update']),
		options: [
			{ displayName: 'Currency', name: 'currency', type: 'string', default: '', placeholder: 'e.g. USD', routing: body('currency') },
			dateField('Expected Close Date', 'expectedCloseDate', 'expected_close_date'),
			{
				displayName: 'Lead Score',
				name: 'leadScore',
				type: 'options',
				default: 'warm',
				options: [
					// Coldest to hottest, as a marketer reads a lead score (not alphabetical).
					{ name: 'Cold', value: 'cold' },
					{ name: 'Warm', value: 'warm' },
					{ name: 'Hot', value: 'hot' },
				],
				routing: body('lead_score'),
			},
			{
				displayName: 'Owner Name or ID',
				name: 'ownerUserId',
				type: 'options',
				default: '',
				description:
					'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
				hint: 'The team member who owns the deal',
				typeOptions: { loadOptionsMethod: 'getTeamMembers' },
				routing: body('owner_user_id'),
			},
			{
				displayName: 'Pipeline Name or ID',
				name: 'pipelineId',
				type: 'options',
				default: '',
				description:
					'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
				hint: 'Pipelines seen in the deals of this subscriber and of the number’s recently active subscribers (the platform has no pipeline list)',
				typeOptions: { loadOptionsMethod: 'getCrmPipelines', loadOptionsDependsOn: ['phoneNumberId.value', 'subscriber.value'] },
				routing: body('pipeline_id'),
			},
			{ displayName: 'Source', name: 'source', type: 'string', default: '', placeholder: 'e.g. Instagram ad', routing: body('source') },
			{
				displayName: 'Stage Name or ID',
				name: 'stageId',
				type: 'options',
				default: '',
				description:
					'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
				hint: 'Stages seen in the deals of this subscriber and of the number’s recently active subscribers, of the chosen pipeline (the platform has no stage list)',
				typeOptions: { loadOptionsMethod: 'getCrmStages', loadOptionsDependsOn: ['phoneNumberId.value', 'subscriber.value', 'updateFields.pipelineId'] },
				routing: body('stage_id'),
			},
			{ displayName: 'Title', name: 'title', type: 'string', default: '', routing: body('title') },
			{ displayName: 'Value', name: 'value', type: 'number', default: 0, typeOptions: { numberPrecision: 2 }, routing: body('value') },
		],
	},
];
