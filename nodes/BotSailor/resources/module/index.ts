import { resource } from '../resource';
import { getMany } from './getMany';

export const moduleDescription = resource('module', [getMany], { default: 'getMany' });
