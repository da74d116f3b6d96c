import { resource } from '../resource';
import { catalogOrderGetManyOperation } from './getMany';
import { updateStatusOperation } from './updateStatus';

export const catalogOrderDescription = resource(
	'catalogOrder',
	[catalogOrderGetManyOperation, updateStatusOperation],
	{
		default: 'getMany',
	},
);
