import { resource } from '../resource';
import { getManyOperation } from './getMany';

export const packageDescription = resource('package', [getManyOperation], { default: 'getMany' });
