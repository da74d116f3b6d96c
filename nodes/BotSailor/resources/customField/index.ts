import { resource } from '../resource';
import { getMany } from './getMany';

export const customFieldDescription = resource('customField', [getMany], { default: 'getMany' });
