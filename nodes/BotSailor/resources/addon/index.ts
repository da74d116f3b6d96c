import { resource } from '../resource';
import { createOperation } from './create';
import { getManyOperation } from './getMany';
import { updateOperation } from './update';

export const addonDescription = resource(
	'addon',
	[createOperation, getManyOperation, updateOperation],
	{
		default: 'getMany',
	},
);
