import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

/** Accepts `https://host`, `https://host/` and `https://host/api/v1/` alike. */
export function apiBaseUrl(baseUrl: unknown): string {
	const root = String(baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/api\/v1$/i, '');
	return `${root}/api/v1`;
}

function isJsonRequest(options: IHttpRequestOptions): boolean {
	const contentType = Object.entries(options.headers ?? {}).find(
		([name]) => name.toLowerCase() === 'content-type',
	)?.[1];
	return String(contentType ?? '').includes('application/json');
}

export class BotSailorApi implements ICredentialType {
	name = 'botSailorApi';

	displayName = 'BotSailor API';

	icon: Icon = { light: 'file:../icons/botsailor.svg', dark: 'file:../icons/botsailor.dark.svg' };

	documentationUrl = 'https://github.com/botsailor/n8n-nodes-botsailor#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://botsailor.com',
			placeholder: 'https://botsailor.com',
			description:
				'Address of your BotSailor or white-label platform. A trailing slash or /api/v1 is fine.',
		},
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The API token from your platform profile (API Developer)',
		},
		{
			displayName: 'API Form',
			name: 'apiForm',
			type: 'options',
			options: [
				{
					name: 'Current',
					value: 'current',
					description: 'The interface as BotSailor publishes it today',
				},
				{
					name: 'Earlier',
					value: 'earlier',
					description:
						'Deployments still on the earlier form: label paths with a WhatsApp number, no pagination parameters, addon access type',
				},
			],
			default: 'current',
		},
	];

	/** The token goes where the API reads it, and never into a URL unless the request is a GET. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const apiToken = String(credentials.apiToken ?? '');
		const options: IHttpRequestOptions = {
			...requestOptions,
			baseURL: apiBaseUrl(credentials.baseUrl),
			headers: { ...(requestOptions.headers ?? {}) },
		};
		const method = (options.method ?? 'GET').toUpperCase();
		const body = options.body;

		if (body instanceof FormData) {
			body.set('apiToken', apiToken);
			options.headers!.Authorization = `Bearer ${apiToken}`;
		} else if (method === 'GET' || method === 'HEAD') {
			options.qs = { ...(options.qs ?? {}), apiToken };
		} else {
			const fields = body && typeof body === 'object' ? body : {};
			options.body = { ...fields, apiToken };
			if (isJsonRequest(options)) options.headers!.Authorization = `Bearer ${apiToken}`;
		}
		return options;
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: '/user/myInfo',
			method: 'POST',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'status',
					value: '0',
					message: 'The platform refused this API token. Copy it again from your profile.',
				},
			},
		],
	};
}
