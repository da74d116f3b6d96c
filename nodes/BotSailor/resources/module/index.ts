import { resource } from '../resource';
import { moduleGetManyOperation } from './getMany';

export const moduleDescription = resource('module', [moduleGetManyOperation], {
	default: 'getMany',
});
