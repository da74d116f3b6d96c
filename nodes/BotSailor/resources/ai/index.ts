import { resource } from '../resource';
import { getResponse } from './getResponse';

export const aiDescription = resource('ai', [getResponse], { default: 'getResponse' });
