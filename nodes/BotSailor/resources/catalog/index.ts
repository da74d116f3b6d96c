import { resource } from '../resource';
import { getMany } from './getMany';
import { sync } from './sync';

export const catalogDescription = resource('catalog', [getMany, sync], { default: 'getMany' });
