import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { listSearch } from './methods/listSearch';
import { FORM_CONTENT_TYPE } from './shared/request';
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
				options: [{ name: 'User', value: 'user' }],
				default: 'user',
			},
			...userDescription,
		],
	};

	methods = { listSearch };
}
