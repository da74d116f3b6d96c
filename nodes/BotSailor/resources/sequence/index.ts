import { resource } from '../resource';
import { getMany } from './getMany';

export const sequenceDescription = resource('sequence', [getMany], { default: 'getMany' });
