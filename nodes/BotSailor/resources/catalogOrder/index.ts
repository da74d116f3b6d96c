import { resource } from '../resource';
import { getManyOperation } from './getMany';
import { updateStatusOperation } from './updateStatus';

export const catalogOrderDescription = resource(
	'catalogOrder',
	[getManyOperation, updateStatusOperation],
	{
		default: 'getMany',
	},
);
