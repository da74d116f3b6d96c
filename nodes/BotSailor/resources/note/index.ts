import { resource } from '../resource';
import { noteCreateOperation } from './create';
import { noteGetManyOperation } from './getMany';

export const noteDescription = resource('note', [noteCreateOperation, noteGetManyOperation], {
	default: 'create',
});
