import type { INodeProperties } from 'n8n-workflow';

/**
 * Resource locators of the user group (From List / By ID, plus By Email for users), each sent as
 * one body field. Typed values and expressions still work in every mode.
 */
interface LocatorOptions {
	displayName: string;
	name: string;
	/** The spec's field name. */
	property: string;
	searchMethod: string;
	description: string;
	idPlaceholder: string;
	idPattern?: string;
	withEmail?: boolean;
	required?: boolean;
	displayOptions?: INodeProperties['displayOptions'];
}

/** The spec's user `id` also takes an email. */
const EMAIL_MODE = {
	displayName: 'By Email',
	name: 'email',
	type: 'string' as const,
	placeholder: 'e.g. jane@example.com',
};

export function locator(options: LocatorOptions): INodeProperties {
	const property: INodeProperties = {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: options.required,
		description: options.description,
		displayOptions: options.displayOptions,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: options.searchMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: options.idPlaceholder,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: options.idPattern ?? '^\\s*\\d+\\s*$',
							errorMessage: 'Not a valid ID',
						},
					},
				],
			},
		],
		routing: { send: { type: 'body', property: options.property } },
	};
	if (options.withEmail) property.modes?.push(EMAIL_MODE);
	return property;
}

type Placement = Pick<
	LocatorOptions,
	'name' | 'property' | 'required' | 'displayOptions' | 'withEmail'
> & { displayName?: string; description?: string };

export const userLocator = (placement: Placement) =>
	locator({
		displayName: 'User',
		description: 'The platform user (a client account you manage)',
		searchMethod: 'searchUsers',
		idPlaceholder: 'e.g. 105',
		// The spec's user `id` also takes an email; `user_id` fields take digits only.
		withEmail: placement.property === 'id',
		...placement,
	});

export const packageLocator = (placement: Placement) =>
	locator({
		displayName: 'Package',
		description: 'The subscription package (plan) of the user',
		searchMethod: 'searchPackages',
		idPlaceholder: 'e.g. 2',
		...placement,
	});

export const moduleLocator = (placement: Placement) =>
	locator({
		displayName: 'Module',
		description: 'The platform feature the addon extends',
		searchMethod: 'searchModules',
		idPlaceholder: 'e.g. 9',
		...placement,
	});

export const addonLocator = (placement: Placement & { withVariations?: boolean }) => {
	const { withVariations, ...rest } = placement;
	return locator({
		displayName: 'Addon',
		description: withVariations
			? 'The addon, or one of its variations (ID written <addon ID>-<variation index>, the first variation is 0)'
			: 'The addon',
		searchMethod: withVariations ? 'searchAddonsAndVariations' : 'searchAddons',
		idPlaceholder: withVariations ? 'e.g. 4 or 4-0' : 'e.g. 4',
		idPattern: withVariations ? '^\\s*\\d+(-\\d+)?\\s*$' : undefined,
		...rest,
	});
};

export const addonPurchaseLocator = (placement: Placement) =>
	locator({
		displayName: 'Addon Purchase',
		description: 'The addon assigned to a user (the purchase ID from Addon Purchase → Get Many)',
		searchMethod: 'searchAddonPurchases',
		idPlaceholder: 'e.g. 903',
		...placement,
	});
