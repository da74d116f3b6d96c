import { resource } from '../resource';
import { getMany } from './getMany';
import { updateStatus } from './updateStatus';

export const catalogOrderDescription = resource('catalogOrder', [getMany, updateStatus], {
	default: 'getMany',
});
