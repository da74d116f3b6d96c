import { resource } from '../resource';
import { getManyOperation } from './getMany';
import { syncOperation } from './sync';

export const catalogDescription = resource('catalog', [getManyOperation, syncOperation], {
	default: 'getMany',
});
