import { resource } from '../resource';
import { getManyOperation } from './getMany';

export const postBackDescription = resource('postBack', [getManyOperation], { default: 'getMany' });
