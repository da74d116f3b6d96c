import { resource } from '../resource';
import { catalogGetManyOperation } from './getMany';
import { syncOperation } from './sync';

export const catalogDescription = resource('catalog', [catalogGetManyOperation, syncOperation], {
	default: 'getMany',
});
