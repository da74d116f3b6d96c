import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { listSearch } from './methods/listSearch';
import { loadOptions } from './methods/loadOptions';
import { FORM_CONTENT_TYPE } from './shared/request';
import { catalogDescription } from './resources/catalog';
import { catalogOrderDescription } from './resources/catalogOrder';
import { crmDealDescription } from './resources/crmDeal';
import { customFieldDescription } from './resources/customField';
import { labelDescription } from './resources/label';
import { noteDescription } from './resources/note';
import { sequenceDescription } from './resources/sequence';
import { subscriberDescription } from './resources/subscriber';
import { userDescription } from './resources/user';

export class BotSailor implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'BotSailor',
		name: 'botSailor',
		icon: { light: 'file:../../icons/botsailor.svg', dark: 'file:../../icons/botsailor.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Send WhatsApp messages and manage subscribers, templates, CRM, catalogs and resellers on BotSailor',
		defaults: { name: 'BotSailor' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'botSailorApi', required: true }],
		requestDefaults: {
			baseURL: '={{ $credentials.baseUrl }}',
			method: 'POST',
			headers: { 'Content-Type': FORM_CONTENT_TYPE, Accept: 'application/json' },
			ignoreHttpStatusErrors: true,
		},
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Catalog', value: 'catalog' },
					{ name: 'Catalog Order', value: 'catalogOrder' },
					{ name: 'CRM Deal', value: 'crmDeal' },
					{ name: 'Custom Field', value: 'customField' },
					{ name: 'Label', value: 'label' },
					{ name: 'Note', value: 'note' },
					{ name: 'Sequence', value: 'sequence' },
					{ name: 'Subscriber', value: 'subscriber' },
					{ name: 'User', value: 'user' },
				],
				default: 'user',
			},
			...userDescription,
			...catalogDescription,
			...catalogOrderDescription,
			...crmDealDescription,
			...customFieldDescription,
			...labelDescription,
			...noteDescription,
			...sequenceDescription,
			...subscriberDescription,
		],
	};

	methods = { listSearch, loadOptions };
}
