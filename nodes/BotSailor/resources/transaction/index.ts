import { resource } from '../resource';
import { getMany } from './getMany';

export const transactionDescription = resource('transaction', [getMany], { default: 'getMany' });
