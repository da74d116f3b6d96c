import { resource } from '../resource';
import { postBackGetManyOperation } from './getMany';

export const postBackDescription = resource('postBack', [postBackGetManyOperation], {
	default: 'getMany',
});
