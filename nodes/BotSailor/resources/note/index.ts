import { resource } from '../resource';
import { create } from './create';
import { getMany } from './getMany';

export const noteDescription = resource('note', [create, getMany], { default: 'create' });
