import { resource } from '../resource';
import { addonCreateOperation } from './create';
import { addonGetManyOperation } from './getMany';
import { addonUpdateOperation } from './update';

export const addonDescription = resource(
	'addon',
	[addonCreateOperation, addonGetManyOperation, addonUpdateOperation],
	{
		default: 'getMany',
	},
);
