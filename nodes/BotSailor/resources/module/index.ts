import { resource } from '../resource';
import { getManyOperation } from './getMany';

export const moduleDescription = resource('module', [getManyOperation], { default: 'getMany' });
