import { resource } from '../resource';
import { packageGetManyOperation } from './getMany';

export const packageDescription = resource('package', [packageGetManyOperation], {
	default: 'getMany',
});
