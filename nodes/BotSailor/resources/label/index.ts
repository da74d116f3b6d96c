import { resource } from '../resource';
import { create } from './create';
import { getMany } from './getMany';

export const labelDescription = resource('label', [create, getMany], { default: 'getMany' });
