import { resource } from '../resource';
import { createOperation } from './create';
import { getManyOperation } from './getMany';

export const noteDescription = resource('note', [createOperation, getManyOperation], {
	default: 'create',
});
