import { resource } from '../resource';
import { createOperation } from './create';
import { getManyOperation } from './getMany';

export const labelDescription = resource('label', [createOperation, getManyOperation], {
	default: 'getMany',
});
