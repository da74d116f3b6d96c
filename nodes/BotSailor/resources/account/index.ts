import { resource } from '../resource';
import { connectOperation } from './connect';

export const accountDescription = resource('account', [connectOperation], { default: 'connect' });
