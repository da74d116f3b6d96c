import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';
import {
	authenticatedRequest,
	DEFAULT_RATE_LIMIT_BUDGET_SECONDS,
	DEFAULT_SENDS_IN_FLIGHT,
	MAX_SENDS_IN_FLIGHT,
} from '../nodes/shared/http/credential';
import { DEFAULT_PLATFORM_TIME_ZONE } from '../nodes/shared/http/platformTime';

/**
 * No `test` here: the nodes test this credential (testedBy → nodes/shared/http/credentialTest.ts), because n8n prefers a
 * credential's own `test` to a node's and words none of a declarative test's connection failures (ENOTFOUND).
 */
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
			placeholder: 'e.g. https://botsailor.com or wa.youragency.com',
			description:
				'The address you open your BotSailor or white-label dashboard at. https:// is added when missing; a trailing slash or /api/v1 is fine.',
			hint: 'Copy it from the browser’s address bar when logged in to your platform, for example botsailor.com or app.youragency.com',
		},
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The API token from your platform profile (API Developer)',
			hint: 'On your platform: profile menu → API Developer → copy the API token',
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
			description:
				'Which form of the API your deployment runs. BotSailor itself and up-to-date white-label platforms run Current.',
			hint: 'Not sure? Keep Current and save (the test passes on both forms), then run BotSailor → Label → Get Many: if it fails with a not-found error or a web page instead of data, choose Earlier. Your platform’s API documentation tells too: label endpoints under /whatsapp/label/ mean Earlier.',
		},
		{
			displayName: 'Platform Time Zone',
			name: 'platformTimeZone',
			type: 'string',
			default: DEFAULT_PLATFORM_TIME_ZONE,
			placeholder: 'e.g. Asia/Dhaka',
			description:
				'The time zone your platform writes conversation times in (its server’s): the API gives times without a zone. The node uses it where it compares a platform time with the clock, such as the 24-hour window.',
			hint: 'An IANA name such as UTC, Europe/Berlin or Asia/Dhaka. To find it: send yourself a message, then compare its time in Message → Get Many with your clock.',
		},
		{
			displayName: 'Max Sends in Flight',
			name: 'maxSendsInFlight',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_SENDS_IN_FLIGHT, numberPrecision: 0 },
			default: DEFAULT_SENDS_IN_FLIGHT,
			description:
				'The most messages n8n sends to this account at the same moment. n8n starts at 6 and finds the platform’s pace by itself: more while the platform keeps up, fewer at once when it answers “too many requests”. The others wait a moment for their turn, so no message is lost.',
			hint: 'Keep 24 (80 messages a second at a usual round trip, WhatsApp’s default per number). Several n8n workers? See the README, Queue mode.',
		},
		{
			displayName: 'Rate Limit Wait Budget (Seconds)',
			name: 'rateLimitBudgetSeconds',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: DEFAULT_RATE_LIMIT_BUDGET_SECONDS,
			description:
				'The most time one run of a send spends waiting for the platform’s rate limit (“too many requests”) to pass, all its messages together. When it is used up, the messages not sent yet are reported as not sent, with the reason, instead of waiting on.',
		},
	];

	/** The token goes where the API reads it, and never into a URL unless the request is a GET. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return authenticatedRequest(credentials, requestOptions);
	}
}
