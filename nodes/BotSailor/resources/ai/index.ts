import { resource } from '../resource';
import { getResponseOperation } from './getResponse';

export const aiDescription = resource('ai', [getResponseOperation], { default: 'getResponse' });
