import { resource } from '../resource';
import { getMany } from './getMany';

export const packageDescription = resource('package', [getMany], { default: 'getMany' });
