import { resource } from '../resource';
import { getMany } from './getMany';

export const postBackDescription = resource('postBack', [getMany], { default: 'getMany' });
