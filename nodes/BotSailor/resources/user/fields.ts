import type { INodeProperties } from 'n8n-workflow';
import { dateField } from '../common';
import { packageLocator } from '../shared/userGroupLocators';

/** Fields several User operations show. */

/** A text field sent as one body field. */
export const userText = (
	displayName: string,
	name: string,
	property: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	routing: { send: { type: 'body', property } },
	...extra,
});

/** The user's email (create, login links). */
export const email = () =>
	userText('Email', 'email', 'email', { required: true, placeholder: 'name@email.com' });

/** The package and expiry date of a new user (create, login links); `displayOptions` when the user may not be created. */
export function packageAndExpiry(
	expiryDescription: string,
	{
		packageDescription,
		displayOptions,
	}: { packageDescription?: string; displayOptions?: INodeProperties['displayOptions'] } = {},
): INodeProperties[] {
	return [
		packageLocator({
			name: 'package',
			property: 'package_id',
			required: true,
			displayOptions,
			...(packageDescription ? { description: packageDescription } : {}),
		}),
		dateField('Expiry Date', 'expiredDate', 'expired_date', {
			required: true,
			description: expiryDescription,
			...(displayOptions ? { displayOptions } : {}),
		}),
	];
}
