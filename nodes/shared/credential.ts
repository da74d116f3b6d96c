import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/** The credential type of every node of the package; its fields' meaning lives here, read by the nodes and by the credential itself. */
export const CREDENTIAL_TYPE = 'botSailorApi';

/**
 * Accepts `https://host`, `https://host/`, `https://host/api/v1/` and a bare `host` alike: a
 * Base URL without a scheme is taken as `https://` (an explicit `http://` is kept).
 */
export function apiBaseUrl(baseUrl: unknown): string {
	let root = String(baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/api\/v1$/i, '');
	if (root !== '' && !/^[a-z][a-z\d+.-]*:\/\//i.test(root))
		root = `https://${root.replace(/^\/+/, '')}`;
	return `${root}/api/v1`;
}

/** The default of Max Sends in Flight: requests one n8n process sends to the account at once. */
export const DEFAULT_SENDS_IN_FLIGHT = 6;

/**
 * The credential's Max Sends in Flight as a whole number from 1 to 100; anything else (an older
 * credential without the field, an empty or invalid value) is the default.
 */
export function sendsInFlight(credentials: ICredentialDataDecryptedObject | undefined): number {
	const value = Number(credentials?.maxSendsInFlight);
	return Number.isInteger(value) && value >= 1 && value <= 100 ? value : DEFAULT_SENDS_IN_FLIGHT;
}
