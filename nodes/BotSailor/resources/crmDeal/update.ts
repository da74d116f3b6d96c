import { inputs, z } from '../../../shared/parameters/inputs';
import type { OperationDescription } from '../resource';
import { dateField, updateFields, whatsAppNumber } from '../common';
import { subscriberLocator, subscriberWrite } from '../shared/subscriber';

const body = (property: string) => ({ send: { type: 'body' as const, property } });

export const crmDealUpdateOperation: OperationDescription = {
	kind: 'write',
	toolDescription:
		'Create or update the CRM deal (sales opportunity) of a WhatsApp subscriber: its title (what they want to buy), lead score (hot: ready to buy, warm: interested, cold: just asking) and the other fields set in this tool. One deal per subscriber: calling it again updates the same deal. Sends nothing to them.',
	option: {
		name: 'Update',
		value: 'update',
		action: 'Create or update the CRM deal of a subscriber',
		routing: subscriberWrite('/whatsapp/subscriber/crm/update', {
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
	},
	fields: [
		whatsAppNumber(),
		subscriberLocator(),
		updateFields(
			[
				{
					displayName: 'Currency',
					name: 'currency',
					type: 'string',
					default: '',
					placeholder: 'e.g. USD',
					routing: body('currency'),
				},
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
					typeOptions: {
						loadOptionsMethod: 'getCrmPipelines',
						loadOptionsDependsOn: ['phoneNumberId.value', 'subscriber.value'],
					},
					routing: body('pipeline_id'),
				},
				{
					displayName: 'Source',
					name: 'source',
					type: 'string',
					default: '',
					placeholder: 'e.g. Instagram ad',
					routing: body('source'),
				},
				{
					displayName: 'Stage Name or ID',
					name: 'stageId',
					type: 'options',
					default: '',
					description:
						'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
					hint: 'Stages seen in the deals of this subscriber and of the number’s recently active subscribers, of the chosen pipeline (the platform has no stage list)',
					typeOptions: {
						loadOptionsMethod: 'getCrmStages',
						loadOptionsDependsOn: [
							'phoneNumberId.value',
							'subscriber.value',
							'updateFields.pipelineId',
						],
					},
					routing: body('stage_id'),
				},
				{
					displayName: 'Title',
					name: 'title',
					type: 'string',
					default: '',
					routing: body('title'),
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'number',
					default: 0,
					typeOptions: { numberPrecision: 2 },
					routing: body('value'),
				},
			],
			'Fields of the deal to set; the deal is created when the subscriber has none',
		),
	],
};
